// Seeded synthetic inputs for the summary tests, scripts/measure-summary.ts and the benches: a PRNG, random-walk series
// and leverage-tier liquidation heatmaps with the service's shape.
import type { Heatmap } from "../src/catalog/responses.js";

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A multiplicative random walk around `start`, one point per `stepMs` from `t0`. */
export function randomWalk(
  n: number,
  stepMs: number,
  seed = 1,
  start = 87_000,
  t0 = Date.UTC(2025, 9, 29),
): { times: Float64Array; values: Float64Array } {
  const next = rng(seed);
  const times = new Float64Array(n);
  const values = new Float64Array(n);
  let p = start;
  for (let i = 0; i < n; i++) {
    times[i] = t0 + i * stepMs;
    p *= 1 + (next() - 0.5) * 0.004;
    values[i] = p;
  }
  return { times, values };
}

const TIERS = [
  { leverage: 5, weight: 0.15 },
  { leverage: 10, weight: 0.3 },
  { leverage: 25, weight: 0.25 },
  { leverage: 50, weight: 0.2 },
  { leverage: 100, weight: 0.1 },
];

/**
 * rows × cols heatmap: a price path; each column opens long levels below and short levels above
 * the close (per leverage tier), levels persist until price trades through them.
 */
export function makeHeatmap(rows: number, cols: number, seed = 7, stepMs = 6 * 3_600_000): Heatmap {
  const next = rng(seed);
  const closes: number[] = [];
  let p = 87_000;
  for (let j = 0; j < cols; j++) {
    p *= 1 + (next() - 0.5) * 0.02;
    closes.push(p);
  }
  const lo = Math.min(...closes) * 0.75;
  const hi = Math.max(...closes) * 1.25;
  const step = (hi - lo) / Math.max(1, rows - 1);
  const y = Array.from({ length: rows }, (_, i) => lo + i * step);
  const open = new Float64Array(rows);
  const z: Array<Array<number | null>> = Array.from({ length: rows }, () => new Array<number | null>(cols).fill(0));
  const t0 = Date.UTC(2024, 0, 1);
  const x: string[] = [];
  const df: Heatmap["df"] = [];
  const lsr: Heatmap["topTraderLsr"] = [];
  let prev = closes[0]!;
  for (let j = 0; j < cols; j++) {
    const close = closes[j]!;
    const high = Math.max(prev, close) * (1 + next() * 0.004);
    const low = Math.min(prev, close) * (1 - next() * 0.004);
    for (let i = 0; i < rows; i++) if (y[i]! >= low && y[i]! <= high) open[i] = 0;
    const notional = 2e6 + next() * 8e6;
    for (const { leverage, weight } of TIERS) {
      for (const side of [-1, 1]) {
        const level = close * (1 + side * (1 / leverage - 0.004));
        const i = Math.round((level - lo) / step);
        if (i >= 0 && i < rows) open[i]! += notional * weight * (0.5 + next());
      }
    }
    for (let i = 0; i < rows; i++) z[i]![j] = open[i]! < 5e4 ? 0 : open[i]!;
    if (next() < 0.002) z[Math.floor(next() * rows)]![j] = null;
    const iso = new Date(t0 + j * stepMs).toISOString();
    x.push(iso);
    df.push({ date: iso, open: prev, high, low, close });
    if (j % 4 === 0) lsr.push({ date: iso, value: 1.2 + (next() - 0.5) * 0.4 });
    prev = close;
  }
  return {
    asset: "btc",
    timeframe: "6h",
    lookback: "2y",
    scope: "all",
    exchange: "all",
    version: "2025-12-28T00:00:00.000Z",
    priceSource: "binance:BTCUSDT:perp",
    x,
    y,
    z,
    df,
    topTraderLsr: lsr,
  };
}
