// Writes src/library/tool-types.ts: each tool's arguments and result as plain TypeScript types,
// converted from its zod schemas (through JSON Schema, as tools/list does). A shape several results
// share is a named zod schema (NAMED below), declared once as its own type and referred to by name
// ($defs: a registry gives each its id), so the file holds each shape once. The library entry's
// declarations use them, so the published types need neither zod nor the MCP SDK. `--check` exits 1
// when the committed file has drifted from the tool definitions.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { z } from "zod";

import { chartViewSchema, heatmapViewSchema, seriesViewSchema } from "../src/charts/model/view-schema.js";
import { methodName as camel } from "../src/library/session.js";
import { pairSchema } from "../src/summary/format/compact.js";
import { clusterSchema, sideSchema } from "../src/summary/heatmap/heatmap-compact.js";
import { compactSeriesDigestSchema, moveSchema } from "../src/summary/series/series-compact.js";
import { allTools } from "../src/tools/index.js";
import { sourceSchema } from "../src/tools/provenance.js";
import { creditsSchema } from "../src/tools/series-common.js";

/** The shapes results share, by the name the library gives them. */
const NAMED: ReadonlyArray<readonly [name: string, schema: z.ZodType]> = [
  ["TimeValue", pairSchema],
  ["SeriesDigest", compactSeriesDigestSchema],
  ["CandleMove", moveSchema],
  ["HeatmapCluster", clusterSchema],
  ["HeatmapSide", sideSchema],
  ["Credits", creditsSchema],
  ["Source", sourceSchema],
  ["ChartView", chartViewSchema],
  ["HeatmapView", heatmapViewSchema],
  ["SeriesView", seriesViewSchema],
];

export const TYPES_FILE = join(import.meta.dirname, "..", "src", "library", "tool-types.ts");

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  prefixItems?: Schema[];
  minItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  description?: string;
  $ref?: string;
  $defs?: Record<string, Schema>;
}

const PAD = "  ";
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

function union(parts: string[]): string {
  return [...new Set(parts)].join(" | ");
}

function ts(schema: Schema, depth: number, defs: Record<string, Schema>): string {
  // A named shape: its own declaration.
  if (schema.$ref && !schema.$ref.startsWith("#")) return schema.$ref;
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/\$defs\//, "");
    const target = defs[name];
    return target ? ts(target, depth, defs) : "unknown";
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return union(schema.enum.map((v) => JSON.stringify(v)));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return union(alternatives.map((s) => ts(s, depth, defs)));
  if (schema.allOf) return schema.allOf.map((s) => ts(s, depth, defs)).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return union(types.map((t) => ts({ ...schema, type: t }, depth, defs)));
  switch (types[0]) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      if (schema.prefixItems) {
        // A tuple: members past minItems are optional, and `items` types any rest.
        const min = schema.minItems ?? schema.prefixItems.length;
        const members = schema.prefixItems.map((s, i) => `${ts(s, depth, defs)}${i >= min ? "?" : ""}`);
        if (schema.items) members.push(`...Array<${ts(schema.items, depth, defs)}>`);
        return `[${members.join(", ")}]`;
      }
      return `Array<${ts(schema.items ?? {}, depth, defs)}>`;
    case "object":
      return object(schema, depth, defs);
    default:
      return "unknown";
  }
}

function object(schema: Schema, depth: number, defs: Record<string, Schema>): string {
  const props = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (props.length === 0) {
    if (extra && typeof extra === "object") return `Record<string, ${ts(extra, depth, defs)}>`;
    return "Record<string, unknown>";
  }
  const required = new Set(schema.required ?? []);
  const inner = PAD.repeat(depth + 1);
  const lines = props.map(([name, p]) => {
    const doc = p.description ? `${inner}/** ${p.description.replace(/\*\//g, "*\\/")} */\n` : "";
    return `${doc}${inner}${key(name)}${required.has(name) ? "" : "?"}: ${ts(p, depth + 1, defs)};`;
  });
  return `{\n${lines.join("\n")}\n${PAD.repeat(depth)}}`;
}

const pascal = (name: string) =>
  name
    .split("_")
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");

function declaration(name: string, schema: Schema): string {
  return `export type ${name} = ${ts(schema, 0, schema.$defs ?? {})};\n`;
}

const doc = (text: string) => `/** ${text.replace(/\*\//g, "*\\/")} */`;

/** JSON Schema of every schema registered, each named shape inside another referred to by its name. */
function convert(entries: ReadonlyArray<readonly [string, z.ZodType]>, io: "input" | "output"): Record<string, Schema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io, unrepresentable: "any", uri: (id) => id }) as unknown as {
    schemas: Record<string, Schema>;
  };
  return schemas;
}

export function generateTypes(): string {
  const parts = [
    "// Generated by scripts/generate-lib-types.ts from the tools' zod schemas (npm run docs); do not edit.",
    "// Plain types, so the library's published declarations depend on nothing else.",
    "",
  ];
  const inputs = convert(
    allTools.map((tool) => [`${pascal(tool.name)}Args`, tool.input] as const),
    "input",
  );
  const outputs = convert([...allTools.map((tool) => [`${pascal(tool.name)}Result`, tool.output] as const), ...NAMED], "output");
  for (const tool of allTools) {
    parts.push(
      doc(`Arguments of ${tool.name}: ${tool.description}`),
      declaration(`${pascal(tool.name)}Args`, inputs[`${pascal(tool.name)}Args`]!),
    );
    parts.push(
      doc(`Result of ${tool.name} (its structuredContent).`),
      declaration(`${pascal(tool.name)}Result`, outputs[`${pascal(tool.name)}Result`]!),
    );
  }
  for (const [name] of NAMED) {
    const schema = outputs[name]!;
    if (schema.description) parts.push(doc(schema.description));
    parts.push(declaration(name, schema));
  }
  const optionalArgs = (t: (typeof allTools)[number]) =>
    ((z.toJSONSchema(t.input, { io: "input", unrepresentable: "any" }) as Schema).required ?? []).length === 0;
  parts.push(
    "/** The tools by name. */",
    `export type ToolName = ${allTools.map((t) => JSON.stringify(t.name)).join(" | ")};`,
    "",
    "export interface ToolArgs {",
    ...allTools.map((t) => `  ${t.name}: ${pascal(t.name)}Args;`),
    "}",
    "",
    "export interface ToolResults {",
    ...allTools.map((t) => `  ${t.name}: ${pascal(t.name)}Result;`),
    "}",
    "",
    "/** Per-call options: an abort signal, and a key other than the configured one. */",
    "export interface CallOptions {",
    "  signal?: AbortSignal;",
    "  apiKey?: string;",
    "}",
    "",
    "/** One async function per tool, named in camelCase. */",
    "export interface ToolFunctions {",
    ...allTools.flatMap((t) => [
      `  /** ${t.title}: ${t.description.replace(/\*\//g, "*\\/")} */`,
      `  ${camel(t.name)}(args${optionalArgs(t) ? "?" : ""}: ${pascal(t.name)}Args, options?: CallOptions): Promise<${pascal(t.name)}Result>;`,
    ]),
    "}",
    "",
  );
  return parts.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = generateTypes();
  if (process.argv.includes("--check")) {
    const current = readFileSync(TYPES_FILE, "utf8");
    if (current !== text) {
      process.stderr.write("src/library/tool-types.ts is out of date: run npm run docs\n");
      process.exit(1);
    }
  } else {
    writeFileSync(TYPES_FILE, text);
    process.stderr.write(`wrote ${TYPES_FILE}\n`);
  }
}
