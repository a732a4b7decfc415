// The one logger: plain lines on stderr (stdout carries JSON-RPC in stdio mode), level from
// CRYPTO_METRICS_LOG_LEVEL, and to sinks (an MCP client's notifications/message). Callers pass key
// digests' prefixes, never keys. Logging never ends the process: a stderr that cannot be written
// (closed pipe, full disk, file size limit) drops lines and says how many once it can write again;
// a warning or error repeated word for word is written once per window, then summarised.
// Taken, not imported: an ESM import of node:fs builds its facade, which loads fs/promises and fs
// streams at every start (this module is on every command's way).
const { writeSync } = process.getBuiltinModule("node:fs");

export const LOG_LEVELS = ["silent", "error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const RANK: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

export function isLogLevel(value: string): value is LogLevel {
  return Object.hasOwn(RANK, value);
}

function initialLevel(): LogLevel {
  const raw = process.env["CRYPTO_METRICS_LOG_LEVEL"]?.trim().toLowerCase() ?? "";
  return isLogLevel(raw) ? raw : "info";
}

let current: LogLevel = initialLevel();

export function setLogLevel(level: LogLevel): void {
  current = level;
}

export function logLevel(): LogLevel {
  return current;
}

export type LogFields = Record<string, string | number | boolean | undefined>;

function format(fields: LogFields | undefined): string {
  if (!fields) return "";
  let out = "";
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    const text = String(v);
    out += ` ${k}=${/[\s"=]/.test(text) ? JSON.stringify(text) : text}`;
  }
  return out;
}

export type EmittedLevel = Exclude<LogLevel, "silent">;

/** Receives every log event whatever the stderr level (an MCP client filters by its own level). */
export type LogSink = (level: EmittedLevel, line: string) => void;

const sinks = new Set<LogSink>();

/** Adds a sink; returns the function that removes it. */
export function addLogSink(sink: LogSink): () => void {
  sinks.add(sink);
  return () => void sinks.delete(sink);
}

/** A repeated warning or error is written once per this window; the rest are counted. */
export const REPEAT_WINDOW_MS = 10_000;
/** Distinct lines being counted at once; past it a new line is simply written. */
const MAX_REPEATS = 256;

interface Repeat {
  level: EmittedLevel;
  until: number;
  count: number;
  timer?: NodeJS.Timeout;
}
const repeats = new Map<string, Repeat>();

function summarise(line: string, r: Repeat): void {
  repeats.delete(line);
  if (r.timer) clearTimeout(r.timer);
  if (r.count > 0) deliver(r.level, `repeated ${r.count} more time${r.count === 1 ? "" : "s"} in ${REPEAT_WINDOW_MS / 1000} s: ${line}`);
}

/** True when `line` was just written at this level: counted, not written again. */
function repeated(level: EmittedLevel, line: string): boolean {
  if (level !== "warn" && level !== "error") return false;
  const now = Date.now();
  const r = repeats.get(line);
  if (r && r.level === level && now < r.until) {
    r.count++;
    // Summarised when the window ends, even if the line never comes again.
    r.timer ??= setTimeout(() => summarise(line, r), r.until - now).unref();
    return true;
  }
  if (r) summarise(line, r);
  if (repeats.size < MAX_REPEATS) repeats.set(line, { level, until: now + REPEAT_WINDOW_MS, count: 0 });
  return false;
}

let exitHooked = false;
let stderrFailed: string | undefined;
let dropped = 0;

/** Writes to stderr without ever throwing or letting a stream error end the process. */
function writeStderr(text: string): void {
  if (!exitHooked) {
    exitHooked = true;
    // A failed write is an 'error' event on the stream: unhandled, it ended the process.
    process.stderr.on("error", (err: NodeJS.ErrnoException) => {
      stderrFailed = err.code ?? err.message;
      dropped++;
    });
    // Counts not yet summarised when the process ends are written then.
    process.on("exit", () => {
      for (const [line, r] of repeats) summarise(line, r);
    });
  }
  if (stderrFailed === undefined) {
    process.stderr.write(text);
    return;
  }
  // The stream gave up after its error: each line is tried on the descriptor itself, so logging
  // resumes once the disk has room again.
  try {
    if (dropped > 0)
      writeSync(
        2,
        `crypto-metrics-mcp warn: ${dropped} log line${dropped === 1 ? " was" : "s were"} dropped: stderr could not be written (${stderrFailed})\n`,
      );
    dropped = 0;
    writeSync(2, text);
  } catch (err) {
    stderrFailed = (err as NodeJS.ErrnoException).code ?? stderrFailed;
    dropped++;
  }
}

function deliver(level: EmittedLevel, line: string): void {
  for (const sink of sinks) sink(level, line);
  if (RANK[level] > RANK[current]) return;
  writeStderr(`crypto-metrics-mcp ${level}: ${line}\n`);
}

function emit(level: EmittedLevel, message: string, fields?: LogFields): void {
  // A line nobody reads is not formatted (the REST face logs every request at debug).
  if (sinks.size === 0 && RANK[level] > RANK[current]) return;
  const line = `${message}${format(fields)}`;
  if (repeated(level, line)) return;
  deliver(level, line);
}

export const log = {
  error: (message: string, fields?: LogFields) => emit("error", message, fields),
  warn: (message: string, fields?: LogFields) => emit("warn", message, fields),
  info: (message: string, fields?: LogFields) => emit("info", message, fields),
  debug: (message: string, fields?: LogFields) => emit("debug", message, fields),
};
