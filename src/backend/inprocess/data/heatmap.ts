// The liquidation heatmap: candles on the asset's price path, new leveraged notional from its
// derivatives volume, the leverage-tier model, and the top-trader long/short ratio.
import {
  DAY_MS, TIMEFRAME_MS, endpointById, heatmapColumns, type Lookback, type Scope, type Timeframe, type Venue,
} from "../../../catalog/index.js";
import type { Heatmap } from "../../../catalog/responses.js";
import { gauss, octaveNoise, type Octave } from "./hash.js";
import { simulateLiquidations, type Candle } from "./liquidation-model.js";
import { dailyLogPrice, priceAt } from "./price.js";
import { profileOf } from "./profiles.js";
import { generateColumns } from "./series.js";
import { derivativesShare } from "./shares.js";
import { isoOf } from "./time-format.js";

export interface HeatmapQuery {
  asset: string;
  timeframe: Timeframe;
  lookback: Lookback;
  scope: Scope;
  exchange?: Venue;
  nowMs: number;
}

/** Price levels of the matrix, before the step is rounded to a readable one (120–160 result). */
export const LEVELS = 160;

/** Readable step multipliers: consecutive ratios ≤ 1.25 keep the level count within 20 %. */
const NICE = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];

/** Uniform increasing levels covering [lo, hi] on a readable step (…, 250, 300, 400, … USD). */
export function priceLevels(lo: number, hi: number): Float64Array {
  const raw = (hi - lo) / (LEVELS - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = magnitude * NICE.find((m) => m * magnitude >= raw * (1 - 1e-12))!;
  const first = Math.floor(lo / step);
  const count = Math.ceil(hi / step) - first + 1;
  // Integer multiples of the step: uniform to floating-point precision, no drift from summing.
  return Float64Array.from({ length: count }, (_, i) => (first + i) * step);
}
/** Half-life of open leveraged positions (voluntary closes), in ms. */
const HALF_LIFE_MS = 4 * DAY_MS;
/** Fraction of derivatives volume that opens leveraged positions the model tracks. */
const ENTRY_RATE = 0.011;
/** Cells below this fraction of the peak are noise: zeroed. */
const THRESHOLD = 1e-3;

const VOLUME = endpointById("derivatives/Volume_usd")!;

/** A candle over [start, start + step): samples of the intraday path plus hashed wicks. */
export function candleAt(asset: string, start: number, step: number): Candle {
  const profile = profileOf(asset);
  const open = priceAt(asset, start);
  const close = priceAt(asset, start + step);
  let high = Math.max(open, close);
  let low = Math.min(open, close);
  const samples = Math.min(12, Math.max(1, Math.round(step / 60_000) - 1));
  for (let s = 1; s < samples; s++) {
    const p = priceAt(asset, start + (step * s) / samples);
    if (p > high) high = p;
    if (p < low) low = p;
  }
  const sigma = (profile.model === "stable" ? 0.0005 : 0.02 * profile.vol) * Math.sqrt(step / DAY_MS);
  const index = Math.floor(start / 60_000);
  high *= 1 + 0.3 * sigma * Math.abs(gauss(profile.seed ^ 0x48c13d3b, index));
  low *= 1 - 0.3 * sigma * Math.abs(gauss(profile.seed ^ 0x2b1e8f5d, index));
  return { open, high, low, close };
}

const LSR_OCTAVES: readonly Octave[] = [
  { period: 24 * 21, amplitude: 0.55 }, { period: 24 * 4, amplitude: 0.3 }, { period: 8, amplitude: 0.12 }, { period: 2, amplitude: 0.05 },
];

/** Top-trader long/short ratio: mean-reverting around the asset's level, leaning against 3-day moves; in [0.5, 3.5]. */
export function topTraderLsr(asset: string, ms: number): number {
  const profile = profileOf(asset);
  const base = profile.model === "btc" ? Math.log(1.2) : profile.model === "eth" ? Math.log(1.6) : Math.log(1 + profile.vol * 0.4);
  const day = Math.floor(ms / DAY_MS);
  const move = dailyLogPrice(asset, day - 1) - dailyLogPrice(asset, day - 4);
  const x = base + 0.35 * octaveNoise(profile.seed ^ 0x7e2d1b4f, ms / 3_600_000, LSR_OCTAVES) - 0.12 * Math.tanh(move / 0.06);
  // Squash into (0.5, 3.5) smoothly around ~1.2–1.6.
  const lo = Math.log(0.5);
  const hi = Math.log(3.5);
  const mid = (lo + hi) / 2;
  const half = (hi - lo) / 2;
  return Math.exp(mid + half * Math.tanh((x - mid) / half));
}

function round(value: number, digits = 6): number {
  return Number(value.toPrecision(digits));
}

export function generateHeatmap(q: HeatmapQuery): Heatmap {
  const { asset, timeframe, lookback } = q;
  const step = TIMEFRAME_MS[timeframe];
  const columns = heatmapColumns(timeframe, lookback);
  const last = Math.floor(q.nowMs / step) * step;
  const first = last - (columns - 1) * step;
  const warmup = Math.min(600, Math.ceil((3 * HALF_LIFE_MS) / step));
  const start = first - warmup * step;
  const total = warmup + columns;

  const candles: Candle[] = new Array(total);
  for (let c = 0; c < total; c++) candles[c] = candleAt(asset, start + c * step, step);

  let low = Infinity;
  let high = -Infinity;
  for (let c = warmup; c < total; c++) {
    low = Math.min(low, candles[c]!.low);
    high = Math.max(high, candles[c]!.high);
  }
  const levels = priceLevels(low * 0.8, high * 1.2);

  const model = profileOf(asset).model;
  // Open interest per unit of volume: BTC carries the most leverage per dollar traded.
  const intensity = model === "btc" ? 1 : model === "eth" ? 0.65 : 0.5;
  const scale = intensity * (q.scope === "exchange" && q.exchange ? derivativesShare(asset, q.exchange) : 1);
  const entries = new Float64Array(total);
  const volume = generateColumns({ endpoint: VOLUME, asset, timeframe, startMs: start, endMs: last });
  const offset = volume.times.length > 0 ? Math.round((volume.times[0]! - start) / step) : total;
  for (let i = 0; i < volume.values.length; i++) entries[offset + i] = volume.values[i]! * ENTRY_RATE * scale;

  const lsr = new Float64Array(total);
  const longShare = new Float64Array(total);
  for (let c = 0; c < total; c++) {
    lsr[c] = topTraderLsr(asset, start + c * step);
    longShare[c] = lsr[c]! / (1 + lsr[c]!);
  }

  const keep = Math.pow(0.5, step / HALF_LIFE_MS);
  const { longs, shorts } = simulateLiquidations({ candles, entries, longShare, keep, levels, firstOutput: warmup });
  let peak = 0;
  // Summed into the longs' rows: no third matrix of temporaries per heatmap.
  const cells = longs;
  for (let i = 0; i < cells.length; i++) {
    const row = cells[i]!;
    const shortRow = shorts[i]!;
    for (let j = 0; j < columns; j++) {
      row[j] = row[j]! + shortRow[j]!;
      if (row[j]! > peak) peak = row[j]!;
    }
  }
  const floor = peak * THRESHOLD;
  // A plain loop, not Array.from(row, fn): that iterates a typed array through iterator results
  // and boxes every value (≈10× the matrix's own size in garbage).
  const z = cells.map((row) => {
    const out: number[] = new Array(columns);
    for (let j = 0; j < columns; j++) out[j] = row[j]! < floor ? 0 : Math.round(row[j]!);
    return out;
  });

  const x: string[] = new Array(columns);
  const df: Heatmap["df"] = new Array(columns);
  const topTraderLsrOut: Heatmap["topTraderLsr"] = new Array(columns);
  for (let j = 0; j < columns; j++) {
    const t = first + j * step;
    const date = isoOf(t);
    x[j] = date;
    const k = candles[warmup + j]!;
    const open = round(k.open);
    const close = round(k.close);
    df[j] = { date, open, high: Math.max(round(k.high), open, close), low: Math.min(round(k.low), open, close), close };
    topTraderLsrOut[j] = { date, value: round(lsr[warmup + j]!, 4) };
  }
  const base = profileOf(asset).base.toUpperCase();
  const venue = q.scope === "exchange" && q.exchange ? q.exchange : "all";
  return {
    asset,
    timeframe,
    lookback,
    scope: q.scope,
    exchange: venue,
    version: isoOf(last),
    priceSource: `${venue === "all" ? "binance" : venue}:${base}USDT:perp`,
    x,
    y: Array.from(levels),
    z,
    df,
    topTraderLsr: topTraderLsrOut,
  };
}
