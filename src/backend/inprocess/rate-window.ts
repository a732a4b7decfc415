// Per-key sliding-window rate limit: an exact log of accepted requests in a ring buffer, so
// "N requests per W seconds" holds over every interval and Retry-After is the true earliest retry.
import type { RateLimitSpec } from "./keys.js";

export type RateDecision =
  | { ok: true; remaining: number; resetS: number }
  | { ok: false; retryAfterS: number; resetS: number };

/** Accepted-request timestamps of one key; rejected requests are never recorded. */
export class SlidingWindow {
  private readonly times: Float64Array;
  private start = 0;
  private count = 0;
  private readonly windowMs: number;

  constructor(readonly limit: number, windowSeconds: number) {
    this.times = new Float64Array(limit);
    this.windowMs = windowSeconds * 1000;
  }

  private expire(nowMs: number): void {
    // A request at t counts for the half-open interval [t, t + W).
    while (this.count > 0 && this.times[this.start]! <= nowMs - this.windowMs) {
      this.start = (this.start + 1) % this.limit;
      this.count--;
    }
  }

  /** Seconds until the oldest counted request leaves the window (0 when none is counted). */
  private resetS(nowMs: number): number {
    return this.count === 0 ? 0 : Math.max(1, Math.ceil((this.times[this.start]! + this.windowMs - nowMs) / 1000));
  }

  /** Whether a request at nowMs fits, without recording it. */
  check(nowMs: number): RateDecision {
    this.expire(nowMs);
    if (this.count < this.limit) return { ok: true, remaining: this.limit - this.count, resetS: this.resetS(nowMs) };
    const retryAtMs = this.times[this.start]! + this.windowMs;
    // Rounded up, so a retry exactly Retry-After seconds later finds the oldest request gone.
    const retryAfterS = Math.max(1, Math.ceil((retryAtMs - nowMs) / 1000));
    return { ok: false, retryAfterS, resetS: retryAfterS };
  }

  /** Counts an accepted request; call only after check() said ok in the same synchronous turn. */
  record(nowMs: number): void {
    this.expire(nowMs);
    if (this.count === this.limit) throw new Error("rate window full: record() without a passing check()");
    this.times[(this.start + this.count) % this.limit] = nowMs;
    this.count++;
  }

  status(nowMs: number): { remaining: number; resetS: number } {
    this.expire(nowMs);
    return { remaining: this.limit - this.count, resetS: this.resetS(nowMs) };
  }
}

/** The windows of every key, created on first use. */
export class RateLimiter {
  private readonly windows = new Map<string, SlidingWindow>();

  window(keyId: string, spec: RateLimitSpec): SlidingWindow {
    let w = this.windows.get(keyId);
    if (!w) {
      w = new SlidingWindow(spec.requests, spec.windowSeconds);
      this.windows.set(keyId, w);
    }
    return w;
  }
}

/** `RateLimit-Policy` (IETF draft-ietf-httpapi-ratelimit-headers-10 syntax). */
export function policyHeader(name: string, spec: RateLimitSpec): string {
  return `"${name}";q=${spec.requests};w=${spec.windowSeconds}`;
}

/** `RateLimit`: remaining quota and seconds until more becomes available. */
export function rateLimitHeader(name: string, remaining: number, resetS: number): string {
  return `"${name}";r=${remaining};t=${resetS}`;
}
