// Circuit breaker for one upstream origin: stops sending while the upstream is failing, then
// lets one probe through after a cooldown.

export interface BreakerPolicy {
  /** Failures within the window that open the circuit (and at least half the outcomes there). */
  failures: number;
  windowMs: number;
  cooldownMs: number;
}

export const DEFAULT_BREAKER: BreakerPolicy = { failures: 5, windowMs: 10_000, cooldownMs: 30_000 };

/** What an attempt turned out to be, as far as upstream health goes. */
export type Outcome = "success" | "failure" | "neutral";

export type Admission = { ok: true; probe: boolean } | { ok: false; retryAfterMs: number };

export type BreakerState = "closed" | "open" | "half-open";

export class CircuitBreaker {
  private outcomes: { at: number; failed: boolean }[] = [];
  private openUntil = 0;
  private state: BreakerState = "closed";
  private probing = false;

  constructor(
    private readonly policy: BreakerPolicy,
    private readonly now: () => number,
    private readonly onChange: (state: BreakerState) => void = () => {},
  ) {}

  get current(): BreakerState {
    return this.state;
  }

  admit(): Admission {
    if (this.state === "closed") return { ok: true, probe: false };
    const now = this.now();
    if (this.state === "open" && now >= this.openUntil) this.transition("half-open");
    if (this.state === "half-open" && !this.probing) {
      this.probing = true;
      return { ok: true, probe: true };
    }
    return { ok: false, retryAfterMs: Math.max(0, this.openUntil - now) };
  }

  /**
   * A probe that succeeds (or reaches the upstream at all: any non-failure) closes the circuit;
   * one that fails reopens it for a full cooldown. "cancelled" releases a probe that never finished.
   */
  record(outcome: Outcome | "cancelled", probe: boolean): void {
    const now = this.now();
    if (probe) {
      this.probing = false;
      if (outcome === "cancelled") return;
      if (outcome === "failure") this.open(now);
      else {
        this.outcomes = [];
        this.transition("closed");
      }
      return;
    }
    if (outcome === "cancelled" || outcome === "neutral" || this.state !== "closed") return;
    this.outcomes.push({ at: now, failed: outcome === "failure" });
    while (this.outcomes.length > 0 && this.outcomes[0]!.at <= now - this.policy.windowMs) this.outcomes.shift();
    if (this.outcomes.length > 4 * this.policy.failures) this.outcomes.splice(0, this.outcomes.length - 4 * this.policy.failures);
    if (outcome !== "failure") return;
    const failed = this.outcomes.filter((o) => o.failed).length;
    if (failed >= this.policy.failures && failed * 2 >= this.outcomes.length) this.open(now);
  }

  private open(now: number): void {
    this.openUntil = now + this.policy.cooldownMs;
    this.outcomes = [];
    this.transition("open");
  }

  private transition(state: BreakerState): void {
    if (state === this.state) return;
    this.state = state;
    this.onChange(state);
  }
}
