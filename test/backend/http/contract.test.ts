// Contract: HttpBackend over our own REST face on loopback answers exactly what InProcessBackend
// answers from the same service: identical bodies, the same error codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { SILENT } from "../../../harness/mock-upstream.js";
import { type RestRig, startRest } from "../../../harness/service.js";
import { HttpBackend } from "../../../src/backend/http/index.js";
import { InProcessBackend } from "../../../src/backend/inprocess/backend.js";
import { type BackendRequest, resultAs, ServiceError } from "../../../src/backend/types.js";

let h: RestRig;
let local: InProcessBackend;
let remote: HttpBackend;

beforeAll(async () => {
  h = await startRest();
  local = new InProcessBackend(h.service, "full-key");
  remote = new HttpBackend({ baseUrl: h.rest.url, apiKey: "full-key", timeouts: { callMs: 5_000 }, log: SILENT });
});
afterAll(async () => {
  await remote.close();
  await h.stop();
});

const SAME_BODY: [string, BackendRequest][] = [
  ["a daily series with dates", { endpoint: "lifespan/Lth_mvrv", asset: "btc", query: { startDate: "2025-01-01", endDate: "2025-06-30" } }],
  ["a series with its default range", { endpoint: "mining/DiffLast", asset: "btc", query: {} }],
  [
    "a series with entity_name",
    { endpoint: "exchange_flow/exchange_reserve", asset: "eth", query: { startDate: "2025-11-01", entity_name: "binance" } },
  ],
  [
    "hourly OHLCV on one venue and market type",
    {
      endpoint: "derivatives/Volume_usd",
      asset: "btc",
      query: { timeframe: "1h", exchange: "binance", market_type: "swap", startDate: "2025-12-01", endDate: "2025-12-03T23:00:00Z" },
    },
  ],
  [
    "spot trades with a timeframe outside the list (daily)",
    { endpoint: "spot/Trades", asset: "sol", query: { timeframe: "2h", startDate: "2025-10-01", endDate: "2025-10-31" } },
  ],
  ["metrics-variation", { endpoint: "derivatives/metrics-variation", asset: "eth", query: {} }],
  ["the heatmap", { endpoint: "liquidation_levels/heatmap", asset: "btc", query: { timeframe: "1h", lookback: "7d" } }],
  [
    "the heatmap on one exchange",
    {
      endpoint: "liquidation_levels/heatmap",
      asset: "eth",
      query: { timeframe: "4h", lookback: "30d", scope: "exchange", exchange: "okx" },
    },
  ],
];

describe("identical bodies", () => {
  it.each(SAME_BODY)("%s", async (_name, request) => {
    const viaHttp = await remote.fetch(request);
    const direct = await local.fetch(request);
    expect(viaHttp.body).toEqual(direct.body);
    // The variation's daily closes come from the service's price source: one heatmap read beside it.
    const closes = request.endpoint === "derivatives/metrics-variation" ? 5 : 0;
    expect(viaHttp.usage.charged).toBe(direct.usage.charged + closes);
    expect(viaHttp.usage.creditsRemaining).toBeTypeOf("number");
    // The repeat is a cache hit: the same body, nothing charged.
    const again = await remote.fetch(request);
    expect(again.body).toEqual(direct.body);
    expect(again.usage.charged).toBe(0);
  });

  it.each(SAME_BODY.filter(([, r]) => r.endpoint === "liquidation_levels/heatmap"))(
    "%s: the same typed heatmap, converted once at the boundary",
    async (_name, request) => {
      const viaHttp = await remote.fetch(request);
      const direct = await local.fetch(request);
      expect(resultAs(direct, "heatmap", request.endpoint).heatmap).toBeDefined();
      expect(resultAs(viaHttp, "heatmap", request.endpoint).heatmap).toEqual(resultAs(direct, "heatmap", request.endpoint).heatmap);
    },
  );

  it("a paged 1m range equals the single in-process answer, with progress per window", async () => {
    const paged = new HttpBackend({ baseUrl: h.rest.url, apiKey: "full-key", paging: { perWindow: 1_000 }, log: SILENT });
    const request: BackendRequest = {
      endpoint: "derivatives/Buy_trades",
      asset: "eth",
      query: { timeframe: "1m", startDate: "2025-12-20", endDate: "2025-12-22T06:30:00Z" },
    };
    const progress: number[] = [];
    try {
      const viaHttp = await paged.fetch(request, { onProgress: (p) => progress.push(p.done / p.total) });
      const direct = await local.fetch(request);
      expect((direct.body as unknown[]).length).toBeGreaterThan(3_000);
      expect(viaHttp.body).toEqual(direct.body);
      expect(progress).toHaveLength(Math.ceil((direct.body as unknown[]).length / 1_000));
      expect(progress.at(-1)).toBe(1);
    } finally {
      await paged.close();
    }
  });
});

async function failure(backend: HttpBackend | InProcessBackend, request: BackendRequest, apiKey?: string): Promise<ServiceError> {
  const outcome = await backend.fetch(request, apiKey ? { apiKey } : {}).then(
    () => new Error("expected an error"),
    (e: unknown) => e,
  );
  if (!(outcome instanceof ServiceError)) throw outcome;
  return outcome;
}

const LTH: BackendRequest = { endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {} };

describe("the same error codes", () => {
  it.each([
    ["401 unknown key", LTH, "nope-key", 401, "unauthorized"],
    [
      "403 outside the key's metrics",
      { endpoint: "derivatives/Volume_usd", asset: "btc", query: {} },
      "onchain-only",
      403,
      "metric_not_allowed",
    ],
    ["404 asset outside the set", { endpoint: "lifespan/Lth_mvrv", asset: "eth", query: {} }, undefined, 404, "asset_not_supported"],
    [
      "400 bad venue",
      { endpoint: "derivatives/Volume_usd", asset: "btc", query: { exchange: "nowhere" } },
      undefined,
      400,
      "invalid_parameter",
    ],
    [
      "400 bad date",
      { endpoint: "lifespan/Lth_mvrv", asset: "btc", query: { startDate: "2025-02-30" } },
      undefined,
      400,
      "invalid_parameter",
    ],
    ["402 no credits", LTH, "broke", 402, "credits_exhausted"],
  ] as const)("%s", async (_name, request, apiKey, status, code) => {
    const viaHttp = await failure(remote, request, apiKey);
    const direct = await failure(local, request, apiKey);
    expect([viaHttp.status, viaHttp.code]).toEqual([status, code]);
    expect([direct.status, direct.code]).toEqual([status, code]);
    expect(viaHttp.details.parameter).toBe(direct.details.parameter);
    expect(viaHttp.details.allowed).toEqual(direct.details.allowed);
    if (status === 400) expect(viaHttp.message).toBe(direct.message);
    if (status === 401) expect(viaHttp.message).toMatch(/CRYPTO_METRICS_API_KEY/);
  });

  it("429 when the rate window is full: retryAfterS from Retry-After, no waiting beyond the budget", async () => {
    const day = (d: number) => ({ ...LTH, query: { startDate: `2025-03-0${d}` } });
    await remote.fetch(day(1), { apiKey: "two-per-minute" });
    await remote.fetch(day(2), { apiKey: "two-per-minute" });
    const viaHttp = await failure(remote, day(3), "two-per-minute");
    const direct = await failure(local, day(3), "two-per-minute");
    expect([viaHttp.status, viaHttp.code]).toEqual([429, "rate_limited"]);
    expect([direct.status, direct.code]).toEqual([429, "rate_limited"]);
    expect(viaHttp.details.retryAfterS).toBeGreaterThan(5);
    expect(Math.abs(viaHttp.details.retryAfterS! - direct.details.retryAfterS!)).toBeLessThanOrEqual(1);
  });

  it("an entitled key's cached body is not served to a restricted key", async () => {
    const request: BackendRequest = { endpoint: "derivatives/Volume_usd", asset: "btc", query: { startDate: "2025-05-01" } };
    await remote.fetch(request, { apiKey: "full-key" });
    expect((await failure(remote, request, "onchain-only")).code).toBe("metric_not_allowed");
  });
});
