// How tools appear in tools/list: strict input schemas and top-level output schemas, trimmed of
// what costs a model tokens without telling it anything ($schema, safe-integer bounds).
import { z } from "zod";
import type { Tool } from "./define-tool.js";

type JsonSchema = Record<string, unknown>;

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  /** MCP Apps (only listed for clients that render views): the view that draws the results, or app-only visibility. */
  _meta?: { ui: { resourceUri: string } | { visibility: Array<"app" | "model"> } };
  outputSchema: JsonSchema & { type: "object" };
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

export function toolListing(tool: Tool, openWorld: boolean): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool.input),
    outputSchema: outputJsonSchema(tool.output, tool.view !== undefined),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: openWorld },
  };
}

/**
 * The strict input schema as JSON Schema, minus what a model does not need on every tools/list:
 * `$schema`, safe-integer bounds, `maxLength`, `maxItems` and `additionalProperties` (the wrapper still enforces
 * every one of them and names the field when a call breaks one).
 */
export function inputJsonSchema(schema: z.ZodObject): JsonSchema & { type: "object" } {
  const json = z.toJSONSchema(schema, { io: "input", target: "draft-7" }) as JsonSchema;
  delete json.$schema;
  delete json.additionalProperties;
  return trim(json) as JsonSchema & { type: "object" };
}

/**
 * The structured result's JSON Schema, generated from the tool's zod shape. Hosts give the model
 * names, descriptions and input schemas, not this: it is for typed clients and code-writing agents.
 * The top level admits members it does not name, so what the wrapper adds (provenance, a view)
 * never fails a client's validation; an isError result's `{error}` is not validated by clients.
 */
export function outputJsonSchema(schema: z.ZodObject, drawn = false): JsonSchema & { type: "object" } {
  const json = shallow(trimOutput(fullOutputSchema(schema)) as JsonSchema, 0);
  const properties = { ...(json.properties as Record<string, JsonSchema>) };
  // The chart data only clients that render views receive, and only their view reads: named, not spelled out.
  if (drawn && properties.view) properties.view = { type: "object" };
  // A failed call's structuredContent is {error} alone (clients validate it too).
  properties.error = ERROR_SCHEMA;
  return { type: "object", properties, anyOf: [{ required: json.required ?? [] }, { required: ["error"] }] };
}

const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  description: "only on a failed call (isError): what went wrong and whether to retry",
  properties: {
    code: { type: "string" },
    retryable: { type: "boolean" },
    message: { type: "string" },
    status: { type: "number" },
    parameter: { type: "string" },
    retry_after_s: { type: "number" },
    credits_remaining: { type: "number" },
    suggestions: { type: "array", items: { type: "string" } },
  },
  required: ["code", "retryable", "message"],
};

/** Full JSON Schema of a tool's structured output, for the catalog resource and scripted clients. */
export function fullOutputSchema(schema: z.ZodObject): JsonSchema {
  // JSON Schema 2020-12, MCP's default dialect: tuples as prefixItems (draft 7's array-valued items is invalid there).
  const json = z.toJSONSchema(schema, { io: "output", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  return json;
}

/**
 * The result's members and theirs, each deeper member by its type alone: every stdio session's
 * recorded handshake carries four copies of tools/list, and the whole shapes spelled out there cost
 * the bundle 15 KB; the catalog resource's output_schemas and the library's types give them whole.
 */
function shallow(node: JsonSchema, depth: number): JsonSchema {
  if (depth >= 2) {
    const { type, anyOf } = node as { type?: unknown; anyOf?: JsonSchema[] };
    if (type !== undefined) return { type };
    return anyOf ? { anyOf: anyOf.map((n) => shallow(n, depth)) } : {};
  }
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "properties" && v && typeof v === "object")
      out[k] = Object.fromEntries(Object.entries(v as Record<string, JsonSchema>).map(([p, n]) => [p, shallow(n, depth + 1)]));
    else if ((k === "items" || k === "additionalProperties") && v && typeof v === "object") out[k] = shallow(v as JsonSchema, depth + 1);
    else if (k === "prefixItems" && Array.isArray(v)) out[k] = (v as JsonSchema[]).map((n) => shallow(n, depth + 1));
    else if (k === "anyOf" && Array.isArray(v)) out[k] = (v as JsonSchema[]).map((n) => shallow(n, depth));
    else out[k] = v;
  }
  return out;
}

/**
 * What an advertised output schema need not spell out: the descriptions (the catalog resource's
 * output_schemas and the library's types keep them; every stdio session's recorded tools/list
 * carries four copies of this), safe-integer bounds, that a record's keys are strings, and the
 * closing of objects and tuples (clients then accept a member added later); valid read as JSON
 * Schema 2020-12 (MCP's default) and as draft 07 alike.
 */
function trimOutput(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(trimOutput);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "description" && typeof v === "string") continue;
    if ((k === "minimum" || k === "maximum") && typeof v === "number" && Math.abs(v) >= Number.MAX_SAFE_INTEGER) continue;
    if (k === "propertyNames" && JSON.stringify(v) === '{"type":"string"}') continue;
    // A tuple's length is said by minItems and its items; an object's members by its properties.
    // A tuple is its prefixItems and minItems alone: the rest's `items` (or `items: false`) would be
    // read as every member's schema by the draft-07 validators many clients still run.
    const tuple = Array.isArray((node as { prefixItems?: unknown }).prefixItems);
    if ((k === "items" || k === "maxItems") && tuple) continue;
    if (k === "additionalProperties" && v === false) continue;
    out[k] = trimOutput(v);
  }
  return out;
}

function trim(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(trim);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === "minimum" || k === "maximum") && typeof v === "number" && Math.abs(v) >= Number.MAX_SAFE_INTEGER) continue;
    // Bounds of counts (max_points 4–5,000, top_k 1–10) are left to the wrapper's error message,
    // which names the range; the descriptions give the defaults.
    if ((k === "minimum" || k === "maximum") && (node as { type?: unknown }).type === "integer") continue;
    if (k === "maxLength" || k === "maxItems") continue;
    // An enum already says it holds strings.
    if (k === "type" && v === "string" && "enum" in (node as object)) continue;
    out[k] = trim(v);
  }
  return out;
}
