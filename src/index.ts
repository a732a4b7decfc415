// The library entry: `import { createCryptoMetrics } from "crypto-metrics-mcp"`. The same tools as
// typed async functions over the same backends as the server (the in-process service, or the real
// one when a base URL is configured), without MCP framing: arguments in, structured result out, a
// CryptoMetricsError on failure. Types come from src/library/tool-types.ts (generated from the
// tools' zod schemas), so the published declarations need nothing else.
import { type Config, loadConfig } from "./config.js";
import { exitCodeOf } from "./library/exit-codes.js";
import { methodName, openSession, type Session } from "./library/session.js";
import type { CallOptions, ToolArgs, ToolFunctions, ToolName, ToolResults } from "./library/tool-types.js";
import { setLogLevel } from "./log.js";
import { allTools } from "./tools/index.js";

export type * from "./library/tool-types.js";

export interface CryptoMetricsOptions {
  /** The key (CRYPTO_METRICS_API_KEY): the upstream's with a base URL, else a key of the local service. */
  apiKey?: string;
  /** The real service's address (CRYPTO_METRICS_BASE_URL); without it, the in-process service. */
  baseUrl?: string;
  /** Keys, plans and limits of the in-process service (CRYPTO_METRICS_KEYS_FILE). */
  keysFile?: string;
  /** Where the in-process service keeps credits spent (CRYPTO_METRICS_STATE_DIR). */
  stateDir?: string;
  /** Pins the service's "now" (CRYPTO_METRICS_NOW): an ISO date-time, epoch milliseconds or a Date. */
  now?: string | number | Date;
  logLevel?: "silent" | "error" | "warn" | "info" | "debug";
  /** Where unset options are read from, as the CLI reads them; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface ToolCallResult<N extends ToolName> {
  /** The digest a model reads (the MCP text content). */
  text: string;
  /** The structured result (the MCP structuredContent). */
  data: ToolResults[N];
}

export interface CryptoMetrics extends ToolFunctions {
  /** Whether calls go to the in-process service or the real one over HTTP. */
  readonly backend: "inprocess" | "http";
  /** Any tool by name, with its text digest as well as its structured result. */
  call<N extends ToolName>(name: N, args: ToolArgs[N], options?: CallOptions): Promise<ToolCallResult<N>>;
  /** Releases the backend (the in-process service's state, the HTTP connection pool). */
  close(): Promise<void>;
}

/** A failed call: the same code, message and hints as the tool's error result. */
export class CryptoMetricsError extends Error {
  override readonly name = "CryptoMetricsError";
  /** e.g. invalid_arguments, unknown_asset, unauthorized, rate_limited, credits_exhausted, upstream_unavailable. */
  readonly code: string;
  /** Whether the same call may succeed later unchanged. */
  readonly retryable: boolean;
  /** The service's HTTP status, for errors the service answered. */
  readonly status: number | undefined;
  /** The argument at fault. */
  readonly parameter: string | undefined;
  /** Seconds to wait before retrying (rate limits, upstream outages). */
  readonly retryAfterS: number | undefined;
  readonly creditsRemaining: number | undefined;
  /** Did-you-mean candidates or accepted values. */
  readonly suggestions: readonly string[];
  /** The exit code `crypto-metrics-mcp call` gives this error (2 usage, 3 key, 4 limits, 5 upstream, 1 else). */
  readonly exitCode: number;

  constructor(fields: {
    code: string;
    message: string;
    retryable: boolean;
    status?: number;
    parameter?: string;
    retry_after_s?: number;
    credits_remaining?: number;
    suggestions?: readonly string[];
  }) {
    super(fields.message);
    this.code = fields.code;
    this.retryable = fields.retryable;
    this.status = fields.status;
    this.parameter = fields.parameter;
    this.retryAfterS = fields.retry_after_s;
    this.creditsRemaining = fields.credits_remaining;
    this.suggestions = fields.suggestions ?? [];
    this.exitCode = exitCodeOf(fields.code);
  }
}

function configFrom(options: CryptoMetricsOptions): Config {
  const env: Record<string, string | undefined> = { ...(options.env ?? process.env) };
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined) env[name] = value;
  };
  set("CRYPTO_METRICS_API_KEY", options.apiKey);
  set("CRYPTO_METRICS_BASE_URL", options.baseUrl);
  set("CRYPTO_METRICS_KEYS_FILE", options.keysFile);
  set("CRYPTO_METRICS_STATE_DIR", options.stateDir);
  set("CRYPTO_METRICS_LOG_LEVEL", options.logLevel);
  if (options.now !== undefined) set("CRYPTO_METRICS_NOW", options.now instanceof Date ? options.now.toISOString() : String(options.now));
  return loadConfig(env, []);
}

/**
 * The tools as async functions. Configuration errors (a malformed base URL…) throw here; the
 * backend opens on the first call.
 */
export function createCryptoMetrics(options: CryptoMetricsOptions = {}): CryptoMetrics {
  const config = configFrom(options);
  if (options.logLevel) setLogLevel(config.logLevel);
  let session: Promise<Session> | undefined;
  const open = () => (session ??= openSession(config));

  async function call<N extends ToolName>(name: N, args: ToolArgs[N], callOptions: CallOptions = {}): Promise<ToolCallResult<N>> {
    const tool = allTools.find((t) => t.name === name);
    if (!tool) {
      throw new CryptoMetricsError({
        code: "unknown_tool",
        retryable: false,
        message: `Unknown tool "${String(name).slice(0, 60)}"; tools: ${allTools.map((t) => t.name).join(", ")}`,
      });
    }
    const outcome = await (await open()).run(tool, args ?? {}, callOptions);
    if (!outcome.ok) throw new CryptoMetricsError(outcome.error);
    return { text: outcome.text, data: outcome.structured as unknown as ToolResults[N] };
  }

  const functions = Object.fromEntries(
    allTools.map((tool) => [
      methodName(tool.name),
      async (args: unknown, callOptions?: CallOptions) => (await call(tool.name as ToolName, args as never, callOptions)).data,
    ]),
  ) as unknown as ToolFunctions;

  return {
    ...functions,
    backend: config.baseUrl ? "http" : "inprocess",
    call,
    async close() {
      const opened = session;
      session = undefined;
      if (opened) await (await opened).close();
    },
  };
}
