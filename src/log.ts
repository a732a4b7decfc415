// The one logger: plain lines on stderr (stdout carries JSON-RPC in stdio mode), level from
// CRYPTO_METRICS_LOG_LEVEL, and to sinks (an MCP client's notifications/message). Callers pass key
// digests' prefixes, never keys.

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

function emit(level: EmittedLevel, message: string, fields?: LogFields): void {
  // A line nobody reads is not formatted (the REST face logs every request at debug).
  if (sinks.size === 0 && RANK[level] > RANK[current]) return;
  const line = `${message}${format(fields)}`;
  for (const sink of sinks) sink(level, line);
  if (RANK[level] > RANK[current]) return;
  process.stderr.write(`crypto-metrics-mcp ${level}: ${line}\n`);
}

export const log = {
  error: (message: string, fields?: LogFields) => emit("error", message, fields),
  warn: (message: string, fields?: LogFields) => emit("warn", message, fields),
  info: (message: string, fields?: LogFields) => emit("info", message, fields),
  debug: (message: string, fields?: LogFields) => emit("debug", message, fields),
};
