// Rate-limit headers (IETF draft-ietf-httpapi-ratelimit-headers-10). The windows themselves live in
// the metering store: an exact log of each key's last R accepted requests, shared by every process.
import type { KeyRecord, RateLimitSpec } from "./keys.js";
import type { MeterStatus } from "./metering/index.js";

/** `RateLimit-Policy`: the key's quota and window. */
export function policyHeader(name: string, spec: RateLimitSpec): string {
  return `"${name}";q=${spec.requests};w=${spec.windowSeconds}`;
}

/** `RateLimit`: remaining quota and seconds until more becomes available. */
export function rateLimitHeader(name: string, remaining: number, resetS: number): string {
  return `"${name}";r=${remaining};t=${resetS}`;
}

/** The metering headers of every answer to a known key: its policy, its window and its balance. */
export function keyedHeaders(key: KeyRecord, meter: MeterStatus): Record<string, string> {
  return {
    "RateLimit-Policy": policyHeader(key.policyName, key.rateLimit),
    RateLimit: rateLimitHeader(key.policyName, meter.rate.remaining, meter.rate.resetS),
    "X-Credits-Remaining": String(meter.creditsRemaining),
  };
}
