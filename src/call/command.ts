// `crypto-metrics-mcp call`: one tool call (text, JSON or CSV on stdout), a batch of calls from JSON
// Lines, or help generated from the tools' definitions. stdout carries only the result; errors go to
// stderr (as JSON with --format json or --batch) and the exit code says what kind of failure it was.
import { endpointById, nearestEndpoints } from "../catalog/index.js";
import type { Config } from "../config.js";
import { exitCodeOf } from "../library/exit-codes.js";
import { openSession } from "../library/session.js";
import type { ErrorPayload } from "../mcp/errors.js";
import { readBounded, TooLargeError } from "../read-bounded.js";
import { loadTool, TOOL_NAMES } from "../tools/by-name.js";
import type { Tool } from "../tools/define-tool.js";
import { type CallCommand, parseCallCommand, parseToolArgs, UsageError } from "./flags.js";
import { errorJson, stableJson, wantsJson } from "./json-mode.js";
import { csvOfCall } from "./output.js";

function out(text: string): void {
  process.stdout.write(text); // stdout-ok: the call command's output is its result
}

/** An error on stderr, in words or as {"error": {...}}, and the exit code it stands for. */
function report(error: Pick<ErrorPayload, "code" | "message"> & Partial<ErrorPayload>, json: boolean): void {
  const exit = exitCodeOf(error.code);
  if (json) {
    process.stderr.write(errorJson({ ...error, exit_code: exit }));
  } else {
    const wait =
      error.retry_after_s !== undefined && !/retry after \d+ s/i.test(error.message) ? ` (retry after ${error.retry_after_s} s)` : "";
    process.stderr.write(`crypto-metrics-mcp: ${error.message}${wait}\n`);
  }
  process.exitCode = exit;
}

function usage(err: UsageError, json: boolean): void {
  report({ code: err.code, message: err.message, retryable: false }, json);
}

/** The named tool, its module loaded alone: one call pays for no other tool's schemas or digest. */
async function toolNamed(name: string): Promise<Tool> {
  const tool = await loadTool(name);
  if (tool) return tool;
  const names: readonly string[] = TOOL_NAMES;
  const near = nearestEndpoints(name, names, 1)[0];
  throw new UsageError(
    `unknown tool "${name.slice(0, 60)}"${near ? ` (did you mean ${near}?)` : ""}; tools: ${names.join(", ")} (call --help)`,
    "unknown_tool",
  );
}

/**
 * A tool whose one endpoint returns no records (the heatmap's matrix) cannot give CSV: refused before
 * the call, so nothing is charged. A tool that reads nothing (list_assets) is refused after it.
 */
function refuseCsv(tool: Tool): UsageError {
  return new UsageError(
    `--format csv needs a tool that reads records; ${tool.name} has no table behind its result. Use --format json for its structured result${tool.endpoint ? " (the full data is the resource its result links to)" : ""}`,
    "no_tabular_data",
  );
}

async function single(config: Config, options: CallCommand): Promise<void> {
  const tool = await toolNamed(options.tool!);
  const args = parseToolArgs(tool, options.toolTokens);
  if (options.format === "csv" && tool.endpoint && endpointById(tool.endpoint)?.kind === "heatmap") throw refuseCsv(tool);
  const session = await openSession(config);
  try {
    const outcome = await session.run(tool, args, { capture: options.format === "csv" });
    if (!outcome.ok) return report(outcome.error, options.format === "json");
    if (options.format === "json") return out(`${stableJson(outcome.structured, 2)}\n`);
    if (options.format === "csv") {
      const table = csvOfCall(outcome.fetched);
      if (table === undefined) throw refuseCsv(tool);
      return out(table);
    }
    out(`${outcome.text}\n`);
    if (outcome.images)
      process.stderr.write(
        `crypto-metrics-mcp: the result's ${outcome.images === 1 ? "image is" : `${outcome.images} images are`} not printed: call writes text, JSON or CSV only\n`,
      );
  } finally {
    await session.close();
  }
}

function readInput(source: string, maxBytes: number): string {
  try {
    return readBounded(source === "-" ? 0 : source, maxBytes);
  } catch (err) {
    if (err instanceof TooLargeError)
      throw new UsageError(
        `the batch ${source === "-" ? "on stdin" : `file ${source}`} holds ${err.message}; split it into batches of at most ${maxBytes / 1024 / 1024} MiB`,
      );
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read the batch ${source === "-" ? "from stdin" : `file ${source}`} (${code ?? (err as Error).message}); give a JSON Lines file, or - for stdin`,
    );
  }
}

async function batch(config: Config, options: CallCommand): Promise<void> {
  // Loaded here: a batch may name any tool, so it loads them all, which a single call does not.
  const { DEFAULT_CONCURRENCY, MAX_BATCH_BYTES, parseBatch, runBatch } = await import("./batch.js");
  const lines = parseBatch(readInput(options.batch!, MAX_BATCH_BYTES));
  const session = await openSession(config);
  try {
    const summary = await runBatch(session, lines, {
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      format: options.format === "text" ? "text" : "json",
      write: out,
      wait: !options.noWait,
      progress: (line) => process.stderr.write(`crypto-metrics-mcp: ${line}\n`),
    });
    if (summary.failed) {
      const codes = Object.entries(summary.codes)
        .map(([code, n]) => `${n} ${code}`)
        .join(", ");
      const wait = summary.retryAfterS !== undefined ? `; retry after ${summary.retryAfterS} s` : "";
      process.stderr.write(
        `crypto-metrics-mcp: ${summary.failed} of ${summary.total} batch lines failed (${codes}${wait}); each carries its error on its line\n`,
      );
    }
    process.exitCode = summary.exitCode;
  } finally {
    await session.close();
  }
}

export async function runCall(config: Config): Promise<void> {
  // A reader that stops early (`| head`) is not an error of ours: stop quietly.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
  const argv = config.call?.argv ?? [];
  const json = wantsJson(["call", ...argv]);
  try {
    const options = parseCallCommand(argv);
    if (options.help) {
      const { callHelp, toolHelp } = await import("./help.js");
      return out(options.tool ? toolHelp(await toolNamed(options.tool)) : callHelp());
    }
    await (options.batch !== undefined ? batch(config, options) : single(config, options));
  } catch (err) {
    if (err instanceof UsageError) return usage(err, json);
    throw err;
  }
}
