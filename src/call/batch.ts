// `call --batch FILE|-`: JSON Lines of {"tool", "arguments", "id"?} in, one JSON result per line out
// in input order, calls run with bounded concurrency in one process. The whole input is checked
// before any call: a malformed line stops the batch before anything is charged or printed. A line
// refused by the key's rate window waits it out and goes again (unless --no-wait), every line
// holding back meanwhile, so a batch larger than the window is paced by it instead of failing.
import { nearestEndpoints } from "../catalog/index.js";
import { EXIT, type ExitCode, exitCodeOf } from "../library/exit-codes.js";
import type { Outcome, Session } from "../library/session.js";
import type { ErrorPayload } from "../mcp/errors.js";
import type { Tool } from "../tools/define-tool.js";
import { allTools } from "../tools/index.js";
import { UsageError } from "./flags.js";
import { stableJson } from "./json-mode.js";

export const DEFAULT_CONCURRENCY = 8;
/** A batch file or stdin past this is refused before anything runs (100,000 lines of ~600 bytes). */
export const MAX_BATCH_BYTES = 64 * 1024 * 1024;

/** Times a rate-limited line goes again before it is answered with its rate_limited error. */
export const MAX_RETRIES = 8;
/** A window that asks a longer wait than this is not waited out: the line fails as with --no-wait. */
export const MAX_WAIT_S = 300;
/** A batch still running prints how far it is on stderr this often. */
export const PROGRESS_MS = 10_000;

export interface BatchLine {
  /** 1-based line number in the input. */
  line: number;
  tool: Tool;
  arguments: Record<string, unknown>;
  id?: string | number;
}

const LINE_KEYS = ["tool", "arguments", "id"];

function lineError(line: number, message: string): UsageError {
  return new UsageError(`batch line ${line}: ${message}`, "invalid_batch_line");
}

/** Every non-blank line, parsed and checked; throws on the first bad one, naming it and the fix. */
export function parseBatch(input: string): BatchLine[] {
  const out: BatchLine[] = [];
  const names = allTools.map((t) => t.name);
  const lines = input.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!.trim();
    if (!text) continue;
    const n = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw lineError(
        n,
        `not valid JSON (${(err as Error).message}); each line is one object such as {"tool": "get_metrics_variation", "arguments": {"asset": "btc"}}`,
      );
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      throw lineError(
        n,
        `expected an object {"tool": "...", "arguments": {...}}, got ${Array.isArray(value) ? "an array" : JSON.stringify(value)}`,
      );
    }
    const record = value as Record<string, unknown>;
    const extra = Object.keys(record).filter((k) => !LINE_KEYS.includes(k));
    if (extra.length)
      throw lineError(
        n,
        `unknown key ${extra.map((k) => `"${k.slice(0, 40)}"`).join(", ")}; a line has "tool", "arguments" and optionally "id"`,
      );
    if (typeof record.tool !== "string") throw lineError(n, `"tool" must be a tool name (${names.join(", ")})`);
    const tool = allTools.find((t) => t.name === record.tool);
    if (!tool) {
      const near = nearestEndpoints(record.tool, names, 1)[0];
      throw lineError(
        n,
        `unknown tool "${record.tool.slice(0, 60)}"${near ? ` (did you mean "${near}"?)` : ""}; tools: ${names.join(", ")}`,
      );
    }
    const args = record.arguments ?? {};
    if (!args || typeof args !== "object" || Array.isArray(args))
      throw lineError(n, `"arguments" must be an object of named arguments, e.g. {"asset": "btc"}`);
    const id = record.id;
    if (id !== undefined && typeof id !== "string" && typeof id !== "number") throw lineError(n, `"id" must be a string or a number`);
    out.push({ line: n, tool, arguments: args as Record<string, unknown>, ...(id !== undefined && { id }) });
  }
  if (out.length === 0)
    throw new UsageError(
      'the batch has no lines; give one JSON object per line: {"tool": "...", "arguments": {...}}',
      "invalid_batch_line",
    );
  return out;
}

export interface BatchSummary {
  total: number;
  failed: number;
  /** Failed lines by error code. */
  codes: Record<string, number>;
  /** The longest wait a rate-limited line was told, in seconds. */
  retryAfterS: number | undefined;
  exitCode: ExitCode;
}

/**
 * Runs the lines with at most `concurrency` in flight and writes each result as soon as every
 * earlier one is written, so the output is in input order and streams.
 */
export async function runBatch(
  session: Session,
  lines: readonly BatchLine[],
  options: {
    concurrency: number;
    format: "json" | "text";
    write: (line: string) => void;
    /** Wait out rate windows (false: --no-wait, a rate-limited line fails at once). */
    wait?: boolean;
    /** Where progress lines go (stderr). */
    progress?: (line: string) => void;
  },
): Promise<BatchSummary> {
  const done = new Array<string | undefined>(lines.length);
  let next = 0;
  let written = 0;
  let answered = 0;
  const progress = options.progress ?? (() => undefined);
  const window = new RateWindow((waitS) =>
    progress(
      `${answered} of ${lines.length} lines answered; the key's rate window is full, waiting ${waitS} s (--no-wait fails such lines at once)`,
    ),
  );
  const ticker = setInterval(() => progress(`${answered} of ${lines.length} lines answered`), PROGRESS_MS);
  ticker.unref();
  const failures: ErrorPayload[] = [];
  const flush = () => {
    while (written < lines.length && done[written] !== undefined) {
      options.write(`${done[written]}\n`);
      done[written++] = "";
    }
  };
  const worker = async () => {
    while (next < lines.length) {
      // No line starts while the window is known full: it would only be refused again.
      await window.open();
      if (next >= lines.length) break;
      const index = next++;
      const item = lines[index]!;
      const outcome = await runLine(session, item, window, options.wait !== false);
      answered++;
      if (!outcome.ok) failures.push(outcome.error);
      done[index] = resultLine(item, outcome, options.format);
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, lines.length) }, worker)).finally(() => clearInterval(ticker));
  return summary(lines.length, failures);
}

/** Runs one line; while the key's rate window refuses it, waits that out and goes again (when `wait`). */
async function runLine(session: Session, item: BatchLine, window: RateWindow, wait: boolean): Promise<Outcome> {
  let outcome = await session.run(item.tool, item.arguments);
  for (let retry = 0; wait && retry < MAX_RETRIES && !outcome.ok; retry++) {
    const waitS = outcome.error.code === "rate_limited" ? (outcome.error.retry_after_s ?? 1) : undefined;
    if (waitS === undefined || waitS > MAX_WAIT_S) break;
    window.full(waitS);
    await window.open();
    outcome = await session.run(item.tool, item.arguments);
  }
  return outcome;
}

/** The output line of one input line: its line number, id and tool, then the result or the error. */
function resultLine(item: BatchLine, outcome: Outcome, format: "json" | "text"): string {
  const head = { line: item.line, ...(item.id !== undefined && { id: item.id }), tool: item.tool.name };
  if (!outcome.ok) return stableJson({ ...head, ok: false, error: outcome.error }, 0, true);
  return stableJson({ ...head, ok: true, ...(format === "text" ? { text: outcome.text } : { result: outcome.structured }) }, 0, true);
}

/** Failures by code, the longest wait told, and one exit code: ok, the failures' common one, or "other" when they differ. */
function summary(total: number, failures: readonly ErrorPayload[]): BatchSummary {
  const exits = new Set(failures.map((f) => exitCodeOf(f.code)));
  const codes: Record<string, number> = {};
  for (const f of failures) codes[f.code] = (codes[f.code] ?? 0) + 1;
  const waits = failures.flatMap((f) => (f.retry_after_s !== undefined ? [f.retry_after_s] : []));
  return {
    total,
    failed: failures.length,
    codes,
    retryAfterS: waits.length ? Math.max(...waits) : undefined,
    exitCode: failures.length === 0 ? EXIT.ok : exits.size === 1 ? [...exits][0]! : EXIT.other,
  };
}

/** The key's rate window as the batch last heard of it: full until a time, then open again. */
class RateWindow {
  private until = 0;

  constructor(private readonly onWait: (waitS: number) => void) {}

  /** A call was refused for `waitS` seconds; said once per new wait. */
  full(waitS: number): void {
    const until = Date.now() + waitS * 1000;
    if (until <= this.until) return;
    if (this.until <= Date.now()) this.onWait(waitS);
    this.until = until;
  }

  /** Resolves once the window is no longer known full. */
  async open(): Promise<void> {
    while (Date.now() < this.until) await new Promise((resolve) => setTimeout(resolve, this.until - Date.now()));
  }
}
