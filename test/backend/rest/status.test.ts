// Every row of the service's status table, credits under concurrency, and persistence across restarts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { call, keysDir, type RestRig, startRest } from "../../../harness/service.js";

let h: RestRig;
let base: string;
beforeAll(async () => {
  h = await startRest();
  base = h.rest.url;
});
afterAll(async () => h.stop());

/** `null` sends no key at all. */
const get = (path: string, key: string | null = "full-key", headers: Record<string, string> = {}) =>
  call(base, path, { ...(key !== null && { key }), headers });

async function expectError(path: string, status: number, code: string, key: string | null = "full-key", headers?: Record<string, string>) {
  const r = await get(path, key, headers);
  expect(r.status, r.text.slice(0, 300)).toBe(status);
  expect(r.json.error).toMatchObject({ status, code });
  expect(typeof r.json.error.message).toBe("string");
  return r;
}

describe("auth", () => {
  it("401 with WWW-Authenticate: Bearer for a missing or unknown key", async () => {
    const none = await expectError("/btc/lifespan/Lth_mvrv", 401, "unauthorized", null);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    const unknown = await expectError("/btc/lifespan/Lth_mvrv", 401, "unauthorized", "cdk_test_CANARY_nope");
    expect(unknown.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(unknown.text).not.toContain("CANARY");
  });

  it("accepts Authorization: Bearer like X-Api-Key, and 400s on two different keys", async () => {
    const bearer = await get("/btc/lifespan/Lth_mvrv", null, { authorization: "Bearer full-key" });
    expect(bearer.status).toBe(200);
    const same = await get("/btc/lifespan/Lth_mvrv", "full-key", { authorization: "bearer full-key" });
    expect(same.status).toBe(200);
    const both = await expectError("/btc/lifespan/Lth_mvrv", 400, "conflicting_credentials", "full-key", {
      authorization: "Bearer free-key",
    });
    expect(both.text).not.toContain("full-key");
    expect(both.text).not.toContain("free-key");
  });
});

describe("restriction", () => {
  it("403 metric_not_allowed outside the key's metrics, with nothing charged and no rate token used", async () => {
    const before = await get("/btc/lifespan/Lth_mvrv", "onchain-only");
    expect(before.status).toBe(200);
    const balance = before.headers["x-credits-remaining"];
    const rate = before.headers["ratelimit"];
    for (let i = 0; i < 5; i++) {
      const r = await expectError("/btc/derivatives/Volume_usd", 403, "metric_not_allowed", "onchain-only");
      expect(r.headers["x-credits-remaining"]).toBe(balance);
      expect(r.headers["ratelimit"]).toBe(rate);
    }
    // Restriction comes before parameters and coverage: even a bad asset is a 403.
    await expectError("/zzz/derivatives/Volume_usd?timeframe=1m", 403, "metric_not_allowed", "onchain-only");
  });
});

describe("parameters", () => {
  const cases: [string, string][] = [
    ["/btc/lifespan/Lth_mvrv?startDate=2025-02-30", "startDate"],
    ["/btc/lifespan/Lth_mvrv?endDate=31/12/2025", "endDate"],
    ["/btc/lifespan/Lth_mvrv?startDate=2025-03-01&endDate=2025-02-01", "startDate"],
    ["/btc/derivatives/Volume_usd?exchange=nasdaq", "exchange"],
    ["/btc/derivatives/Volume_usd?exchange=Binance", "exchange"],
    ["/btc/derivatives/Volume_usd?market_type=perp", "market_type"],
    ["/btc/derivatives/Volume_usd?symbol=btc-usdt", "symbol"],
    ["/btc/spot/Trades?market_type=spot", "market_type"],
    ["/btc/exchange_flow/exchange_reserve?entity_name=nowhere", "entity_name"],
    ["/btc/lifespan/Lth_mvrv?timeframe=1h", "timeframe"],
    ["/btc/lifespan/Lth_mvrv?startdate=2025-01-01", "startdate"],
    ["/btc/lifespan/Lth_mvrv?startDate=2025-01-01&startDate=2025-01-02", "startDate"],
    ["/btc/lifespan/Lth_mvrv?endDate=", "endDate"],
    ["/btc/derivatives/metrics-variation?startDate=2025-01-01", "startDate"],
    ["/liquidation_levels/heatmap", "asset"],
    ["/liquidation_levels/heatmap?asset=btc&timeframe=2h", "timeframe"],
    ["/liquidation_levels/heatmap?asset=btc&lookback=5y", "lookback"],
    ["/liquidation_levels/heatmap?asset=btc&scope=venue", "scope"],
    ["/liquidation_levels/heatmap?asset=btc&scope=exchange", "exchange"],
    ["/liquidation_levels/heatmap?asset=btc&scope=all&exchange=binance", "exchange"],
    ["/liquidation_levels/heatmap?asset=btc&scope=exchange&exchange=nyse", "exchange"],
  ];
  for (const [path, parameter] of cases) {
    it(`400 invalid_parameter naming ${parameter}: ${path}`, async () => {
      const r = await expectError(path, 400, "invalid_parameter");
      expect(r.json.error.parameter).toBe(parameter);
    });
  }

  it("says which parameters an endpoint accepts", async () => {
    const r = await get("/btc/spot/Trades?market_type=spot");
    expect(r.json.error.message).toContain("accepted: startDate, endDate, timeframe, exchange, symbol");
    const typo = await get("/btc/lifespan/Lth_mvrv?enddate=2025-01-01");
    expect(typo.json.error.message).toContain('did you mean "endDate"');
  });

  it("400 range_too_large beyond 100,000 records, saying how to narrow", async () => {
    const r = await expectError("/btc/derivatives/Volume_usd?timeframe=1m&startDate=2025-01-01", 400, "range_too_large");
    expect(r.json.error.message).toMatch(/at most 69 days at 1m/);
    const fits = await get("/btc/derivatives/Volume_usd?timeframe=1m&startDate=2025-12-01T00:00:00Z&endDate=2025-12-05T23:59:00Z");
    expect(fits.status).toBe(200);
    expect(fits.json).toHaveLength(5 * 1440);
  });

  it("400 naming the allowed lookbacks for a heatmap wider than 4,500 columns", async () => {
    const r = await expectError("/liquidation_levels/heatmap?asset=btc&timeframe=1m&lookback=6y", 400, "range_too_large");
    expect(r.json.error.parameter).toBe("lookback");
    expect(r.json.error.allowed).toEqual(["12h", "24h", "3d"]);
    expect(r.json.error.message).toContain("12h, 24h, 3d");
  });

  it("404 for a heatmap asset outside set A", async () => {
    await expectError("/liquidation_levels/heatmap?asset=leo_eos", 404, "asset_not_supported");
  });

  it("infers scope=exchange from an exchange given alone", async () => {
    const r = await get("/liquidation_levels/heatmap?asset=btc&timeframe=1d&lookback=90d&exchange=okx");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ scope: "exchange", exchange: "okx" });
  });
});

describe("limits", () => {
  it("429 rate_limited with an integer Retry-After once the window is full; rejected calls cost nothing", async () => {
    expect((await get("/btc/lifespan/Lth_mvrv", "two-per-minute")).status).toBe(200);
    expect((await get("/btc/lifespan/Lth_mvrv", "two-per-minute")).status).toBe(200);
    const r = await expectError("/btc/lifespan/Lth_mvrv", 429, "rate_limited", "two-per-minute");
    const retry = Number(r.headers["retry-after"]);
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 60).toBe(true);
    expect(r.json.error.retry_after_s).toBe(retry);
    expect(r.headers["x-credits-remaining"]).toBe("998");
    expect(r.headers["ratelimit"]).toMatch(/^"custom";r=0;t=\d+$/);
  });

  it("402 credits_exhausted when the balance is below the cost", async () => {
    const r = await expectError("/btc/lifespan/Lth_mvrv", 402, "credits_exhausted", "broke");
    expect(r.headers["x-credits-remaining"]).toBe("0");
    expect(r.json.error.credits_remaining).toBe(0);
  });

  it("lets exactly 100 of 2,000 parallel requests through on a 100-credit key, leaving 0", async () => {
    const replies = await Promise.all(
      Array.from({ length: 2000 }, () => get("/btc/market/metcalfe_ratio?startDate=2025-12-01", "hundred")),
    );
    const ok = replies.filter((r) => r.status === 200).length;
    const refused = replies.filter((r) => r.status === 402).length;
    expect(ok).toBe(100);
    expect(refused).toBe(1900);
    expect(await h.service.creditsRemaining("hundred")).toBe(0);
  });

  it("charges 1 + 1 per 10,000 records", async () => {
    const before = (await h.service.creditsRemaining("full-key"))!;
    await get("/btc/derivatives/Volume_usd?timeframe=1m&startDate=2025-12-01T00:00:00Z&endDate=2025-12-14T23:59:00Z");
    expect(before - (await h.service.creditsRemaining("full-key"))!).toBe(1 + Math.floor((14 * 1440) / 10_000));
    const v = (await h.service.creditsRemaining("full-key"))!;
    await get("/btc/derivatives/metrics-variation");
    expect(v - (await h.service.creditsRemaining("full-key"))!).toBe(2);
    await get("/liquidation_levels/heatmap?asset=btc&timeframe=1d&lookback=90d");
    expect(v - (await h.service.creditsRemaining("full-key"))!).toBe(7);
  });
});

describe("persistence", () => {
  it("keeps spent credits across a restart on the same state dir", async () => {
    const setup = keysDir();
    const first = await startRest(setup);
    for (let i = 0; i < 3; i++) expect((await call(first.rest.url, "/btc/lifespan/Lth_mvrv", { key: "ten" })).status).toBe(200);
    await first.stop();
    const second = await startRest(setup);
    const r = await call(second.rest.url, "/btc/lifespan/Lth_mvrv", { key: "ten" });
    expect(r.headers["x-credits-remaining"]).toBe("6");
    await second.stop();
  });
});
