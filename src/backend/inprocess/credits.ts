// Credit balances: reserve → commit (durable) or refund, each step synchronous, so a check and its
// debit can never interleave with another request's.
import type { KeyRecord } from "./keys.js";
import type { UsageStore } from "./usage-store.js";

export interface Reservation {
  readonly keyId: string;
  readonly cost: number;
  settled: boolean;
}

export class CreditLedger {
  private readonly reserved = new Map<string, number>();

  constructor(private readonly usage: UsageStore) {}

  /** Credits the key can still spend (never negative, even if its plan shrank below what it spent). */
  remaining(key: KeyRecord): number {
    return Math.max(0, key.credits - this.usage.spent(key.id) - (this.reserved.get(key.id) ?? 0));
  }

  /** Holds `cost` credits, or returns undefined when the balance is short. */
  tryReserve(key: KeyRecord, cost: number): Reservation | undefined {
    if (this.remaining(key) < cost) return undefined;
    this.reserved.set(key.id, (this.reserved.get(key.id) ?? 0) + cost);
    return { keyId: key.id, cost, settled: false };
  }

  /** Makes the charge durable; throws (leaving the reservation to refund) when it cannot be recorded. */
  commit(r: Reservation): void {
    if (r.settled) return;
    this.usage.record(r.keyId, r.cost);
    this.release(r);
  }

  /** Returns held credits; a second refund, or a refund after commit, does nothing. */
  refund(r: Reservation): void {
    if (!r.settled) this.release(r);
  }

  private release(r: Reservation): void {
    r.settled = true;
    const left = (this.reserved.get(r.keyId) ?? 0) - r.cost;
    if (left > 0) this.reserved.set(r.keyId, left);
    else this.reserved.delete(r.keyId);
  }
}
