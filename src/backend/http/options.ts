// Options of the HTTP backend and their defaults (research/reliability.md §3).
import type { Dispatcher } from "undici";

import { MAX_RECORDS } from "../../catalog/index.js";
import { log as sharedLog, type LogFields } from "../../log.js";
import { type BreakerPolicy, DEFAULT_BREAKER } from "./breaker.js";
import { type CachePolicy, DEFAULT_CACHE } from "./cache.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry.js";

export interface Timeouts {
  connectMs: number;
  /** Until the response headers arrive. */
  headersMs: number;
  /** Between two body chunks (undici's bodyTimeout: a trickle resets it, hence attemptMs). */
  bodyMs: number;
  /** Overall deadline of one attempt, headers and body together. */
  attemptMs: number;
  /** Budget of a whole call, retries and waits included. */
  callMs: number;
}

export interface Logger {
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
}

export interface HttpBackendOptions {
  baseUrl: string;
  /** Default key (CRYPTO_METRICS_API_KEY); a per-call `context.apiKey` overrides it. */
  apiKey?: string;
  /** Injectable transport (MockAgent in tests); default an Agent with the timeouts below. */
  dispatcher?: Dispatcher;
  timeouts?: Partial<Timeouts>;
  /** Cap on a response body in bytes (default 32 MiB). */
  maxBytes?: number;
  retry?: Partial<RetryPolicy>;
  breaker?: Partial<BreakerPolicy>;
  cache?: Partial<CachePolicy>;
  /** Records per upstream request when paging, and the most one call may assemble. */
  paging?: { perWindow?: number; maxTotal?: number };
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  log?: Logger;
}

export interface ResolvedOptions {
  origin: string;
  /** Path of the base URL without its trailing slash ("" at the root). */
  basePath: string;
  apiKey: string | undefined;
  timeouts: Timeouts;
  maxBytes: number;
  retry: RetryPolicy;
  breaker: BreakerPolicy;
  cache: CachePolicy;
  perWindow: number;
  maxTotal: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  log: Logger;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 3_000, headersMs: 5_000, bodyMs: 5_000, attemptMs: 8_000, callMs: 20_000 };
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** Ten full windows: beyond that a call would hold millions of records; the caller should narrow it. */
export const DEFAULT_MAX_TOTAL = 10 * MAX_RECORDS;

/** Sleeps `ms`, rejecting with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = (): void => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

export function resolveOptions(options: HttpBackendOptions): ResolvedOptions {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError("HttpBackend: baseUrl is not a URL (expected e.g. https://api.example.com)");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("HttpBackend: baseUrl must use http or https");
  if (url.username || url.password) throw new TypeError("HttpBackend: baseUrl must not carry credentials; pass apiKey instead");
  const t = options.timeouts ?? {};
  const timeouts: Timeouts = {
    connectMs: positive(t.connectMs, DEFAULT_TIMEOUTS.connectMs),
    headersMs: positive(t.headersMs, DEFAULT_TIMEOUTS.headersMs),
    bodyMs: positive(t.bodyMs, DEFAULT_TIMEOUTS.bodyMs),
    attemptMs: positive(t.attemptMs, DEFAULT_TIMEOUTS.attemptMs),
    callMs: positive(t.callMs, DEFAULT_TIMEOUTS.callMs),
  };
  return {
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ""),
    apiKey: options.apiKey || undefined,
    timeouts,
    maxBytes: positive(options.maxBytes, DEFAULT_MAX_BYTES),
    retry: {
      attempts: Math.floor(positive(options.retry?.attempts, DEFAULT_RETRY.attempts)),
      baseMs: positive(options.retry?.baseMs, DEFAULT_RETRY.baseMs),
      capMs: positive(options.retry?.capMs, DEFAULT_RETRY.capMs),
    },
    breaker: {
      failures: Math.floor(positive(options.breaker?.failures, DEFAULT_BREAKER.failures)),
      windowMs: positive(options.breaker?.windowMs, DEFAULT_BREAKER.windowMs),
      cooldownMs: positive(options.breaker?.cooldownMs, DEFAULT_BREAKER.cooldownMs),
    },
    cache: {
      // 0 turns caching off (coalescing and entitlement tracking stay).
      maxEntries: options.cache?.maxEntries === 0 ? 0 : Math.floor(positive(options.cache?.maxEntries, DEFAULT_CACHE.maxEntries)),
      maxBytes: positive(options.cache?.maxBytes, DEFAULT_CACHE.maxBytes),
      grantTtlMs: positive(options.cache?.grantTtlMs, DEFAULT_CACHE.grantTtlMs),
    },
    perWindow: Math.floor(positive(options.paging?.perWindow, MAX_RECORDS)),
    maxTotal: Math.floor(positive(options.paging?.maxTotal, DEFAULT_MAX_TOTAL)),
    now: options.now ?? Date.now,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    log: options.log ?? sharedLog,
  };
}
