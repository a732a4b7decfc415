// The rate window is exact under injected time: accepted requests in any window never exceed the
// policy, every 429 carries Retry-After, and a client that waits exactly that long is accepted.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

import { cheapPath, cheapRequest, serviceGet, serviceRig, sqliteStore } from "../../harness/service.js";
import { ServiceError } from "../../src/backend/types.js";
import { endpointById } from "../../src/catalog/index.js";

const LTH = endpointById("lifespan/Lth_mvrv")!;
const PATH = cheapPath(LTH);

const policy = fc.record({ requests: fc.integer({ min: 1, max: 8 }), windowSeconds: fc.integer({ min: 1, max: 5 }) });
const arrivals = fc.array(fc.record({ key: fc.nat({ max: 2 }), gapMs: fc.integer({ min: 0, max: 1_500 }) }), {
  minLength: 1,
  maxLength: 150,
});

// One store for every run, as for several processes: each run's keys are new, so windows start empty.
const store = sqliteStore();
afterAll(() => store.close());
let run = 0;

interface Event {
  key: number;
  t: number;
  retry: boolean;
}

describe("rate window under injected time", () => {
  it("never exceeds the policy in any window; every 429 has Retry-After and a retry at that instant is accepted", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(policy, { minLength: 3, maxLength: 3 }), arrivals, async (policies, plan) => {
        const prefix = `r${run++}-`;
        const keys = policies.map((rateLimit, i) => ({ key: `${prefix}k${i}`, credits: 1_000_000, rateLimit }));
        const rig = serviceRig({ keys }, { store });
        try {
          let t = 0;
          const queue: Event[] = plan.map((a) => ({ key: a.key, t: (t += a.gapMs), retry: false }));
          const accepted: number[][] = keys.map(() => []);
          const waitingUntil = keys.map(() => -1);
          while (queue.length) {
            const ev = queue.shift()!;
            // A well-behaved client sends nothing else while it waits for its retry, nor beside it.
            if (!ev.retry && ev.t <= waitingUntil[ev.key]!) continue;
            rig.clock.t = 1_000_000 + ev.t;
            const res = await serviceGet(rig.service, PATH, keys[ev.key]!.key);
            if (ev.retry) expect(res.status, `retry of k${ev.key} at +${ev.t} ms`).toBe(200);
            if (res.status === 200) {
              accepted[ev.key]!.push(ev.t);
              continue;
            }
            expect(res.status).toBe(429);
            const header = res.headers["Retry-After"];
            expect(header).toMatch(/^\d+$/);
            const retryAfter = Number(header);
            expect(retryAfter).toBeGreaterThanOrEqual(1);
            expect(res.error?.details.retryAfterS).toBe(retryAfter);
            // RateLimit's t never promises quota earlier than Retry-After, and r is 0.
            const rl = /;r=(\d+);t=(\d+)$/.exec(res.headers["RateLimit"] ?? "")!;
            expect(Number(rl[1])).toBe(0);
            expect(Number(rl[2])).toBeLessThanOrEqual(retryAfter);
            const at = ev.t + retryAfter * 1000;
            waitingUntil[ev.key] = at;
            const pos = queue.findIndex((q) => q.t > at);
            queue.splice(pos === -1 ? queue.length : pos, 0, { key: ev.key, t: at, retry: true });
          }
          keys.forEach((k, i) => {
            const times = accepted[i]!;
            const windowMs = k.rateLimit.windowSeconds * 1000;
            for (const start of times) {
              expect(times.filter((x) => x >= start && x < start + windowMs).length).toBeLessThanOrEqual(k.rateLimit.requests);
            }
          });
        } finally {
          await rig.close();
        }
      }),
      { numRuns: 500 },
    );
  });

  it("reports the same Retry-After through the backend: a second earlier is refused, the instant itself accepted", async () => {
    await fc.assert(
      fc.asyncProperty(policy, fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 8, maxLength: 8 }), async (rateLimit, gaps) => {
        const k = `r${run++}-k`;
        const rig = serviceRig({ keys: [{ key: k, credits: 1_000_000_000, rateLimit }] }, { store });
        try {
          const request = cheapRequest(LTH);
          // At most 8 × 100 ms apart: all inside the shortest (1 s) window.
          for (let i = 0; i < rateLimit.requests; i++) {
            rig.clock.t += gaps[i]!;
            await rig.backend.fetch(request, { apiKey: k });
          }
          const refused = await rig.backend.fetch(request, { apiKey: k }).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(refused).toBeInstanceOf(ServiceError);
          const err = refused as ServiceError;
          expect([err.status, err.code, err.retryable]).toEqual([429, "rate_limited", true]);
          const retryAfter = err.details.retryAfterS!;
          const t0 = rig.clock.t;
          if (retryAfter >= 2) {
            // Retry-After is the least whole number of seconds: one less is still too early.
            rig.clock.t = t0 + (retryAfter - 1) * 1000;
            await expect(rig.backend.fetch(request, { apiKey: k })).rejects.toMatchObject({ status: 429 });
          }
          rig.clock.t = t0 + retryAfter * 1000;
          await expect(rig.backend.fetch(request, { apiKey: k })).resolves.toMatchObject({ usage: { charged: 1 } });
        } finally {
          await rig.close();
        }
      }),
      { numRuns: 100 },
    );
  });
});
