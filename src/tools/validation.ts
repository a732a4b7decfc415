// Argument validation with the tool's own zod schema, producing messages that name the field,
// what it accepts and what was sent, so a model can fix the call in one step.
import { z } from "zod";

import { endpointById, nearestEndpoints } from "../catalog/index.js";
import { ToolInputError } from "../mcp/errors.js";
import { TOOL_OF_KIND } from "../mcp/lookup.js";
import type { Tool } from "./define-tool.js";

export function parseArgs<T extends Tool>(tool: T, raw: unknown): z.output<T["input"]> {
  const input = raw ?? {};
  // jitless: zod would otherwise generate and compile a parser for each object schema on its first
  // use, a few ms a one-shot `call` pays in full; arguments are objects of a handful of fields,
  // which the generic parser reads about as fast. Same results and issues either way.
  const result = tool.input.safeParse(input, { reportInput: true, jitless: true });
  if (result.success) return result.data as z.output<T["input"]>;
  const shape = tool.input.shape as Record<string, z.ZodType>;
  const issues = result.error.issues.slice(0, 6);
  const lines = issues.map((issue) => describeIssue(issue, shape, tool.name));
  // A string that is not one of the ids is an unknown metric; a value of another type is a malformed argument.
  const metricIssue = issues.find((i) => i.path[0] === "metric" && i.code === "invalid_value" && typeof i.input === "string");
  const parameter = issues.length === 1 ? String(issues[0]!.path[0] ?? "") || undefined : undefined;
  const suggestions = metricIssue ? metricSuggestions(metricIssue.input, shape.metric) : undefined;
  const joined = lines.join("; ");
  const text = `Invalid arguments for ${tool.name}: ${joined}${/[.?!]$/.test(joined) ? "" : "."} Fix and call again.`;
  throw new ToolInputError(metricIssue ? "unknown_metric" : "invalid_arguments", text, {
    ...(parameter && { parameter }),
    ...(suggestions?.length && { suggestions }),
  });
}

/** Bounds the work validation does on hostile argument objects (GHSA-46jr-4wx8-v453). */
export const MAX_TOOL_INPUT_ELEMENTS = 512;

/** Array items and object members, counted through nested values; stops once past the bound. */
function elements(value: unknown, budget: number): number {
  if (typeof value !== "object" || value === null) return 0;
  const items = Array.isArray(value) ? value : Object.values(value);
  let n = items.length;
  for (const item of items) {
    if (n > budget) break;
    n += elements(item, budget - n);
  }
  return n;
}

/** An arguments object too large to validate is refused before anything runs (nothing charged). */
export function oversized(tool: string, args: unknown): ToolInputError | undefined {
  if (elements(args, MAX_TOOL_INPUT_ELEMENTS) <= MAX_TOOL_INPUT_ELEMENTS) return undefined;
  return new ToolInputError(
    "invalid_arguments",
    `Invalid arguments for ${tool}: the arguments hold more than the maximum of ${MAX_TOOL_INPUT_ELEMENTS} elements (array items and object members together). Send only the tool's own arguments.`,
  );
}

/**
 * Argument names that the SDK's own parsing drops before the tool sees them (zod skips an own
 * "__proto__" key): checked on the raw request, refused like any unknown argument.
 */
export function droppedArgument(tool: Tool, raw: unknown): ToolInputError | undefined {
  if (typeof raw !== "object" || raw === null || !Object.hasOwn(raw, "__proto__")) return undefined;
  const accepted = Object.keys(tool.input.shape as object).join(", ");
  return new ToolInputError(
    "invalid_arguments",
    `Invalid arguments for ${tool.name}: unknown argument "__proto__"; ${tool.name} accepts: ${accepted}. Fix and call again.`,
    { parameter: "__proto__" },
  );
}

/** Names a caller may reach for instead of ours. */
const SYNONYMS: Record<string, string> = {
  from: "startDate",
  since: "startDate",
  to: "endDate",
  until: "endDate",
  limit: "max_points",
  points: "max_points",
};

/**
 * The accepted argument most likely meant by an unknown one: the same name in another spelling
 * (start_date, StartDate), a name it begins (start → startDate, max → max_points), a common
 * synonym (from → startDate), else the closest by edit distance.
 */
export function nearestArgument(key: string, accepted: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  const k = norm(key);
  if (!k) return undefined;
  const same = accepted.find((a) => norm(a) === k);
  if (same) return same;
  const synonym = SYNONYMS[k];
  if (synonym && accepted.includes(synonym)) return synonym;
  if (k.length >= 3) {
    const prefixed = accepted.filter((a) => norm(a).startsWith(k)).sort((a, b) => a.length - b.length)[0];
    if (prefixed) return prefixed;
  }
  return nearestEndpoints(key, accepted, 1)[0] ?? caseInsensitive(key, accepted);
}

function describeIssue(issue: z.core.$ZodIssue, shape: Record<string, z.ZodType>, toolName: string): string {
  if (issue.code === "unrecognized_keys") {
    const accepted = Object.keys(shape);
    return issue.keys
      .map((key) => {
        const near = nearestArgument(key, accepted);
        return `unknown argument "${clip(key)}"${near ? ` (did you mean "${near}"?)` : ""}`;
      })
      .join("; ")
      .concat(`; ${toolName} accepts: ${accepted.join(", ")}`);
  }
  const field = String(issue.path[0] ?? "arguments");
  const schema = shape[field];
  if (issue.path.length === 0) return `arguments must be an object of named fields (got ${show(issue.input)})`;
  if (issue.input === undefined) return `${field} is required: ${schema ? expected(schema) : "a value"}`;
  if (field === "metric" && issue.code === "invalid_value" && typeof issue.input === "string") return metricText(issue.input, schema);
  return `${field} must be ${schema ? expected(schema) : "valid"} (got ${show(issue.input)})`;
}

function metricText(value: string, schema: z.ZodType | undefined): string {
  const other = endpointById(value);
  if (other) return `metric "${value}" is served by ${TOOL_OF_KIND[other.kind]}, not this tool`;
  const near = metricSuggestions(value, schema);
  if (near.length) return `metric "${clip(value)}" is not one of this tool's ids. Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`;
  return `metric "${clip(value)}" is not one of this tool's ids (${(schema ? enumOptions(schema) : []).join(", ")})`;
}

function metricSuggestions(input: unknown, schema: z.ZodType | undefined): string[] {
  const options = schema ? enumOptions(schema) : [];
  return typeof input === "string" && options.length ? nearestEndpoints(input, options, 3) : [];
}

/** What a field accepts, in words, read from its schema (so it cannot drift from validation). */
export function expected(schema: z.ZodType): string {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodNumber) {
    const kind = inner.format === "safeint" || inner.isInt ? "an integer" : "a number";
    const { minValue: lo, maxValue: hi } = inner;
    if (lo !== null && hi !== null && Number.isFinite(lo) && Number.isFinite(hi) && Math.abs(hi) < 1e15)
      return `${kind} from ${lo} to ${hi}`;
    return kind;
  }
  if (inner instanceof z.ZodEnum) {
    const options = inner.options.map(String);
    return options.length <= 12 ? `one of ${options.join(", ")}` : `one of ${options.length} ids`;
  }
  if (inner instanceof z.ZodBoolean) return "true or false";
  if (inner instanceof z.ZodArray) return `a list of ${expected(inner.element as z.ZodType).replace(/^an? /, "")}s`;
  if (inner instanceof z.ZodString) return inner.maxLength !== null ? `a string of at most ${inner.maxLength} characters` : "a string";
  return "a valid value";
}

function enumOptions(schema: z.ZodType): string[] {
  const inner = unwrap(schema);
  return inner instanceof z.ZodEnum ? inner.options.map(String) : [];
}

/** The schema inside optional/default/nullable/preprocess wrappers. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable)
      current = current.unwrap() as z.ZodType;
    // A preprocessed field (a list that also accepts a comma-separated string) is described by its output.
    else if (current instanceof z.ZodPipe) current = current.out as z.ZodType;
    else return current;
  }
}

function caseInsensitive(key: string, accepted: readonly string[]): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[_-]/g, "");
  return accepted.find((a) => squash(a) === squash(key));
}

function show(value: unknown): string {
  const text =
    typeof value === "string" ? JSON.stringify(value) : value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  return clip(text);
}

function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
