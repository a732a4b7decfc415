import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CreditLedger } from "../src/backend/inprocess/credits.js";
import { KeyStore } from "../src/backend/inprocess/keys.js";
import { policyHeader, rateLimitHeader, SlidingWindow } from "../src/backend/inprocess/rate-window.js";
import { UsageStore } from "../src/backend/inprocess/usage-store.js";

/** Arrival times: ascending, with gaps from 0 to 3 s, in integer ms. */
const arrivals = fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 300 }).map((gaps) => {
  let t = 1_000;
  return gaps.map((g) => (t += g));
});

describe("SlidingWindow", () => {
  it("never accepts more than N requests in any window of W seconds", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 10 }), arrivals, (limit, windowS, times) => {
        const w = new SlidingWindow(limit, windowS);
        const accepted: number[] = [];
        for (const t of times) {
          if (w.check(t).ok) {
            w.record(t);
            accepted.push(t);
          }
        }
        for (let i = 0; i < accepted.length; i++) {
          const inWindow = accepted.filter((a) => a >= accepted[i]! && a < accepted[i]! + windowS * 1000).length;
          expect(inWindow).toBeLessThanOrEqual(limit);
        }
      }),
    );
  });

  it("answers a rejection with an integer Retry-After ≥ 1 at which a retry is accepted", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 10 }), arrivals, (limit, windowS, times) => {
        const w = new SlidingWindow(limit, windowS);
        const accepted: number[] = [];
        for (const t of times) {
          const d = w.check(t);
          if (d.ok) {
            w.record(t);
            accepted.push(t);
            continue;
          }
          expect(Number.isInteger(d.retryAfterS)).toBe(true);
          expect(d.retryAfterS).toBeGreaterThanOrEqual(1);
          const replay = new SlidingWindow(limit, windowS);
          for (const a of accepted) replay.record(a);
          expect(replay.check(t + d.retryAfterS * 1000).ok).toBe(true);
        }
      }),
    );
  });

  it("does not count rejected requests", () => {
    const w = new SlidingWindow(2, 60);
    w.record(0);
    w.record(1);
    for (let t = 2; t < 1000; t += 10) expect(w.check(t).ok).toBe(false);
    expect(w.check(60_000).ok).toBe(true);
    expect(w.status(60_001).remaining).toBe(2);
  });

  it("formats the IETF draft-10 RateLimit fields", () => {
    expect(policyHeader("free", { requests: 30, windowSeconds: 60 })).toBe('"free";q=30;w=60');
    expect(rateLimitHeader("free", 29, 60)).toBe('"free";r=29;t=60');
  });
});

describe("CreditLedger", () => {
  const key = KeyStore.fromJson(JSON.stringify({ keys: [{ key: "k", credits: 10 }] })).lookup("k")!;

  it("reserves, commits and refunds exactly, and never goes negative", () => {
    const usage = UsageStore.open(mkdtempSync(join(tmpdir(), "cm-ledger-")));
    const ledger = new CreditLedger(usage);
    const a = ledger.tryReserve(key, 4)!;
    const b = ledger.tryReserve(key, 4)!;
    expect(ledger.remaining(key)).toBe(2);
    expect(ledger.tryReserve(key, 3)).toBeUndefined();
    ledger.commit(a);
    ledger.refund(a); // after commit: nothing
    ledger.refund(b);
    ledger.refund(b); // twice: nothing
    expect(ledger.remaining(key)).toBe(6);
    expect(usage.spent(key.id)).toBe(4);
    usage.close();
  });

  it("lets exactly floor(C / cost) of many synchronous reservations through", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.array(fc.boolean(), { maxLength: 60 }), (cost, fails) => {
        const usage = UsageStore.open(mkdtempSync(join(tmpdir(), "cm-ledger-")));
        const ledger = new CreditLedger(usage);
        let ok = 0;
        for (const fail of fails) {
          const r = ledger.tryReserve(key, cost);
          if (!r) continue;
          if (fail) ledger.refund(r);
          else { ledger.commit(r); ok++; }
        }
        expect(ok * cost).toBe(usage.spent(key.id));
        expect(ledger.remaining(key)).toBe(10 - ok * cost);
        expect(ok).toBeLessThanOrEqual(Math.floor(10 / cost));
        usage.close();
      }),
      { numRuns: 50 },
    );
  });
});
