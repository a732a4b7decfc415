// Heatmap invariants (Plotly orientation, uniform y, sane candles) and the liquidation model.
import { describe, expect, it } from "vitest";

import { generateHeatmap, type HeatmapQuery } from "../../../../src/backend/inprocess/readings/index.js";
import { type CandleRange, simulateLiquidations } from "../../../../src/backend/inprocess/readings/liquidation-model.js";
import { CANONICAL_LOOKBACK, heatmapColumns, TIMEFRAME_MS, TIMEFRAMES } from "../../../../src/catalog/index.js";
import { heatmapSchema } from "../../../../src/catalog/response-schemas.js";
import type { Heatmap } from "../../../../src/catalog/responses.js";

const NOW = Date.parse("2025-12-31T15:47:12Z");

function heatmap(extra: Partial<HeatmapQuery> = {}): Heatmap {
  return generateHeatmap({ asset: "btc", timeframe: "30m", lookback: "30d", scope: "all", nowMs: NOW, ...extra });
}

function checkInvariants(h: Heatmap, query: HeatmapQuery): void {
  heatmapSchema.parse(h);
  const columns = heatmapColumns(query.timeframe, query.lookback);
  const step = TIMEFRAME_MS[query.timeframe];
  expect(h.x.length).toBe(columns);
  // The last column is the bucket the data clock (the last whole minute) falls in.
  const clock = Math.floor(query.nowMs / 60_000) * 60_000;
  expect(Date.parse(h.x[h.x.length - 1]!)).toBe(Math.floor((clock - 1) / step) * step);
  for (let j = 1; j < h.x.length; j++) expect(Date.parse(h.x[j]!) - Date.parse(h.x[j - 1]!)).toBe(step);
  expect(h.y.length).toBeGreaterThanOrEqual(100);
  expect(h.y[0]!).toBeGreaterThan(0);
  expect(h.y.length).toBeLessThanOrEqual(200);
  const dy = h.y[1]! - h.y[0]!;
  expect(dy).toBeGreaterThan(0);
  // Plain loops with one assertion each: hundreds of thousands of cells.
  expect(h.y.every((y, i) => Math.abs(y - (h.y[0]! + i * dy)) / dy < 1e-6)).toBe(true);
  expect(h.z.length).toBe(h.y.length);
  expect(h.z.every((row) => row.length === columns)).toBe(true);
  const bad = h.z.flat().filter((cell) => cell === null || !Number.isFinite(cell) || cell < 0);
  expect(bad).toEqual([]);
  expect(h.df.map((c) => c.date)).toEqual(h.x);
  for (const c of h.df) {
    expect(c.low).toBeGreaterThan(0);
    expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
    expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
  }
  // The grid spans the window's low–high with margin.
  const low = Math.min(...h.df.map((c) => c.low));
  const high = Math.max(...h.df.map((c) => c.high));
  expect(h.y[0]!).toBeLessThan(low * 0.9);
  expect(h.y[h.y.length - 1]!).toBeGreaterThan(high * 1.1);
  for (const p of h.topTraderLsr) {
    expect(p.value).toBeGreaterThanOrEqual(0.5);
    expect(p.value).toBeLessThanOrEqual(3.5);
  }
  expect(h).toMatchObject({ asset: query.asset, timeframe: query.timeframe, lookback: query.lookback, scope: query.scope });
}

describe("generateHeatmap", () => {
  it("satisfies the invariants for every timeframe at its canonical lookback", () => {
    for (const timeframe of TIMEFRAMES) {
      const query: HeatmapQuery = { asset: "btc", timeframe, lookback: CANONICAL_LOOKBACK[timeframe], scope: "all", nowMs: NOW };
      checkInvariants(generateHeatmap(query), query);
    }
  });

  it("satisfies them for other assets, short lookbacks and per-exchange scope", () => {
    const queries: HeatmapQuery[] = [
      { asset: "eth", timeframe: "1h", lookback: "7d", scope: "all", nowMs: NOW },
      { asset: "sol", timeframe: "15m", lookback: "24h", scope: "exchange", exchange: "bybit", nowMs: NOW },
      { asset: "usdt_eth", timeframe: "4h", lookback: "90d", scope: "all", nowMs: NOW },
      { asset: "pepe", timeframe: "5m", lookback: "12h", scope: "all", nowMs: NOW },
    ];
    for (const query of queries) checkInvariants(generateHeatmap(query), query);
  });

  it("echoes the request and names its sources", () => {
    const h = heatmap({ scope: "exchange", exchange: "okx" });
    expect(h.exchange).toBe("okx");
    // Each venue's market as that venue writes it.
    expect(h.priceSource).toBe("okx:BTC-USDT-SWAP:perp");
    expect(heatmap().exchange).toBe("all");
    expect(heatmap().priceSource).toBe("binance:BTCUSDT:perp");
    const at = (exchange: string, asset = "btc") => heatmap({ asset, scope: "exchange", exchange } as never).priceSource;
    expect(at("hyperliquid")).toBe("hyperliquid:BTC:perp");
    expect(at("bitmex")).toBe("bitmex:XBTUSD:perp");
    expect(at("deribit", "eth")).toBe("deribit:ETH-PERPETUAL:perp");
    expect(at("kraken")).toBe("kraken:PF_XBTUSD:perp");
    expect(at("paradex", "sol")).toBe("paradex:SOL-USD-PERP:perp");
    expect(at("whitebit")).toBe("whitebit:BTC_PERP:perp");
    expect(at("upbit")).toBe("upbit:KRW-BTC:spot");
    expect(Number.isNaN(Date.parse(heatmap().version))).toBe(false);
  });

  it("is deterministic", () => {
    expect(JSON.stringify(heatmap())).toBe(JSON.stringify(heatmap()));
  });

  it("depends on now only through the minute it falls in: the last candle runs to that minute", () => {
    const minute = Math.floor(NOW / 60_000) * 60_000;
    const at = (nowMs: number) => JSON.stringify(heatmap({ timeframe: "1h", lookback: "24h", nowMs }));
    expect(at(minute)).toBe(at(NOW));
    expect(at(minute + 59_999)).toBe(at(NOW));
    expect(at(minute + 60_000)).not.toBe(at(NOW));
  });

  it("anchors on the price at now: the last candle is partial and closes at the price of the data clock", () => {
    const nowMs = Date.parse("2025-12-28T12:30:40Z");
    const h = generateHeatmap({ asset: "btc", timeframe: "6h", lookback: "30d", scope: "all", nowMs });
    const last = h.df.at(-1)!;
    expect(last.date).toBe("2025-12-28T12:00:00.000Z");
    const later = generateHeatmap({
      asset: "btc",
      timeframe: "6h",
      lookback: "30d",
      scope: "all",
      nowMs: Date.parse("2025-12-28T17:59:00Z"),
    });
    // The same bucket seen later: its open is fixed, its close has moved on with the path.
    expect(later.df.at(-1)!.open).toBe(last.open);
    expect(later.df.at(-1)!.close).not.toBe(last.close);
    const m = generateHeatmap({ asset: "btc", timeframe: "1m", lookback: "12h", scope: "all", nowMs });
    expect(m.df.at(-1)!.date).toBe("2025-12-28T12:29:00.000Z");
    expect(m.df.at(-1)!.close).toBe(last.close);
  });

  it("candles follow the price path: the last daily candle closes near BTC's path", () => {
    const h = generateHeatmap({ asset: "btc", timeframe: "1d", lookback: "30d", scope: "all", nowMs: Date.parse("2025-12-29T10:00:00Z") });
    const dec28 = h.df.find((c) => c.date === "2025-12-28T00:00:00.000Z")!;
    expect(Math.abs(dec28.close / 87_747.65 - 1)).toBeLessThan(1e-5);
    const dec29 = h.df.find((c) => c.date === "2025-12-29T00:00:00.000Z")!;
    expect(dec29.open).toBe(dec28.close);
  });

  it("has realistic magnitudes: BTC cells mostly under $50M, long-lookback peaks $100–400M; ETH and one exchange smaller", () => {
    const cells = (h: Heatmap) => h.z.flat() as number[];
    const max = (xs: number[]) => xs.reduce((m, v) => (v > m ? v : m), 0);
    const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;
    const btc30 = cells(heatmap());
    expect(quantile(btc30, 0.75)).toBeLessThan(50e6);
    const btc2y = cells(heatmap({ timeframe: "6h", lookback: "2y" }));
    const peak = max(btc2y);
    expect(peak).toBeGreaterThan(100e6);
    expect(peak).toBeLessThan(400e6);
    const eth2y = cells(heatmap({ asset: "eth", timeframe: "6h", lookback: "2y" }));
    const ratio = max(eth2y) / peak;
    expect(ratio).toBeGreaterThan(0.3);
    expect(ratio).toBeLessThan(0.6);
    const binance = max(cells(heatmap({ timeframe: "6h", lookback: "2y", scope: "exchange", exchange: "binance" }))) / peak;
    expect(binance).toBeGreaterThan(0.1);
    expect(binance).toBeLessThan(0.5);
    expect(btc30.filter((v) => v === 0).length).toBeGreaterThan(0);
  });
});

describe("simulateLiquidations", () => {
  const levels = Float64Array.from({ length: 120 }, (_, i) => 70_000 + i * 500);
  interface Candle {
    high: number;
    low: number;
    close: number;
  }
  const candles: Candle[] = Array.from({ length: 200 }, (_, c) => {
    const mid = 100_000 + 8_000 * Math.sin(c / 15);
    return { high: mid + 600, low: mid - 600, close: mid + 150 };
  });
  const columns = (cs: Candle[]): CandleRange => ({
    high: Float64Array.from(cs, (c) => c.high),
    low: Float64Array.from(cs, (c) => c.low),
    close: Float64Array.from(cs, (c) => c.close),
  });
  const input = {
    candles: columns(candles),
    entries: new Float64Array(200).fill(1e8),
    longShare: new Float64Array(200).fill(0.55),
    keep: 0.98,
    levels,
    firstOutput: 20,
  };

  it("keeps long liquidations below the price and short liquidations above it", () => {
    const { longs, shorts } = simulateLiquidations(input);
    const wrongSide: string[] = [];
    let longMass = 0;
    let shortMass = 0;
    for (let j = 0; j < 180; j++) {
      const { low, high, close } = candles[j + 20]!;
      levels.forEach((y, i) => {
        longMass += longs[i]![j]!;
        shortMass += shorts[i]![j]!;
        if (longs[i]![j]! > 0 && y >= Math.max(low, close)) wrongSide.push(`long ${y} at ${j}`);
        if (shorts[i]![j]! > 0 && y <= Math.min(high, close)) wrongSide.push(`short ${y} at ${j}`);
      });
    }
    expect(wrongSide).toEqual([]);
    expect(longMass).toBeGreaterThan(0);
    expect(shortMass).toBeGreaterThan(0);
  });

  it("a level swept by a candle's low loses its long notional", () => {
    const crash = candles.map((c, i) => (i === 150 ? { ...c, low: 75_000 } : c));
    const { longs } = simulateLiquidations({ ...input, candles: columns(crash) });
    const col = 150 - 20;
    // Everything between the crash low and the lowest new entry (5x tier, spread 3 levels) is gone.
    const lowestEntry = crash[150]!.close * (1 - 1 / 5 + 0.005) - 3 * 500;
    levels.forEach((y, i) => {
      if (y >= 75_000 && y < lowestEntry) expect(longs[i]![col]).toBe(0);
    });
    const before = longs.reduce((s, row) => s + row[col - 1]!, 0);
    const after = longs.reduce((s, row) => s + row[col]!, 0);
    expect(after).toBeLessThan(before * 0.5);
  });

  it("is O(columns × levels): state carries forward, total notional is bounded by entries over the decay", () => {
    const { longs, shorts } = simulateLiquidations(input);
    const last = longs.reduce((s, row) => s + row[179]!, 0) + shorts.reduce((s, row) => s + row[179]!, 0);
    expect(last).toBeGreaterThan(0);
    expect(last).toBeLessThan(1e8 / (1 - 0.98));
  });
});
