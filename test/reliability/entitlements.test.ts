// Entitlements before spend: a restricted key outside its metrics gets 403 with nothing charged and
// no rate token used, whatever its balance or window; inside them it never gets 403; and through
// the HTTP backend a restricted key never receives a body cached for another key.
import { describe, expect, it } from "vitest";

import { BIG_RATE, cheapPath, cheapRequest, type KeyEntry, rateRemaining, serviceGet, serviceRig } from "../../harness/service.js";
import { restUpstream } from "../../harness/upstream.js";
import { HttpBackend } from "../../src/backend/http/index.js";
import { ServiceError } from "../../src/backend/types.js";
import { ENDPOINTS, HEATMAP_ID } from "../../src/catalog/index.js";

const ids = (pred: (e: (typeof ENDPOINTS)[number]) => boolean) => ENDPOINTS.filter(pred).map((e) => e.id);

/** Five restricted keys cutting the catalog in different ways, plus an unrestricted one. */
const RESTRICTIONS: Record<string, string[] | null> = {
  "ohlcv-only": ids((e) => e.kind === "ohlcv"),
  "onchain-cohorts": ids((e) => ["lifespan", "holder_supply", "mining"].includes(e.group)),
  summaries: ids((e) => e.kind === "variation" || e.kind === "heatmap"),
  "one-metric": ["market/metcalfe_ratio"],
  "all-but-heatmap": ids((e) => e.id !== HEATMAP_ID),
  everything: null,
};
const NAMES = Object.keys(RESTRICTIONS);

function keysWith(extra: Omit<KeyEntry, "key" | "metrics">): KeyEntry[] {
  return NAMES.map((key) => ({ key, ...extra, ...(RESTRICTIONS[key] && { metrics: RESTRICTIONS[key]! }) }));
}

const allowed = (key: string, endpoint: string) => RESTRICTIONS[key] === null || RESTRICTIONS[key]!.includes(endpoint);

describe("restricted-key matrix (6 keys × 29 endpoints)", () => {
  it("has at least 5 restricted keys, each leaving some endpoints out and letting some in", async () => {
    expect(ENDPOINTS).toHaveLength(29);
    const restricted = NAMES.filter((k) => RESTRICTIONS[k] !== null);
    expect(restricted.length).toBeGreaterThanOrEqual(5);
    for (const k of restricted) {
      expect(RESTRICTIONS[k]!.length).toBeGreaterThan(0);
      expect(RESTRICTIONS[k]!.length).toBeLessThan(29);
    }
  });

  it("with a full balance: outside → 403 costing 0 credits and 0 rate tokens; inside → 200", async () => {
    const rig = serviceRig({ keys: keysWith({ credits: 1_000_000, rateLimit: BIG_RATE }) });
    try {
      for (const key of NAMES) {
        for (const endpoint of ENDPOINTS) {
          const before = await serviceGet(rig.service, "/btc/lifespan/Lth_mvrv?bogus=1", key); // a 400 (or 403): headers, nothing spent
          expect(before.status).toBe(allowed(key, "lifespan/Lth_mvrv") ? 400 : 403);
          const res = await serviceGet(rig.service, cheapPath(endpoint), key);
          const label = `${key} × ${endpoint.id}`;
          if (allowed(key, endpoint.id)) {
            expect(res.status, label).toBe(200);
            expect(res.usage!.charged, label).toBeGreaterThan(0);
            continue;
          }
          expect(res.status, label).toBe(403);
          expect(res.error!.code).toBe("metric_not_allowed");
          expect(res.usage!.charged).toBe(0);
          expect(res.headers["X-Credits-Remaining"], label).toBe(before.headers["X-Credits-Remaining"]);
          expect(rateRemaining(res), label).toBe(rateRemaining(before));
        }
      }
    } finally {
      await rig.close();
    }
  });

  it("with the window full and the balance at 0: outside is still 403, inside is 429, never 403", async () => {
    // One credit and one request per minute: the first inside call spends both.
    const rig = serviceRig({ keys: keysWith({ credits: 1, rateLimit: { requests: 1, windowSeconds: 60 } }) });
    try {
      for (const key of NAMES) {
        const first =
          ENDPOINTS.find((e) => allowed(key, e.id) && e.kind !== "heatmap" && e.kind !== "variation") ??
          ENDPOINTS.find((e) => allowed(key, e.id))!;
        const spend = await serviceGet(rig.service, cheapPath(first), key);
        // A 2- or 5-credit endpoint cannot be paid with 1 credit: then the window stays open and the balance at 1.
        const spent = spend.status === 200;
        expect([200, 402]).toContain(spend.status);
        for (const endpoint of ENDPOINTS) {
          const res = await serviceGet(rig.service, cheapPath(endpoint), key);
          const label = `${key} × ${endpoint.id}`;
          if (!allowed(key, endpoint.id)) {
            expect(res.status, label).toBe(403);
            expect(rateRemaining(res), label).toBe(spent ? 0 : 1);
            expect(res.headers["X-Credits-Remaining"], label).toBe(spent ? "0" : "1");
          } else {
            expect(res.status, label).toBe(spent ? 429 : 402);
          }
        }
      }
    } finally {
      await rig.close();
    }
  });
});

describe("HTTP backend: entitlement before cache", () => {
  it("never serves a restricted key a body the cache holds for another key; every refusal comes from the upstream", async () => {
    const rig = serviceRig({ keys: keysWith({ credits: 1_000_000, rateLimit: BIG_RATE }) });
    const upstream = await restUpstream(rig.service);
    const backend = new HttpBackend({
      baseUrl: upstream.url,
      apiKey: "everything",
      log: { warn: () => {}, info: () => {}, debug: () => {} },
    });
    try {
      // Warm the cache with every endpoint through the unrestricted key.
      for (const endpoint of ENDPOINTS) await backend.fetch(cheapRequest(endpoint));
      // One more: the variation's daily closes, read from a heatmap view of their own.
      expect(backend.cacheStats.entries).toBe(ENDPOINTS.length + 1);
      const warm = upstream.seen.length;
      for (const key of NAMES.filter((k) => k !== "everything")) {
        for (const endpoint of ENDPOINTS) {
          const label = `${key} × ${endpoint.id}`;
          for (const attempt of [1, 2]) {
            const seenBefore = upstream.seen.length;
            const outcome = await backend.fetch(cheapRequest(endpoint), { apiKey: key }).then(
              (r) => r,
              (e: unknown) => e,
            );
            if (allowed(key, endpoint.id)) {
              expect(outcome, label).not.toBeInstanceOf(Error);
              continue;
            }
            expect(outcome, `${label} #${attempt}`).toBeInstanceOf(ServiceError);
            expect((outcome as ServiceError).status).toBe(403);
            // The upstream decided, with this key: the cached body was not consulted.
            expect(upstream.seen.length, `${label} #${attempt}`).toBe(seenBefore + 1);
            expect(upstream.seen.at(-1)!.key).toBe(key);
          }
        }
      }
      expect(upstream.seen.length).toBeGreaterThan(warm);
    } finally {
      await backend.close();
      await upstream.close();
      await rig.close();
    }
  });

  it("keeps concurrent identical calls of an entitled and a restricted key apart (no coalescing across keys)", async () => {
    const rig = serviceRig({ keys: keysWith({ credits: 1_000_000, rateLimit: BIG_RATE }) });
    const upstream = await restUpstream(rig.service);
    const backend = new HttpBackend({
      baseUrl: upstream.url,
      apiKey: "everything",
      log: { warn: () => {}, info: () => {}, debug: () => {} },
    });
    try {
      const request = cheapRequest(ENDPOINTS.find((e) => e.id === HEATMAP_ID)!);
      const calls = Array.from({ length: 40 }, (_, i) => {
        const key = i % 2 ? "all-but-heatmap" : "everything";
        return backend.fetch(request, { apiKey: key }).then(
          () => `${key}:ok`,
          (e: ServiceError) => `${key}:${e.status}`,
        );
      });
      const results = await Promise.all(calls);
      expect(new Set(results)).toEqual(new Set(["everything:ok", "all-but-heatmap:403"]));
      expect(results.filter((r) => r === "all-but-heatmap:403")).toHaveLength(20);
    } finally {
      await backend.close();
      await upstream.close();
      await rig.close();
    }
  });
});
