// The tokens after `call`: the call's own options (--format, --batch, --concurrency, --no-wait, --help) and a
// tool's arguments as flags, read with the tool's zod schema: numbers converted, booleans as bare
// flags (or --no-NAME), arrays as repeated flags, comma lists or JSON arrays. Values the schema
// would refuse are passed on as given, so the tool's own validation names the field and the fix.
import { z } from "zod";

import { CALL_OPTIONS, splitFlag } from "../config/flags.js";
import type { CommandErrorCode } from "../library/exit-codes.js";
import type { Tool } from "../tools/define-tool.js";
import { nearestArgument, unwrap } from "../tools/validation.js";

export const FORMATS = ["text", "json", "csv"] as const;
export type Format = (typeof FORMATS)[number];

/** A `call` command line as read: its own options, and the tool with its argument tokens. */
export interface CallCommand {
  help: boolean;
  format: Format;
  /** The --format given, if any (batches refuse csv, and default to json). */
  formatGiven: Format | undefined;
  /** A JSON Lines file, or "-" for stdin. */
  batch: string | undefined;
  concurrency: number | undefined;
  /** --no-wait: a batch line refused by the rate window fails at once instead of waiting it out. */
  noWait: boolean;
  tool: string | undefined;
  /** The tokens after the tool name that are not call options: the tool's arguments. */
  toolTokens: string[];
}

/** A mistake in the command line itself: exit code 2, and nothing is called. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    message: string,
    readonly code: CommandErrorCode = "usage",
  ) {
    super(message);
  }
}

const OPTIONS = new Map(CALL_OPTIONS.map((o) => [o.name, o]));
export const MAX_CONCURRENCY = 64;

export function parseCallCommand(argv: readonly string[]): CallCommand {
  const out: CallCommand = {
    help: false,
    format: "text",
    formatGiven: undefined,
    batch: undefined,
    concurrency: undefined,
    noWait: false,
    tool: undefined,
    toolTokens: [],
  };
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "-h") {
      out.help = true;
      continue;
    }
    if (!token.startsWith("--")) {
      if (out.tool === undefined) {
        out.tool = token;
        continue;
      }
      out.toolTokens.push(token);
      continue;
    }
    const [name, inline] = splitFlag(token);
    if (!OPTIONS.has(name)) {
      if (out.tool === undefined) {
        throw new UsageError(
          `${token} comes before the tool name; write the tool first, then its arguments: call TOOL --name value (call --help lists the tools)`,
        );
      }
      out.toolTokens.push(token);
      continue;
    }
    if (name === "help") {
      out.help = true;
      continue;
    }
    if (name === "no-wait") {
      if (inline !== undefined) throw new UsageError(`--no-wait takes no value (got "${inline.slice(0, 40)}"); write --no-wait alone`);
      out.noWait = true;
      continue;
    }
    if (seen.has(name)) throw new UsageError(`--${name} is given twice; give it once`);
    seen.add(name);
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith("--"))) throw needsValue(name);
    setValueOption(out, name, value);
  }
  if (out.help) return out;
  checkBatchOrSingle(out);
  return out;
}

function needsValue(name: string): UsageError {
  return new UsageError(`--${name} needs a value, e.g. --${name} ${OPTIONS.get(name)?.example ?? "…"}`);
}

/** --format, --batch or --concurrency set from its value; a value out of range is refused. */
function setValueOption(out: CallCommand, name: string, value: string): void {
  if (name === "format") {
    if (!(FORMATS as readonly string[]).includes(value))
      throw new UsageError(`--format must be one of ${FORMATS.join(", ")} (got "${value}")`);
    out.format = out.formatGiven = value as Format;
  } else if (name === "batch") {
    out.batch = value;
  } else {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_CONCURRENCY) {
      throw new UsageError(`--concurrency must be an integer from 1 to ${MAX_CONCURRENCY} (got "${value}")`);
    }
    out.concurrency = Number(value);
  }
}

/**
 * Options that only a batch takes, or only a single call, refused in the other; a batch reads its
 * tools from its lines and writes JSON unless told otherwise.
 */
function checkBatchOrSingle(out: CallCommand): void {
  if (out.batch !== undefined) {
    if (out.tool !== undefined) {
      throw new UsageError(
        `--batch reads each line's tool from ${out.batch === "-" ? "stdin" : out.batch}, so "${out.tool}" cannot be given as well; drop the tool name and its arguments, or drop --batch`,
      );
    }
    if (out.formatGiven === "csv") {
      throw new UsageError(
        "--format csv cannot be combined with --batch (a batch writes one JSON result per line); use --format json, or one call per CSV",
      );
    }
    out.format = out.formatGiven ?? "json";
  } else {
    if (out.concurrency !== undefined)
      throw new UsageError("--concurrency applies to --batch only; drop it, or run the calls with --batch FILE");
    if (out.noWait) throw new UsageError("--no-wait applies to --batch only (a single call never waits); drop it");
    if (out.tool === undefined) {
      throw new UsageError(
        "call needs a tool name, e.g. call get_series --metric lifespan/Lth_mvrv --asset btc (call --help lists the tools), or --batch FILE",
      );
    }
  }
}

type FieldKind = { kind: "boolean" } | { kind: "number" } | { kind: "string" } | { kind: "array"; element: "number" | "string" };

/**
 * The schema that says what a flag's value is: inside optional/default wrappers and, for a pipe
 * (z.preprocess, z.pipe), its output when its input is a bare transform that accepts anything.
 */
function valueSchema(schema: z.ZodType): z.ZodType {
  let inner = unwrap(schema);
  for (let i = 0; i < 8 && "in" in inner && "out" in inner; i++) {
    const pipe = inner as unknown as { in: z.ZodType; out: z.ZodType };
    inner = unwrap(pipe.in instanceof z.ZodTransform ? pipe.out : pipe.in);
  }
  return inner;
}

function kindOf(schema: z.ZodType | undefined): FieldKind {
  const inner = schema ? valueSchema(schema) : undefined;
  if (inner instanceof z.ZodBoolean) return { kind: "boolean" };
  if (inner instanceof z.ZodNumber) return { kind: "number" };
  if (inner instanceof z.ZodArray) {
    const element = valueSchema(inner.element as z.ZodType);
    return { kind: "array", element: element instanceof z.ZodNumber ? "number" : "string" };
  }
  return { kind: "string" };
}

function numberOrText(value: string): number | string {
  return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value.trim()) ? Number(value) : value;
}

/** A list flag's value: a JSON array (`'["btc","eth"]'`) or comma-separated values. */
function listItems(value: string): string[] {
  if (value.trim().startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // Not JSON after all: read it as a comma list, and let validation name what is wrong.
    }
  }
  return value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

/** Flags after the tool name → the tool's argument object. */
export function parseToolArgs(tool: Tool, tokens: readonly string[]): Record<string, unknown> {
  const shape = tool.input.shape as Record<string, z.ZodType>;
  const args: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.startsWith("--") || token.length === 2) {
      throw new UsageError(`unexpected "${token}" in ${tool.name}'s arguments; write them as --name value (call ${tool.name} --help)`);
    }
    let [name, inline] = splitFlag(token);
    // --no-NAME turns a boolean off.
    if (!Object.hasOwn(shape, name) && name.startsWith("no-") && kindOf(shape[name.slice(3)]).kind === "boolean" && inline === undefined) {
      name = name.slice(3);
      inline = "false";
    }
    // A flag the tool does not take, close to one it does: name that flag as it is written here.
    // Others go on to validation, which lists every argument the tool accepts.
    const near = Object.hasOwn(shape, name) ? undefined : nearestArgument(name, Object.keys(shape));
    if (near)
      throw new UsageError(
        `${tool.name} has no flag --${name.slice(0, 40)}; did you mean --${near}? (call ${tool.name} --help lists its flags; nothing was charged)`,
      );
    const kind = kindOf(shape[name]);
    const next = tokens[i + 1];
    const takesNext = next !== undefined && !next.startsWith("--");
    if (kind.kind === "boolean") {
      if (Object.hasOwn(args, name)) throw new UsageError(`--${name} is given twice; give it once`);
      let value = inline;
      if (value === undefined && takesNext && /^(true|false)$/i.test(next)) {
        value = next;
        i++;
      }
      args[name] = value === undefined ? true : /^(true|false)$/i.test(value) ? value.toLowerCase() === "true" : value;
      continue;
    }
    const value = inline ?? (takesNext ? tokens[++i]! : undefined);
    if (value === undefined) {
      throw new UsageError(
        `--${name} needs a value${Object.hasOwn(shape, name) ? "" : ` (and ${tool.name} has no argument named ${name}: call ${tool.name} --help)`}`,
      );
    }
    if (kind.kind === "array") {
      const items = listItems(value);
      const list = (args[name] as unknown[] | undefined) ?? [];
      list.push(...items.map((v) => (kind.element === "number" ? numberOrText(v) : v)));
      args[name] = list;
      continue;
    }
    if (Object.hasOwn(args, name)) {
      throw new UsageError(`--${name} is given twice with ${tool.name}, which takes one value for it; give it once`);
    }
    args[name] = kind.kind === "number" ? numberOrText(value) : value;
  }
  return { ...args };
}
