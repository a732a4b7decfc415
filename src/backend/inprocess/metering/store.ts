// The metering store: the one place where credits and rate windows live. Each implementation
// makes a charge (rate window check + credit check + debit) one atomic step in its database, so
// any number of processes sharing the store meter exactly as one.
import type { RateLimitSpec } from "../keys.js";

/** What a charge needs to know of a key: its identity (SHA-256 hex), balance and window. */
export interface MeterKey {
  readonly id: string;
  readonly credits: number;
  readonly rateLimit: RateLimitSpec;
}

export interface RateStatus {
  /** Requests the window still admits. */
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (0 when none is counted). */
  resetS: number;
}

export interface MeterStatus {
  creditsRemaining: number;
  rate: RateStatus;
}

export type ChargeOutcome =
  /** `request` numbers the accepted charge among the key's charges: refund() takes it back by it. */
  | ({ ok: true; request: number } & MeterStatus)
  | ({ ok: false; reason: "rate_limited"; retryAfterS: number } & MeterStatus)
  | ({ ok: false; reason: "credits_exhausted" } & MeterStatus);

export interface MeteringStore {
  readonly kind: "sqlite" | "postgres";
  /** Where the store is, without credentials: safe to log and to show in errors. */
  readonly location: string;
  /**
   * In one atomic step: admit the request in the key's rate window, check the balance covers
   * `cost`, debit it and count the request. A refusal changes nothing. `nowMs` is the window
   * clock; without it the store uses its own (the machine's, or the database server's).
   */
  charge(key: MeterKey, cost: number, nowMs?: number): Promise<ChargeOutcome>;
  /**
   * Takes back an accepted charge whose response could not be produced, in one atomic step: its
   * `cost` returns to the balance and its place in the rate window is freed, as if it had never
   * been made. `request` is the number its charge() answered.
   */
  refund(key: MeterKey, request: number, cost: number): Promise<void>;
  /** Balance and window as they stand, for the headers of a response that charges nothing. */
  status(key: MeterKey, nowMs?: number): Promise<MeterStatus>;
  /** Credits spent by a key digest so far. */
  spent(keyId: string): Promise<number>;
  close(): Promise<void>;
}

/** The store cannot serve now (disk full, read-only, database unreachable): retry later. */
/**
 * The store cannot answer now (503). `message` is the operator's (where the store is, what the
 * driver said); `client` is what a caller is told, naming nothing of the server.
 */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
  constructor(
    message: string,
    readonly client = "The metering store cannot record charges right now. Nothing was served or charged; retry shortly.",
  ) {
    super(message);
  }
}

export { StoreConfigError } from "../../../store-setting.js";

/** Seconds, rounded up and at least 1, until `ms` milliseconds have passed. */
export function ceilSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
