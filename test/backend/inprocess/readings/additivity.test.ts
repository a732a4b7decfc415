// Additive OHLCV series agree across timeframes, venues, market types and symbols.
import { describe, expect, it } from "vitest";

import { generateColumns, type SeriesQuery } from "../../../../src/backend/inprocess/readings/index.js";
import {
  DAY_MS,
  type Endpoint,
  ENDPOINTS,
  MARKET_TYPES,
  type Timeframe,
  TIMEFRAME_MS,
  TIMEFRAMES,
  VENUES,
} from "../../../../src/catalog/index.js";

const ADDITIVE = ENDPOINTS.filter((e) => e.kind === "ohlcv");
const at = (iso: string) => Date.parse(iso);
// A Friday, a Saturday, a Sunday and a volatile day.
const DAYS = ["2025-03-07", "2025-03-08", "2025-03-09", "2025-04-07", "2021-05-19"];

function query(endpoint: Endpoint, timeframe: Timeframe, startMs: number, endMs: number, extra: Partial<SeriesQuery> = {}): SeriesQuery {
  return { endpoint, asset: "btc", timeframe, startMs, endMs, ...extra };
}

function sum(values: Float64Array): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

function expectRel(actual: number, expected: number, tolerance = 1e-9): void {
  const scale = Math.max(Math.abs(expected), 1e-300);
  expect(Math.abs(actual - expected) / scale, `${actual} vs ${expected}`).toBeLessThan(tolerance);
}

describe("cross-timeframe sums", () => {
  for (const endpoint of ADDITIVE) {
    it(`${endpoint.id}: every timeframe sums to the daily value`, () => {
      for (const day of DAYS) {
        const start = at(`${day}T00:00:00Z`);
        const end = start + DAY_MS - 1;
        const daily = generateColumns(query(endpoint, "1d", start, end)).values;
        expect(daily.length).toBe(1);
        expect(daily[0]!).toBeGreaterThan(0);
        for (const tf of TIMEFRAMES) {
          const { values, times } = generateColumns(query(endpoint, tf, start, end));
          expect(values.length).toBe(DAY_MS / TIMEFRAME_MS[tf]);
          expect(times[0]).toBe(start);
          expectRel(sum(values), daily[0]!);
        }
      }
    });
  }

  it("each coarser bucket is the sum of the finer buckets inside it", () => {
    const endpoint = ADDITIVE[0]!;
    const start = at("2025-03-08T00:00:00Z");
    const end = start + DAY_MS - 1;
    const chains: Array<[Timeframe, Timeframe]> = [
      ["1m", "5m"],
      ["5m", "15m"],
      ["15m", "30m"],
      ["30m", "1h"],
      ["1h", "4h"],
      ["1h", "6h"],
      ["6h", "12h"],
      ["4h", "12h"],
    ];
    for (const [fine, coarse] of chains) {
      const f = generateColumns(query(endpoint, fine, start, end)).values;
      const c = generateColumns(query(endpoint, coarse, start, end)).values;
      const ratio = TIMEFRAME_MS[coarse] / TIMEFRAME_MS[fine];
      c.forEach((value, i) => expectRel(sum(f.subarray(i * ratio, (i + 1) * ratio)), value));
    }
  });
});

describe("venue, market-type and symbol splits", () => {
  const start = at("2025-03-07T00:00:00Z");
  const end = at("2025-03-09T23:59:59Z");

  for (const endpoint of ADDITIVE) {
    it(`${endpoint.id}: Σ over the 47 venues equals the unfiltered series (1h and 1d)`, () => {
      for (const tf of ["1h", "1d"] as const) {
        const total = generateColumns(query(endpoint, tf, start, end)).values;
        const acc = new Float64Array(total.length);
        for (const exchange of VENUES) {
          const part = generateColumns(query(endpoint, tf, start, end, { exchange })).values;
          part.forEach((v, i) => {
            expect(v).toBeGreaterThanOrEqual(0);
            acc[i]! += v;
          });
        }
        total.forEach((v, i) => expectRel(acc[i]!, v));
      }
    });
  }

  for (const endpoint of ADDITIVE.filter((e) => e.params.includes("market_type"))) {
    it(`${endpoint.id}: Σ over market types equals the unfiltered series, also per venue`, () => {
      for (const exchange of [undefined, "binance", "okx", "cme"] as const) {
        const total = generateColumns(query(endpoint, "4h", start, end, { exchange })).values;
        const acc = new Float64Array(total.length);
        for (const marketType of MARKET_TYPES) {
          generateColumns(query(endpoint, "4h", start, end, { exchange, marketType })).values.forEach((v, i) => (acc[i]! += v));
        }
        total.forEach((v, i) => expectRel(acc[i]!, v));
      }
    });
  }

  it("binance carries the largest derivatives volume; spot-only venues carry no swaps, perp-only venues no spot", () => {
    const volume = ENDPOINTS.find((e) => e.id === "derivatives/Volume_usd")!;
    const spotTrades = ENDPOINTS.find((e) => e.id === "spot/Trades")!;
    const perVenue = VENUES.map((exchange) => sum(generateColumns(query(volume, "1d", start, end, { exchange })).values));
    expect(Math.max(...perVenue)).toBe(perVenue[VENUES.indexOf("binance")]);
    for (const exchange of ["bitstamp", "upbit", "bithumb"] as const) {
      expect(sum(generateColumns(query(volume, "1d", start, end, { exchange, marketType: "swap" })).values)).toBe(0);
      expect(sum(generateColumns(query(spotTrades, "1d", start, end, { exchange })).values)).toBeGreaterThan(0);
    }
    for (const exchange of ["hyperliquid", "dydx", "cme"] as const) {
      expect(sum(generateColumns(query(spotTrades, "1d", start, end, { exchange })).values)).toBe(0);
    }
  });

  it("symbols split a venue's activity; another asset's symbol gives zeros", () => {
    const volume = ENDPOINTS.find((e) => e.id === "derivatives/Volume_usd")!;
    const total = sum(generateColumns(query(volume, "1d", start, end, { exchange: "binance", marketType: "swap" })).values);
    const parts = ["BTCUSDT", "BTCUSDC", "BTCUSD"].map((symbol) =>
      sum(generateColumns(query(volume, "1d", start, end, { exchange: "binance", marketType: "swap", symbol })).values),
    );
    expectRel(
      parts.reduce((a, b) => a + b, 0),
      total,
    );
    expect(parts[0]!).toBeGreaterThan(parts[1]!);
    const foreign = generateColumns(query(volume, "1h", start, end, { symbol: "ETHUSDT" }));
    expect(foreign.values.length).toBe(72);
    expect(sum(foreign.values)).toBe(0);
  });
});

describe("realistic magnitudes", () => {
  it("BTC derivatives volume runs at $25–150B on most days of 2025, spikes at most ~5× its median on crash days, weekends lower", () => {
    const volume = ENDPOINTS.find((e) => e.id === "derivatives/Volume_usd")!;
    const start = at("2025-01-01T00:00:00Z");
    const end = at("2025-12-31T00:00:00Z");
    const { times, values } = generateColumns(query(volume, "1d", start, end));
    const weekday: number[] = [];
    const weekend: number[] = [];
    values.forEach((v, i) => {
      expect(v).toBeGreaterThan(15e9);
      const dow = new Date(times[i]!).getUTCDay();
      (dow === 0 || dow === 6 ? weekend : weekday).push(v);
    });
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
    const sorted = [...values].sort((a, b) => a - b);
    expect(sorted[Math.floor(0.1 * sorted.length)]!).toBeGreaterThan(25e9);
    expect(sorted[Math.floor(0.9 * sorted.length)]!).toBeLessThan(150e9);
    expect(sorted.at(-1)!).toBeLessThan(5.5 * median([...values]));
    expect(median(weekday)).toBeGreaterThan(40e9);
    expect(median(weekday)).toBeLessThan(120e9);
    expect(median(weekend)).toBeLessThan(median(weekday) * 0.8);
  });

  it("BTC derivatives volume on the year's busiest day (crash and rally days, 2021–2025) is at most 6.5× the year's median day", () => {
    const volume = ENDPOINTS.find((e) => e.id === "derivatives/Volume_usd")!;
    for (const year of [2021, 2022, 2023, 2024, 2025]) {
      const { values } = generateColumns(query(volume, "1d", at(`${year}-01-01T00:00:00Z`), at(`${year}-12-31T00:00:00Z`)));
      const sorted = [...values].sort((a, b) => a - b);
      expect(sorted.at(-1)! / sorted[sorted.length >> 1]!, `${year}`).toBeLessThan(6.5);
    }
  });

  it("intraday activity peaks in 13–16 UTC and bottoms in 02–06 UTC on average", () => {
    const volume = ENDPOINTS.find((e) => e.id === "derivatives/Volume_usd")!;
    const { values } = generateColumns(query(volume, "1h", at("2025-01-01T00:00:00Z"), at("2025-03-31T23:00:00Z")));
    const byHour = new Float64Array(24);
    values.forEach((v, i) => (byHour[i % 24]! += v));
    const peak = byHour.indexOf(Math.max(...byHour));
    const trough = byHour.indexOf(Math.min(...byHour));
    expect(peak).toBeGreaterThanOrEqual(13);
    expect(peak).toBeLessThanOrEqual(16);
    expect(trough).toBeGreaterThanOrEqual(2);
    expect(trough).toBeLessThanOrEqual(6);
  });
});
