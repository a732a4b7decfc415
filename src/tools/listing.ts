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
  /** MCP Apps: the view that draws the results (only listed for clients that render views). */
  _meta?: { ui: { resourceUri: string } };
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
    outputSchema: outputJsonSchema(),
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
 * Output schemas are advertised as plain objects: spelled out, the digests' shapes would cost
 * several hundred tokens per tool on every tools/list, and clients forward the text content to the
 * model anyway. The full JSON Schemas are in the crypto-metrics://catalog resource
 * (`output_schemas`). An isError result's `{error}` conforms too.
 */
export function outputJsonSchema(): JsonSchema & { type: "object" } {
  return { type: "object" };
}

/** Full JSON Schema of a tool's structured output, for the catalog resource and scripted clients. */
export function fullOutputSchema(schema: z.ZodObject): JsonSchema {
  const json = z.toJSONSchema(schema, { io: "output", target: "draft-7" }) as JsonSchema;
  delete json.$schema;
  return json;
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
