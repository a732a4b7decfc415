// Credits are never double-spent: 10,000 concurrent calls against a 100-credit key, and the whole
// pipeline (auth, restriction, rate window, credits) against a model. The store's own contract
// (both engines, several processes) is in test/backend/inprocess/metering/.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

import { BIG_RATE, cheapPath, rateRemaining, serviceGet, serviceRig, sqliteStore } from "../../harness/service.js";
import { sha256 } from "../../src/backend/inprocess/keys.js";
import { ServiceError } from "../../src/backend/types.js";
import { endpointById, HEATMAP_ID } from "../../src/catalog/index.js";

const LTH = endpointById("lifespan/Lth_mvrv")!;

describe("credits under concurrency", () => {
  it("10,000 concurrent calls on a 100-credit key: exactly 100 succeed, 9,900 get 402, balance 0", async () => {
    const rig = serviceRig({ keys: [{ key: "hundred", credits: 100, rateLimit: BIG_RATE }] });
    try {
      const request = { endpoint: LTH.id, asset: "btc", query: { startDate: "2025-06-01", endDate: "2025-06-01" } };
      const outcomes = await Promise.all(
        Array.from({ length: 10_000 }, () =>
          rig.backend.fetch(request, { apiKey: "hundred" }).then(
            (r) => ({ ok: true as const, charged: r.usage.charged }),
            (e: unknown) => ({ ok: false as const, error: e }),
          ),
        ),
      );
      const ok = outcomes.filter((o) => o.ok);
      const refused = outcomes.filter((o) => !o.ok).map((o) => (o as { error: unknown }).error);
      expect(ok).toHaveLength(100);
      expect(ok.every((o) => o.charged === 1)).toBe(true);
      expect(refused).toHaveLength(9_900);
      expect(refused.every((e) => e instanceof ServiceError && e.status === 402 && e.code === "credits_exhausted")).toBe(true);
      expect(await rig.service.creditsRemaining("hundred")).toBe(0);
      // Exactly the charges delivered reached the store.
      expect(await rig.store.spent(sha256("hundred").toString("hex"))).toBe(100);
    } finally {
      await rig.close();
    }
  });

  it("through the heatmap's 5-credit cost: 7 of 1,000 parallel calls fit 37 credits, 2 are left", async () => {
    const rig = serviceRig({ keys: [{ key: "odd", credits: 37, rateLimit: BIG_RATE }] });
    try {
      const request = { endpoint: HEATMAP_ID, asset: "btc", query: { timeframe: "1h", lookback: "24h" } };
      const outcomes = await Promise.allSettled(Array.from({ length: 1_000 }, () => rig.backend.fetch(request, { apiKey: "odd" })));
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(7);
      expect(await rig.service.creditsRemaining("odd")).toBe(2);
      const reasons = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as ServiceError] : []));
      expect(new Set(reasons.map((r) => `${r.status} ${r.code} ${r.details.creditsRemaining}`))).toEqual(
        new Set(["402 credits_exhausted 2"]),
      );
    } finally {
      await rig.close();
    }
  });
});

/** The pipeline's contract as a model: restriction → rate window → credits, per key. */
interface ModelKey {
  key: string;
  credits: number;
  limit: number;
  windowMs: number;
  allowed: ReadonlySet<string> | null;
  accepted: number[];
}

const MODEL_KEYS = [
  { key: "wide", credits: 40, rateLimit: { requests: 5, windowSeconds: 2 } },
  { key: "narrow", credits: 25, rateLimit: { requests: 3, windowSeconds: 5 }, metrics: ["lifespan/Lth_mvrv", HEATMAP_ID] },
  { key: "poor", credits: 3, rateLimit: { requests: 50, windowSeconds: 60 } },
];
const MODEL_ENDPOINTS = ["lifespan/Lth_mvrv", "market/metcalfe_ratio", "derivatives/metrics-variation", HEATMAP_ID].map((id) =>
  endpointById(id)!,
);
const COSTS: Record<string, number> = {
  "lifespan/Lth_mvrv": 1,
  "market/metcalfe_ratio": 1,
  "derivatives/metrics-variation": 2,
  [HEATMAP_ID]: 5,
};

type Command = { kind: "call"; key: number; endpoint: number } | { kind: "advance"; ms: number } | { kind: "unknown-key" };

describe("service pipeline against a model (model-based commands)", () => {
  // One store for all runs, as for several processes; each run's keys are new, so balances start full.
  const store = sqliteStore();
  afterAll(() => store.close());
  let run = 0;

  it("agrees on status, balance and remaining rate quota after every command", async () => {
    const command: fc.Arbitrary<Command> = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant("call" as const),
          key: fc.nat({ max: MODEL_KEYS.length - 1 }),
          endpoint: fc.nat({ max: MODEL_ENDPOINTS.length - 1 }),
        }),
      },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 1, max: 4_000 }) }) },
      { weight: 1, arbitrary: fc.constant({ kind: "unknown-key" as const }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 50 }), async (commands) => {
        const prefix = `run${run++}-`;
        const rig = serviceRig({ keys: MODEL_KEYS.map((k) => ({ ...k, key: prefix + k.key })) }, { store });
        const model: ModelKey[] = MODEL_KEYS.map((k) => ({
          key: prefix + k.key,
          credits: k.credits,
          limit: k.rateLimit.requests,
          windowMs: k.rateLimit.windowSeconds * 1000,
          allowed: k.metrics ? new Set(k.metrics) : null,
          accepted: [],
        }));
        try {
          for (const cmd of commands) {
            if (cmd.kind === "advance") {
              rig.clock.t += cmd.ms;
              continue;
            }
            const endpoint = MODEL_ENDPOINTS[cmd.kind === "call" ? cmd.endpoint : 0]!;
            if (cmd.kind === "unknown-key") {
              const res = await serviceGet(rig.service, cheapPath(endpoint), "not-a-key");
              expect(res.status).toBe(401);
              continue;
            }
            const m = model[cmd.key]!;
            const now = rig.clock.t;
            const inWindow = m.accepted.filter((t) => t > now - m.windowMs).length;
            const cost = COSTS[endpoint.id]!;
            const expected = m.allowed && !m.allowed.has(endpoint.id) ? 403 : inWindow >= m.limit ? 429 : m.credits < cost ? 402 : 200;
            const res = await serviceGet(rig.service, cheapPath(endpoint), m.key);
            expect(res.status, `${m.key} ${endpoint.id}`).toBe(expected);
            if (expected === 200) {
              m.credits -= cost;
              m.accepted.push(now);
            }
            expect(Number(res.headers["X-Credits-Remaining"])).toBe(m.credits);
            expect(rateRemaining(res)).toBe(m.limit - m.accepted.filter((t) => t > now - m.windowMs).length);
            if (expected === 429) {
              const retryAfter = Number(res.headers["Retry-After"]);
              expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
            }
          }
        } finally {
          await rig.close();
        }
      }),
      { numRuns: 500 },
    );
  });
});
