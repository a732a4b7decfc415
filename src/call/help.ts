// `call --help` and `call TOOL --help`, generated from the tools' zod definitions (through the same
// JSON Schema conversion as tools/list), so the help cannot drift from what a call accepts.
import { z } from "zod";

import { PARAM_DESCRIPTIONS } from "../catalog/index.js";
import { callConfigFlagsUsage } from "../config/flags.js";
import { EXIT } from "../library/exit-codes.js";
import type { Tool } from "../tools/define-tool.js";
import { allTools } from "../tools/index.js";
import { DATES_NOTE } from "../tools/params.js";
import { DEFAULT_CONCURRENCY, MAX_RETRIES, MAX_WAIT_S } from "./batch.js";
import { FORMATS, MAX_CONCURRENCY } from "./flags.js";

const BIN = "crypto-metrics-mcp";

interface Prop {
  type?: string | string[];
  enum?: unknown[];
  items?: Prop;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
  anyOf?: Prop[];
}

const wrap = (text: string, indent: string, width = 100): string => {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + word.length + 1 > width - indent.length) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => indent + l).join("\n");
};

/** A shell-safe rendering of one argument value. */
function shellWord(value: string): string {
  return /^[\w./:,@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The command line that makes the given arguments (arrays as comma lists, true booleans bare). */
export function commandLine(tool: Tool, args: Readonly<Record<string, unknown>>): string {
  const parts = [BIN, "call", tool.name];
  for (const [name, value] of Object.entries(args)) {
    if (value === true) parts.push(`--${name}`);
    else if (value === false) parts.push(`--no-${name}`);
    else parts.push(`--${name}`, shellWord(Array.isArray(value) ? value.join(",") : String(value)));
  }
  return parts.join(" ");
}

function typeWord(p: Prop): string {
  if (p.enum) return "VALUE";
  if (p.type === "array") return `${typeWord(p.items ?? {})},…`;
  if (p.type === "integer") return "N";
  if (p.type === "number") return "X";
  if (p.type === "boolean") return "";
  return "TEXT";
}

function accepts(p: Prop): string {
  const parts: string[] = [];
  if (p.enum) parts.push(`one of: ${p.enum.join(", ")}`);
  else if (p.type === "integer" || p.type === "number") {
    const kind = p.type === "integer" ? "integer" : "number";
    if (p.minimum !== undefined && p.maximum !== undefined && Math.abs(p.maximum) < Number.MAX_SAFE_INTEGER)
      parts.push(`${kind} from ${p.minimum} to ${p.maximum}`);
    else parts.push(kind);
  } else if (p.type === "boolean") parts.push("flag (--NAME for true, --no-NAME for false)");
  else if (p.type === "array") {
    const count =
      p.minItems !== undefined && p.maxItems !== undefined
        ? `${p.minItems}–${p.maxItems}`
        : p.minItems !== undefined
          ? `at least ${p.minItems}`
          : "one or more";
    parts.push(`${count} values, repeated (--NAME a --NAME b) or comma-separated (--NAME a,b)`);
    const items = p.items ?? {};
    if (items.enum) parts.push(`each one of: ${items.enum.join(", ")}`);
  } else parts.push(p.maxLength !== undefined ? `text, at most ${p.maxLength} characters` : "text");
  if (p.default !== undefined) parts.push(`default ${JSON.stringify(p.default)}`);
  return parts.join("; ");
}

export function toolHelp(tool: Tool): string {
  const schema = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, Prop>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  const props = Object.entries(schema.properties ?? {});
  const usage = [
    BIN,
    "call",
    tool.name,
    ...props.filter(([n]) => required.has(n)).map(([n, p]) => `--${n} ${typeWord(p)}`),
    props.some(([n]) => !required.has(n)) ? "[--name value …]" : "",
  ];
  const lines = [
    `${tool.name}: ${tool.title}`,
    wrap(tool.description, "  "),
    "",
    `Usage: ${usage.filter(Boolean).join(" ")} [--format ${FORMATS.join("|")}]`,
    "",
    "Arguments:",
  ];
  for (const [name, p] of props) {
    const head = `  --${name}${typeWord(p) ? ` ${typeWord(p)}` : ""}`;
    lines.push(`${head}${required.has(name) ? "   (required)" : ""}`);
    // The tool's own words first, then the spec parameter's (tools/list leaves those out to save tokens).
    const spec = Object.hasOwn(PARAM_DESCRIPTIONS, name) ? PARAM_DESCRIPTIONS[name as keyof typeof PARAM_DESCRIPTIONS] : undefined;
    const own = p.description && !spec?.includes(p.description.replace(/\.$/, "")) ? p.description : undefined;
    const said = [own, spec].filter((d): d is string => Boolean(d)).map((d) => d.replace(/\.?$/, "."));
    const listed = p.enum && said.some((d) => p.enum!.every((v) => d.includes(String(v))));
    lines.push(wrap([...said, listed ? "" : `${accepts(p).replace(/NAME/g, name)}.`].join(" "), "      "));
  }
  if (props.some(([n]) => /date/i.test(n)) && !props.some(([n]) => Object.hasOwn(PARAM_DESCRIPTIONS, n) && /date/i.test(n)))
    lines.push("", wrap(DATES_NOTE, "  "));
  if (tool.example) lines.push("", "Example:", `  ${commandLine(tool, tool.example)}`);
  lines.push(
    "",
    `Output: --format text (the digest), json (its structured result), csv (the records behind it, where the tool reads any). ${BIN} call --help lists the exit codes.`,
  );
  return `${lines.join("\n")}\n`;
}

export function callHelp(): string {
  const width = Math.max(...allTools.map((t) => t.name.length));
  return `Usage:
  ${BIN} call TOOL [--name value …] [--format text|json|csv]   one tool call
  ${BIN} call --batch FILE|- [--concurrency N] [--format json|text] [--no-wait]
                                   JSON Lines in ({"tool": "...", "arguments": {...}}, optional "id"),
                                   one JSON result per line out, in input order
  ${BIN} call TOOL --help           the tool's arguments, accepted values and an example

Tools:
${allTools.map((t) => `  ${t.name.padEnd(width)}  ${t.title}: ${t.description}`).join("\n")}

Arguments: --name value or --name=value; arrays repeated, comma-separated or as a JSON array
(--assets btc,eth); booleans as bare flags (--include_matrix, --no-include_matrix).
Output: text (default; the digest a model reads), json (the structured result, keys sorted),
csv (the full records behind a digest, with a header line). Only the result goes to stdout; errors go
to stderr, as {"error": {...}} with --format json or --batch.
Batches run up to ${MAX_CONCURRENCY} calls at once (--concurrency, default ${DEFAULT_CONCURRENCY}); a failed line carries its error and
the others still run. A line refused by the key's rate window waits it out and goes again (up to
${MAX_RETRIES} times, waits of at most ${MAX_WAIT_S} s), the batch holding back meanwhile and saying so on stderr;
--no-wait fails such lines at once.

Exit codes: ${EXIT.ok} ok · ${EXIT.usage} usage or invalid arguments · ${EXIT.auth} authentication or entitlement ·
${EXIT.limited} rate limited or credits exhausted · ${EXIT.unavailable} upstream unavailable · ${EXIT.other} anything else.
A batch exits 0 when every line succeeded, else with the code its failed lines share (1 if they differ).
Configuration flags (${callConfigFlagsUsage()}) and CRYPTO_METRICS_* variables apply as usual.
`;
}
