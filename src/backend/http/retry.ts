// Retry policy for upstream calls: which outcomes are retried, full-jitter backoff, Retry-After.
// Pure functions; the loop that applies them lives in the backend.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseMs: number;
  capMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseMs: 250, capMs: 4_000 };

/** Statuses worth another attempt: the request may succeed unchanged a little later. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * Full jitter ("Exponential Backoff and Jitter", AWS): uniform in [0, min(cap, base·2^retry)),
 * so clients that failed together do not come back together. `retry` counts from 0.
 */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(retry, 30));
  return Math.floor(random() * ceiling);
}

/**
 * Milliseconds a `Retry-After` value asks for: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
 * Malformed values are ignored (undefined); a date in the past means "now" (0).
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/** Whole seconds for `retryAfterS`, never 0 so "retry after 0 s" is not read as "retry in a loop". */
export function toRetryAfterS(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
