// Every error class comes back as an isError result whose text says what to do next, tagged
// retryable or not, and costs nothing; keys are never echoed.
import { afterEach, describe, expect, it } from "vitest";

import { connect, errorOf, type Fixture, KEYS, textOf } from "../../harness/mcp.js";
import { DATE_FORMAT_HINT } from "../../src/catalog/index.js";

const open: Fixture[] = [];
async function fixture(key?: string): Promise<Fixture> {
  const f = await connect(key ? { key } : {});
  open.push(f);
  return f;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});

/** Credits left on the fixture's key, read from a cheap successful call. */
async function creditsLeft(f: Fixture): Promise<number> {
  const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-12-27" });
  expect(r.isError).toBeFalsy();
  return (r.structuredContent as { credits: { remaining: number } }).credits.remaining;
}

describe("asset and metric errors", () => {
  it("answers an unknown asset with did-you-mean among the metric's coverage only", async () => {
    const f = await fixture();
    const r = await f.call("get_series", { metric: "lifespan/Cvdd", asset: "btcc" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'Asset "btcc" is not covered by lifespan/Cvdd (covers bch, btc, dash, doge, ltc, zec). Did you mean "btc" (Bitcoin)? list_assets shows coverage. Nothing was charged.',
    );
    expect(errorOf(r)).toMatchObject({ code: "unknown_asset", retryable: false, parameter: "asset", suggestions: ["btc"] });
    // eth is near "ethh" but Cvdd does not cover it: proposing it would only fail again.
    const near = await f.call("get_series", { metric: "lifespan/Cvdd", asset: "ethh" });
    expect(textOf(near)).toBe(
      'Asset "ethh" is not covered by lifespan/Cvdd (covers bch, btc, dash, doge, ltc, zec). list_assets shows coverage. Nothing was charged.',
    );
  });

  it("reads the names people use: a covered one is proposed, an uncovered one explained", async () => {
    const f = await fixture();
    expect(textOf(await f.call("get_series", { metric: "lifespan/Cvdd", asset: "dogecoin" }))).toContain('Did you mean "doge" (Dogecoin)?');
    expect(textOf(await f.call("get_series", { metric: "lifespan/Cvdd", asset: "Ethereum" }))).toContain(
      '"ethereum" is the name of eth, which lifespan/Cvdd does not cover.',
    );
    const spaced = await f.call("get_ohlcv", { metric: "derivatives/Volume_usd", asset: "shiba inu" });
    expect(errorOf(spaced)).toMatchObject({ code: "invalid_arguments", suggestions: ["shib"] });
  });

  it("points a real ticker outside the coverage at its other metrics", async () => {
    const f = await fixture();
    const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "eth" });
    expect(textOf(r)).toMatch(
      /^Asset "eth" is not covered by lifespan\/Lth_mvrv \(covers btc\)\. \d+ other endpoints cover eth: list_assets asset=eth\. Nothing was charged\.$/,
    );
    expect(errorOf(r).code).toBe("asset_not_supported");
  });

  it("summarises a large coverage by size instead of listing it", async () => {
    const f = await fixture();
    const r = await f.call("get_ohlcv", { metric: "spot/Trades", asset: "bitcoin" });
    expect(textOf(r)).toContain("(covers 210 assets)");
  });

  it("suggests the nearest metric ids for an unknown or mis-cased metric", async () => {
    const f = await fixture();
    const r = await f.call("get_series", { metric: "lifespan/lth_mvrv", asset: "btc" });
    expect(textOf(r)).toContain('Did you mean "lifespan/Lth_mvrv"');
    expect(errorOf(r)).toMatchObject({ code: "unknown_metric", suggestions: expect.arrayContaining(["lifespan/Lth_mvrv"]) });
    const other = await f.call("get_series", { metric: "derivatives/Volume_usd", asset: "btc" });
    expect(textOf(other)).toContain("served by get_ohlcv");
    const listed = await f.call("list_assets", { metric: "mining/difflast" });
    expect(textOf(listed)).toContain('Did you mean "mining/DiffLast"?');
  });

  it("suggests venues for an unknown exchange", async () => {
    const f = await fixture();
    const r = await f.call("get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc", exchange: "binanse" });
    expect(textOf(r)).toContain('Did you mean "binance"?');
  });
});

describe("service errors", () => {
  it("gives the accepted date format for a bad date, and charges nothing", async () => {
    const f = await fixture();
    const before = await creditsLeft(f);
    const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-02-30" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(DATE_FORMAT_HINT);
    expect(textOf(r)).toMatch(/nothing was charged/i);
    expect(errorOf(r)).toMatchObject({ code: "invalid_parameter", parameter: "startDate", retryable: false });
    expect(await creditsLeft(f)).toBe(before - 1);
  });

  it("answers a heatmap lookback too long for the default timeframe with lookbacks, not dates", async () => {
    const f = await fixture();
    const r = await f.call("get_liquidation_heatmap", { asset: "btc", lookback: "6y" });
    expect(errorOf(r)).toMatchObject({
      code: "range_too_large",
      parameter: "lookback",
      retryable: false,
      suggestions: expect.arrayContaining(["2y"]),
    });
    expect(textOf(r)).toContain("Nothing was charged");
    expect(textOf(r)).not.toMatch(/startDate|endDate/);
  });

  it("says a restricted key is not entitled to the metric (403)", async () => {
    const f = await fixture("onchain-only");
    expect((await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" })).isError).toBeFalsy();
    const r = await f.call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "btc" });
    expect(textOf(r)).toContain("this key is not entitled to exchange_flow/exchange_reserve".replace("this", "This"));
    expect(errorOf(r)).toMatchObject({ code: "metric_not_allowed", retryable: false });
    const heat = await f.call("get_liquidation_heatmap", { asset: "btc" });
    expect(textOf(heat)).toContain("not entitled to liquidation_levels/heatmap");
  });

  it("reports the credits left when a key is exhausted (402)", async () => {
    const f = await fixture("tiny");
    const heat = await f.call("get_liquidation_heatmap", { asset: "btc" });
    expect(errorOf(heat)).toMatchObject({ code: "credits_exhausted", retryable: false, credits_remaining: 3 });
    expect(textOf(heat)).toContain("3 credits left");
    for (let i = 0; i < 3; i++) expect((await f.call("get_series", { metric: "mining/DiffLast", asset: "btc" })).isError).toBeFalsy();
    const r = await f.call("get_series", { metric: "mining/DiffLast", asset: "btc" });
    expect(errorOf(r)).toMatchObject({ code: "credits_exhausted", credits_remaining: 0 });
    expect(textOf(r)).toMatch(/Retrying will not help/);
  });

  it("tells a rate-limited caller when to retry (429)", async () => {
    const f = await fixture("slow");
    expect((await f.call("get_metrics_variation", { asset: "btc" })).isError).toBeFalsy();
    const r = await f.call("get_metrics_variation", { asset: "btc" });
    const e = errorOf(r);
    expect(e).toMatchObject({ code: "rate_limited", retryable: true });
    expect(e.retry_after_s).toBeGreaterThan(0);
    expect(textOf(r)).toContain(`Retry after ${e.retry_after_s} s`);
  });

  it("never echoes a key in any error text", async () => {
    for (const { key } of KEYS.keys) {
      const f = await fixture(key);
      const results = [
        await f.call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "btc", startDate: "nope" }),
        await f.call("get_liquidation_heatmap", { asset: "btc" }),
        await f.call("get_liquidation_heatmap", { asset: "btc" }),
      ];
      for (const r of results) expect(JSON.stringify(r)).not.toContain(key);
    }
  });
});

describe("argument validation", () => {
  it("names the field, what it accepts and what was sent", async () => {
    const f = await fixture();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        "get_series",
        { metric: "lifespan/Lth_mvrv", asset: "btc", max_points: "abc" },
        /max_points must be an integer from 4 to 5000 \(got "abc"\)/,
      ],
      [
        "get_series",
        { metric: "lifespan/Lth_mvrv", asset: "btc", max_points: 1 },
        /max_points must be an integer from 4 to 5000 \(got 1\)/,
      ],
      [
        "get_ohlcv",
        { metric: "spot/Trades", asset: "btc", timeframe: "2h" },
        /timeframe must be one of 1m, 5m, 15m, 30m, 1h, 4h, 6h, 12h, 1d \(got "2h"\)/,
      ],
      ["get_series", { metric: "lifespan/Lth_mvrv" }, /asset is required/],
      ["get_liquidation_heatmap", { asset: "btc", include_matrix: "yes" }, /include_matrix must be true or false/],
      ["get_liquidation_heatmap", { asset: "btc", top_k: 11 }, /top_k must be an integer from 1 to 10 \(got 11\)/],
      ["list_assets", { search: "x".repeat(41) }, /search must be a string of at most 40 characters/],
      // An object whose toString is not a function cannot be turned into a string: shown as JSON.
      ["get_ohlcv", { metric: { toString: "" }, asset: "btc" }, /metric must be one of .* \(got \{"toString":""\}\)/],
      ["get_series", { metric: ["lifespan/Cvdd"], asset: "btc" }, /metric must be one of .* \(got \["lifespan\/Cvdd"\]\)/],
    ];
    for (const [tool, args, pattern] of cases) {
      const r = await f.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toMatch(pattern);
      expect(errorOf(r)).toMatchObject({ code: "invalid_arguments", retryable: false });
    }
  });

  it("names unknown fields, suggests the intended one and lists what the tool accepts", async () => {
    const f = await fixture();
    const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", start_date: "2025-01-01", apiKey: "x" });
    const text = textOf(r);
    expect(text).toContain('unknown argument "start_date" (did you mean "startDate"?)');
    expect(text).toContain('unknown argument "apiKey"');
    expect(text).toContain("get_series accepts: metric, asset, startDate, endDate, entity_name, max_points");
  });

  it("refuses arguments the chosen metric does not take", async () => {
    const f = await fixture();
    expect(textOf(await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", entity_name: "binance" }))).toContain(
      "entity_name does not apply to lifespan/Lth_mvrv",
    );
    expect(textOf(await f.call("get_ohlcv", { metric: "spot/Trades", asset: "btc", market_type: "spot" }))).toContain(
      "market_type does not apply to spot/Trades",
    );
    expect(textOf(await f.call("get_ohlcv", { metric: "spot/Trades", asset: "btc", symbol: "btc-usdt" }))).toContain(
      "symbol must be an upper-case pair",
    );
    expect(textOf(await f.call("get_liquidation_heatmap", { asset: "btc", scope: "exchange" }))).toContain("scope=exchange needs exchange");
    const lb = await f.call("get_liquidation_heatmap", { asset: "btc", timeframe: "1m", lookback: "7d" });
    expect(textOf(lb)).toContain("lookback 7d is too long for timeframe 1m; accepted: 12h, 24h, 3d");
  });

  it("charges nothing for any invalid call", async () => {
    const f = await fixture();
    const before = await creditsLeft(f);
    await f.call("get_series", { metric: "lifespan/Cvdd", asset: "ethh" });
    await f.call("get_series", { metric: "nope", asset: "btc" });
    await f.call("get_ohlcv", { metric: "spot/Trades", asset: "btc", timeframe: "2h" });
    await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", endDate: "yesterday" });
    await f.call("get_liquidation_heatmap", { asset: "btc", timeframe: "1m", lookback: "6y" });
    expect(await creditsLeft(f)).toBe(before - 1);
  });

  it("answers an unknown tool with an error result, not a crash", async () => {
    const f = await fixture();
    const r = await f.call("get_everything", {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("get_everything");
  });
});
