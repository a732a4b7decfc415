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
    outputSchema: outputJsonSchema(tool.output),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: openWorld },
  };
}

export function inputJsonSchema(schema: z.ZodObject): JsonSchema & { type: "object" } {
  const json = z.toJSONSchema(schema, { io: "input", target: "draft-7" }) as JsonSchema;
  delete json.$schema;
  return trimBounds(json) as JsonSchema & { type: "object" };
}

/**
 * The output's top-level fields and their JSON types. Nested shapes are left open: spelled out
 * they would cost several hundred tokens per tool on every tools/list, and the text content
 * already explains them. No field is required, so an isError result's `{error}` also conforms.
 */
export function outputJsonSchema(schema: z.ZodObject): JsonSchema & { type: "object" } {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    properties[key] = { type: jsonType(field) };
  }
  properties.error = { type: "object" };
  return { type: "object", properties };
}

function jsonType(schema: z.ZodType): string | string[] {
  let inner: z.ZodType = schema;
  let nullable = false;
  for (;;) {
    if (inner instanceof z.ZodNullable) nullable = true;
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
    else break;
  }
  const base =
    inner instanceof z.ZodString || inner instanceof z.ZodEnum || inner instanceof z.ZodLiteral ? "string"
    : inner instanceof z.ZodNumber ? "number"
    : inner instanceof z.ZodBoolean ? "boolean"
    : inner instanceof z.ZodArray ? "array"
    : "object";
  return nullable ? [base, "null"] : base;
}

function trimBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(trimBounds);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === "minimum" || k === "maximum") && typeof v === "number" && Math.abs(v) >= Number.MAX_SAFE_INTEGER) continue;
    out[k] = trimBounds(v);
  }
  return out;
}
