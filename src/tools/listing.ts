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
 * never fails a client's validation; a failed call's structuredContent is `{error}` alone.
 *
 * Lean for the hosts that compile it: an SDK (v1) client compiles every output schema when it lists
 * the tools (Ajv generates code for each keyword that validates), at every session start. What is
 * checked is what a result must hold: the required members (or {error} alone) and each enum's
 * values. Each member's type, and its own members, are said in its description in words (an
 * annotation, nothing to compile): with a `type` keyword on each top-level member, an SDK client's
 * listTools() took ~40 ms over the plain answer, without them ~13 (Node 20, measured as the bench
 * does, alternating the two builds). The catalog resource's output_schemas and the library's types
 * give every shape whole, typed.
 */
export function outputJsonSchema(schema: z.ZodObject, drawn = false): JsonSchema & { type: "object" } {
  const json = trimOutput(fullOutputSchema(schema)) as JsonSchema;
  const properties = Object.fromEntries(
    Object.entries(json.properties as Record<string, JsonSchema>).map(([name, member]) => [name, lean(member)]),
  );
  // The chart data only clients that render views receive, and only their view reads: named, not spelled out.
  if (drawn && properties.view) properties.view = { description: "object: the chart data the view draws" };
  // A failed call's structuredContent is {error} alone (clients validate it too).
  properties.error = ERROR_SCHEMA;
  // Either/or as if/else, not anyOf: an SDK client's Ajv (allErrors) compiles anyOf's branches at twice the cost.
  return { type: "object", properties, if: { required: ["error"] }, else: { required: json.required ?? [] } };
}

const ERROR_SCHEMA: JsonSchema = {
  description:
    "object, only on a failed call (isError): what went wrong and whether to retry; members: code (string), retryable (boolean), message (string), always; status (number), parameter (string), retry_after_s (number), credits_remaining (number), suggestions (array of string), when they apply",
};

/**
 * A top-level member: its values checked when it is an enum; its type, and its own members each
 * with its type, said in words in its description (a map of member schemas, even empty ones, is
 * code an SDK client's Ajv generates, and so is a `type` on each member).
 */
function lean(member: JsonSchema): JsonSchema {
  const variants = member.anyOf as JsonSchema[] | undefined;
  if (variants?.every((v) => v.type === "object" && v.properties)) {
    // One object whatever the variant (provenance: simulated or a real service), the variants said in words.
    const shapes = variants.map((v) => membersInWords(v.properties as Record<string, JsonSchema>));
    return { description: `object, one of: {${shapes.join("} or {")}}` };
  }
  // An enum says its values and so its type.
  if (member.enum !== undefined) return { enum: member.enum };
  const words = typeInWords(member);
  return {
    description: member.properties ? `${words}; members: ${membersInWords(member.properties as Record<string, JsonSchema>)}` : words,
  };
}

function membersInWords(properties: Record<string, JsonSchema>): string {
  return Object.entries(properties)
    .map(([name, node]) => `${name} (${typeInWords(node)})`)
    .join(", ");
}

/** "number", "[string, number]", "array of object", "string or null", "record of array": what a member holds. */
function typeInWords(node: JsonSchema): string {
  if (Array.isArray(node.anyOf)) return [...new Set((node.anyOf as JsonSchema[]).map(typeInWords))].join(" or ");
  // A member's values are the full schema's to list (the catalog resource's output_schemas), not every tools/list's.
  if (Array.isArray(node.enum) || node.const !== undefined)
    return typeof (node.enum as unknown[] | undefined)?.[0] === "number" ? "number" : "string";
  if (Array.isArray(node.prefixItems)) return `[${(node.prefixItems as JsonSchema[]).map(typeInWords).join(", ")}]`;
  if (node.type === "array") return node.items ? `array of ${typeInWords(node.items as JsonSchema)}` : "array";
  if (node.type === "object" && node.additionalProperties && !node.properties)
    return `record of ${typeInWords(node.additionalProperties as JsonSchema)}`;
  if (Array.isArray(node.type)) return (node.type as string[]).join(" or ");
  return typeof node.type === "string" ? node.type : "any";
}

/** Full JSON Schema of a tool's structured output, for the catalog resource and scripted clients. */
export function fullOutputSchema(schema: z.ZodObject): JsonSchema {
  // JSON Schema 2020-12, MCP's default dialect: tuples as prefixItems (draft 7's array-valued items is invalid there).
  const json = z.toJSONSchema(schema, { io: "output", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  return json;
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
