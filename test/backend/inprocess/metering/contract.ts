// The metering store contract, one suite that every engine must pass: atomic charge, exact rate
// windows under injected time, exact counts under concurrency, persistence across a reopen.
import { randomBytes } from "node:crypto";

import fc from "fast-check";
import { expect, it } from "vitest";

import { sha256 } from "../../../../src/backend/inprocess/keys.js";
import type { MeteringStore, MeterKey } from "../../../../src/backend/inprocess/metering/index.js";

export interface ContractEngine {
  /** A store on the engine's shared location (every call: another "process" on the same data). */
  open(): Promise<MeteringStore>;
}

export function meterKey(credits: number, requests = 100_000, windowSeconds = 60): MeterKey {
  return { id: sha256(randomBytes(16).toString("hex")).toString("hex"), credits, rateLimit: { requests, windowSeconds } };
}

const T0 = 1_700_000_000_000;

export function storeContract(engine: ContractEngine): void {
  it("charges atomically: a refusal changes nothing, a refund returns credits and the window's place, status agrees", async () => {
    const store = await engine.open();
    try {
      const key = meterKey(5, 3, 10);
      expect(await store.charge(key, 2, T0)).toEqual({ ok: true, request: 0, creditsRemaining: 3, rate: { remaining: 2, resetS: 10 } });
      expect(await store.charge(key, 4, T0 + 1)).toMatchObject({
        ok: false,
        reason: "credits_exhausted",
        creditsRemaining: 3,
        rate: { remaining: 2 },
      });
      const served = await store.charge(key, 3, T0 + 2);
      expect(served).toMatchObject({ ok: true, request: 1, creditsRemaining: 0, rate: { remaining: 1 } });
      await store.refund(key, (served as { request: number }).request, 3);
      expect(await store.status(key, T0 + 3)).toEqual({ creditsRemaining: 3, rate: { remaining: 2, resetS: 10 } });
      // Numbers are never given twice, even after a refund.
      expect(await store.charge(key, 1, T0 + 4)).toMatchObject({ ok: true, request: 2, creditsRemaining: 2, rate: { remaining: 1 } });
      expect(await store.charge(key, 1, T0 + 5)).toMatchObject({ ok: true, creditsRemaining: 1, rate: { remaining: 0 } });
      expect(await store.charge(key, 1, T0 + 6)).toMatchObject({ ok: false, reason: "rate_limited", retryAfterS: 10, creditsRemaining: 1 });
      expect(await store.spent(key.id)).toBe(4);
      expect(await store.status(meterKey(7, 4, 60), T0)).toEqual({ creditsRemaining: 7, rate: { remaining: 4, resetS: 0 } });
      // A key never charged has nothing to refund.
      await store.refund(meterKey(7), 0, 1);
    } finally {
      await store.close();
    }
  });

  it("counts exactly the requests not refunded: any refund, in any order, frees its own place and no other", async () => {
    const store = await engine.open();
    try {
      // A step is a charge after `gap` ms, or (refund) the refund of the pick-th request still counted.
      const step = fc.oneof(
        { weight: 3, arbitrary: fc.record({ gap: fc.integer({ min: 0, max: 1_500 }) }) },
        { weight: 1, arbitrary: fc.record({ pick: fc.nat() }) },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 5 }),
          fc.integer({ min: 1, max: 4 }),
          fc.array(step, { minLength: 1, maxLength: 160 }),
          async (limit, windowS, steps) => {
            const key = meterKey(1_000_000, limit, windowS);
            const windowMs = windowS * 1000;
            const counted: Array<{ request: number; t: number }> = [];
            let spent = 0;
            let t = T0;
            for (const s of steps) {
              if ("pick" in s) {
                if (counted.length === 0) continue;
                const [gone] = counted.splice(s.pick % counted.length, 1);
                await store.refund(key, gone!.request, 1);
                spent -= 1;
                continue;
              }
              t += s.gap;
              const out = await store.charge(key, 1, t);
              const inWindow = counted.filter((a) => a.t > t - windowMs);
              if (inWindow.length < limit) {
                expect(out).toMatchObject({ ok: true, rate: { remaining: limit - inWindow.length - 1 } });
                counted.push({ request: (out as { request: number }).request, t });
                spent += 1;
                continue;
              }
              const earliest = counted[counted.length - limit]!.t + windowMs;
              expect(out).toMatchObject({
                ok: false,
                reason: "rate_limited",
                retryAfterS: Math.max(1, Math.ceil((earliest - t) / 1000)),
                rate: { remaining: 0 },
              });
            }
            expect(await store.spent(key.id)).toBe(spent);
            const inWindow = counted.filter((a) => a.t > t - windowMs);
            expect((await store.status(key, t)).rate.remaining).toBe(limit - inWindow.length);
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      await store.close();
    }
  });

  it("takes back refunds made concurrently from several stores, each its own request", async () => {
    const stores = await Promise.all([engine.open(), engine.open(), engine.open()]);
    try {
      const key = meterKey(1_000, 50, 3_600);
      const on = (i: number) => stores[i % stores.length]!;
      const first = await Promise.all(Array.from({ length: 80 }, (_, i) => on(i).charge(key, 2)));
      const served = first.filter((o): o is Extract<typeof o, { ok: true }> => o.ok);
      expect(served).toHaveLength(50);
      expect(new Set(served.map((o) => o.request)).size).toBe(50);
      await Promise.all(served.slice(0, 12).map((o, i) => on(i).refund(key, o.request, 2)));
      expect(await stores[1]!.status(key)).toMatchObject({ creditsRemaining: 1_000 - 38 * 2, rate: { remaining: 12 } });
      const second = await Promise.all(Array.from({ length: 30 }, (_, i) => on(i).charge(key, 2)));
      expect(second.filter((o) => o.ok)).toHaveLength(12);
      expect(await stores[2]!.spent(key.id)).toBe(50 * 2);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it("admits at most R requests in any window of W s; Retry-After is the true earliest instant, in whole seconds", async () => {
    const store = await engine.open();
    try {
      const arrivals = fc.array(fc.integer({ min: 0, max: 2_500 }), { minLength: 1, maxLength: 60 });
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 5 }), arrivals, async (limit, windowS, gaps) => {
          const key = meterKey(1_000_000, limit, windowS);
          const windowMs = windowS * 1000;
          const accepted: number[] = [];
          let t = T0;
          for (const gap of gaps) {
            t += gap;
            const out = await store.charge(key, 1, t);
            const inWindow = accepted.filter((a) => a > t - windowMs);
            if (inWindow.length < limit) {
              expect(out.ok).toBe(true);
              accepted.push(t);
              expect(out.rate.remaining).toBe(limit - inWindow.length - 1);
              continue;
            }
            // Rejected requests are not counted; the retry instant is when the R-th latest leaves.
            expect(out).toMatchObject({ ok: false, reason: "rate_limited", rate: { remaining: 0 } });
            const earliest = accepted[accepted.length - limit]! + windowMs;
            const retryAfterS = (out as { retryAfterS: number }).retryAfterS;
            expect(retryAfterS).toBe(Math.max(1, Math.ceil((earliest - t) / 1000)));
            expect(out.rate.resetS).toBeLessThanOrEqual(retryAfterS);
          }
        }),
        { numRuns: 60 },
      );
    } finally {
      await store.close();
    }
  });

  it("lets exactly min(N, floor(C / c)) of N concurrent charges through, from several stores on the same data", async () => {
    const stores = await Promise.all([engine.open(), engine.open(), engine.open()]);
    try {
      for (const [n, credits, cost] of [
        [300, 100, 1],
        [200, 37, 5],
        [40, 1_000, 3],
      ] as const) {
        const key = meterKey(credits);
        const outs = await Promise.all(Array.from({ length: n }, (_, i) => stores[i % stores.length]!.charge(key, cost)));
        const ok = outs.filter((o) => o.ok).length;
        expect(ok).toBe(Math.min(n, Math.floor(credits / cost)));
        expect(outs.filter((o) => !o.ok).every((o) => !o.ok && o.reason === "credits_exhausted")).toBe(true);
        expect(await stores[0]!.spent(key.id)).toBe(ok * cost);
        expect(Math.min(...outs.map((o) => o.creditsRemaining))).toBe(credits - ok * cost);
      }
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it("keeps balances and windows across a reopen, and a key's clock never runs backwards", async () => {
    const key = meterKey(10, 2, 30);
    const first = await engine.open();
    expect((await first.charge(key, 3, T0)).ok).toBe(true);
    expect((await first.charge(key, 3, T0 + 1_000)).ok).toBe(true);
    await first.close();
    const second = await engine.open();
    try {
      expect(await second.charge(key, 1, T0 + 2_000)).toMatchObject({
        ok: false,
        reason: "rate_limited",
        retryAfterS: 28,
        creditsRemaining: 4,
      });
      // A clock set back an hour does not reopen the window.
      expect(await second.charge(key, 1, T0 - 3_600_000)).toMatchObject({ ok: false, reason: "rate_limited" });
      expect(await second.charge(key, 1, T0 + 30_000)).toMatchObject({ ok: true, creditsRemaining: 3 });
      expect(await second.spent(key.id)).toBe(7);
    } finally {
      await second.close();
    }
  });

  it("uses its own clock when none is given", async () => {
    const store = await engine.open();
    try {
      const key = meterKey(10, 1, 3_600);
      expect((await store.charge(key, 1)).ok).toBe(true);
      const refused = await store.charge(key, 1);
      expect(refused).toMatchObject({ ok: false, reason: "rate_limited" });
      expect((refused as { retryAfterS: number }).retryAfterS).toBeGreaterThan(3_590);
    } finally {
      await store.close();
    }
  });
}
