// get_ohlcv metric=price: the candles' digest against the candle source itself, charging, the
// restriction rule, and the same answer over the real-service path (heatmap candles over HTTP).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, errorOf, type Fixture, NOW, textOf } from "../../harness/mcp.js";
import { SILENT } from "../../harness/mock-upstream.js";
import { NOW as REST_NOW, type RestRig, startRest } from "../../harness/service.js";
import { candlesFromHeatmap, planPrice } from "../../src/backend/http/heatmap-candles.js";
import { HttpBackend } from "../../src/backend/http/index.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { candleColumns } from "../../src/backend/inprocess/readings/candles.js";
import { resultAs } from "../../src/backend/types.js";
import { DAY_MS } from "../../src/catalog/index.js";
import type { Heatmap } from "../../src/catalog/responses.js";
import { num } from "../../src/summary/index.js";

interface PriceOut {
  digest: { count: number; last: [string, number]; first: [string, number] };
  candles: {
    high: [string, number];
    low: [string, number];
    largestUp: { percent: number };
    largestDown: { percent: number };
    realizedVolatility: { annualizedPercent: number; returns: number };
  };
  credits: { charged: number };
}

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

describe("get_ohlcv metric=price (in-process)", () => {
  it("digests the closes and states the candle facts of exactly the source's candles", async () => {
    const r = await f.call("get_ohlcv", { metric: "price", asset: "eth", startDate: "2025-06-01", endDate: "2025-11-30" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as unknown as PriceOut;
    const c = candleColumns("eth", DAY_MS, Date.parse("2025-06-01"), Date.parse("2025-11-30T23:59:59.999Z"), NOW);
    expect(out.digest.count).toBe(c.times.length);
    // Structured numbers are the values at 6 significant digits.
    expect(out.digest.first[1]).toBe(num(c.close[0]!));
    expect(out.digest.last[1]).toBe(num(c.close[c.times.length - 1]!));
    expect(out.candles.high[1]).toBe(num(Math.max(...c.high)));
    expect(out.candles.low[1]).toBe(num(Math.min(...c.low)));
    const moves = Array.from(c.open, (o, i) => ((c.close[i]! - o) / o) * 100);
    expect(out.candles.largestUp.percent).toBe(num(Math.max(...moves)));
    expect(out.candles.largestDown.percent).toBe(num(Math.min(...moves)));
    const rets = Array.from({ length: c.times.length - 1 }, (_, i) => Math.log(c.close[i + 1]! / c.close[i]!));
    const mean = rets.reduce((a, b) => a + b, 0) / rets.length;
    const sd = Math.sqrt(rets.reduce((a, b) => a + (b - mean) ** 2, 0) / rets.length);
    expect(out.candles.realizedVolatility.annualizedPercent).toBeCloseTo(sd * Math.sqrt(365) * 100, 3);
    expect(out.credits.charged).toBe(1);
    const text = textOf(r);
    expect(text).toMatch(/period high \$[\d,.]+ \(2025-\d\d-\d\d\); low/);
    // One scale per answer: the candle facts are written like the digest's other prices.
    expect(text).not.toMatch(/period high \$[\d,]+\.\d\d /);
    expect(text).toContain("realized volatility");
  });

  it("serves any of the nine timeframes (4h here)", async () => {
    const r = await f.call("get_ohlcv", { metric: "price", asset: "btc", timeframe: "4h", startDate: "2025-12-20" });
    const out = r.structuredContent as unknown as PriceOut;
    expect(out.digest.count).toBe(candleColumns("btc", 4 * 3_600_000, Date.parse("2025-12-20"), NOW, NOW).times.length);
  });

  it("refuses venue arguments, uncovered assets and a key without the heatmap, charging nothing", async () => {
    const ex = await f.call("get_ohlcv", { metric: "price", asset: "btc", exchange: "binance" });
    expect(errorOf(ex).code).toBe("invalid_arguments");
    expect(textOf(ex)).toContain("exchange does not apply to price");
    const uncovered = await f.call("get_ohlcv", { metric: "price", asset: "usdt" });
    expect(errorOf(uncovered).code).toBe("asset_not_supported");
    const restricted = new InProcessBackend(f.backend.service, "onchain-only");
    const r = await restricted.fetch({ endpoint: "price", asset: "btc", query: {} }).catch((e: unknown) => e);
    expect(r).toMatchObject({ code: "metric_not_allowed", details: { allowed: ["lifespan/Lth_mvrv", "market/metcalfe_ratio"] } });
    expect((r as Error).message).toContain("lifespan/Lth_mvrv, market/metcalfe_ratio");
    expect(await f.backend.service.creditsRemaining("onchain-only")).toBe(1000);
  });
});

describe("price over the real-service path (heatmap candles)", () => {
  let h: RestRig;
  let remote: HttpBackend;
  let local: InProcessBackend;
  beforeAll(async () => {
    h = await startRest();
    remote = new HttpBackend({ baseUrl: h.rest.url, apiKey: "full-key", now: () => REST_NOW, log: SILENT });
    local = new InProcessBackend(h.service, "full-key");
  });
  afterAll(async () => {
    await remote.close();
    await h.stop();
  });

  it("gives the in-process candles (rounded as the heatmap rounds them) for one heatmap's cost", async () => {
    const query = { startDate: "2025-09-01", endDate: "2025-12-31", timeframe: "1d" };
    const viaHttp = resultAs(await remote.fetch({ endpoint: "price", asset: "sol", query }), "candles", "price");
    const direct = resultAs(await local.fetch({ endpoint: "price", asset: "sol", query }), "candles", "price");
    expect(viaHttp.usage.charged).toBe(5);
    expect(Array.from(viaHttp.candles.times)).toEqual(Array.from(direct.candles.times));
    for (let i = 0; i < direct.candles.times.length; i++) {
      expect(viaHttp.candles.close[i]! / direct.candles.close[i]! - 1).toBeLessThan(1e-5);
    }
  });

  it("refuses a range no heatmap view reaches, naming the earliest start, before any call", async () => {
    const before = await h.service.creditsRemaining("full-key");
    const err = await remote
      .fetch({ endpoint: "price", asset: "btc", query: { timeframe: "1h", startDate: "2025-01-01" } })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "range_too_large", details: { parameter: "startDate" } });
    expect((err as Error).message).toMatch(/reach back 180d .*on or after 2025-07-/);
    expect(await h.service.creditsRemaining("full-key")).toBe(before);
  });
});

describe("planPrice and candlesFromHeatmap", () => {
  const now = Date.parse("2025-12-31T12:00:00Z");
  it("picks the requested timeframe with the shortest lookback that covers the start", () => {
    expect(planPrice({ timeframe: "1d", startDate: "2025-10-01" }, now)).toMatchObject({ timeframe: "1d", lookback: "180d" });
    expect(planPrice({ timeframe: "1m" }, now)).toMatchObject({ timeframe: "1m", lookback: "24h" });
  });

  it("merges finer candles into the requested buckets: first open, max high, min low, last close", () => {
    const df = [0, 1, 2, 3].map((h) => ({
      date: new Date(Date.UTC(2025, 0, 1, h * 6)).toISOString(),
      open: 10 + h,
      high: 20 + h,
      low: 5 - h,
      close: 11 + h,
    }));
    const heatmap = { df } as unknown as Heatmap;
    const c = candlesFromHeatmap(heatmap, {
      timeframe: "6h",
      lookback: "2y",
      stepMs: DAY_MS,
      startMs: Date.UTC(2025, 0, 1),
      endMs: Date.UTC(2025, 0, 2),
    });
    expect(Array.from(c.times)).toEqual([Date.UTC(2025, 0, 1)]);
    expect([c.open[0], c.high[0], c.low[0], c.close[0]]).toEqual([10, 23, 2, 14]);
  });
});

describe("price for a restricted key, through the tool", () => {
  it("names the heatmap as the price's source and lists what the key may call", async () => {
    const restricted = await connect({ key: "onchain-only" });
    try {
      const r = await restricted.call("get_ohlcv", { metric: "price", asset: "btc" });
      expect(errorOf(r).code).toBe("metric_not_allowed");
      expect(textOf(r)).toContain("not entitled to liquidation_levels/heatmap (price is read from it)");
      expect(textOf(r)).toContain("This key may call: lifespan/Lth_mvrv, market/metcalfe_ratio.");
    } finally {
      await restricted.close();
    }
  });
});

describe("an open last candle", () => {
  it("is said to be open, with the service's now", async () => {
    const f2 = await connect();
    try {
      // The fixture's now is 2025-12-28T12:00Z: the day's candle runs to midnight.
      const r = await f2.call("get_ohlcv", { metric: "price", asset: "btc", startDate: "2025-12-20" });
      expect(textOf(r)).toContain("last bucket (2025-12-28) is partial: data up to 2025-12-28 12:00 UTC");
      expect((r.structuredContent as { lastCandleOpenUntil?: string }).lastCandleOpenUntil).toBe("2025-12-29");
      const closed = await f2.call("get_ohlcv", { metric: "price", asset: "btc", startDate: "2025-12-20", endDate: "2025-12-27" });
      expect(textOf(closed)).not.toContain("partial");
      expect((closed.structuredContent as { lastCandleOpenUntil?: string }).lastCandleOpenUntil).toBeUndefined();
      const cmp = await f2.call("compare", { metric: "price", assets: ["btc", "eth"], startDate: "2025-12-20" });
      expect(textOf(cmp)).toContain("The last bucket had not closed: it ends 2025-12-29 00:00 UTC; data as of 2025-12-28 12:00 UTC.");
    } finally {
      await f2.close();
    }
  });
});
