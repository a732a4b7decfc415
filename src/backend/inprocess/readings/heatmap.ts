// The liquidation heatmap: candles on the asset's price path, new leveraged notional from its
// derivatives volume, the leverage-tier model, and the top-trader long/short ratio.
import {
  DAY_MS,
  endpointById,
  heatmapColumns,
  isVenue,
  type Lookback,
  type Scope,
  type Timeframe,
  TIMEFRAME_MS,
  type Venue,
  venueMarket,
} from "../../../catalog/index.js";
import type { Heatmap } from "../../../catalog/responses.js";
import type { TypedHeatmap } from "../../types.js";
import { heatmapBody } from "../encoders/heatmap-json.js";
import { isoOf } from "../encoders/time-format.js";
import { type Octave, octaveNoise } from "../util/hash.js";
import { dataClock } from "../world/clock.js";
import { candle, dailyLogPrice } from "../world/market/price.js";
import { profileOf } from "../world/profiles.js";
import { derivativesShare, hasSessions } from "../world/shares.js";
import { type CandleRange, liquidationMatrix } from "./liquidation-model.js";
import { generateColumns, inceptionMs } from "./series.js";

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

const LSR_OCTAVES: readonly Octave[] = [
  { period: 24 * 21, amplitude: 0.55 },
  { period: 24 * 4, amplitude: 0.3 },
  { period: 8, amplitude: 0.12 },
  { period: 2, amplitude: 0.05 },
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

/** Exact powers of ten (every one up to 1e22 is a double). */
const POW10 = Float64Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * Number(value.toPrecision(digits)), without the string: the heatmap rounds four prices and a
 * ratio per column, and formatting them was a tenth of its build. value × 10^k is one correctly
 * rounded operation, so its nearest integer is the decimal rounding unless it lies within an
 * error's width of a half (then the string decides), and n / 10^k, another correctly rounded
 * operation, is the double the string would parse to.
 */
export function round(value: number, digits = 6): number {
  if (value > 0 && value < Infinity) {
    const k = digits - 1 - Math.floor(Math.log10(value));
    if (k >= -22 && k <= 22) {
      const x = k >= 0 ? value * POW10[k]! : value / POW10[-k]!;
      const n = Math.round(x);
      // log10 can land one off next to a power of ten: then the scaled value is out of range.
      if (Math.abs(x - Math.floor(x) - 0.5) > 1e-6 && x >= POW10[digits - 1]! && x < POW10[digits]!) {
        return k >= 0 ? n / POW10[k]! : n * POW10[-k]!;
      }
    }
  }
  return Number(value.toPrecision(digits));
}

/** The candles of every column, warm-up included, and the lowest and highest price of the visible ones. */
function candleColumns(
  asset: string,
  start: number,
  step: number,
  total: number,
  warmup: number,
  clock: number,
): { candles: CandleRange & { open: Float64Array }; low: number; high: number } {
  // Columns, not objects: the candles live through the whole build, and the model reads columns.
  const candles = {
    open: new Float64Array(total),
    high: new Float64Array(total),
    low: new Float64Array(total),
    close: new Float64Array(total),
  };
  let low = Infinity;
  let high = -Infinity;
  for (let c = 0; c < total; c++) {
    const t = start + c * step;
    const k = candle(asset, t, Math.min(t + step, clock));
    candles.open[c] = k.open;
    candles.high[c] = k.high;
    candles.low[c] = k.low;
    candles.close[c] = k.close;
    if (c >= warmup) {
      low = Math.min(low, k.low);
      high = Math.max(high, k.high);
    }
  }
  return { candles, low, high };
}

/** New leveraged notional per column: the scope's derivatives volume times the rate positions open at. */
function entryColumns(
  q: HeatmapQuery,
  { start, step, total, last, clock }: { start: number; step: number; total: number; last: number; clock: number },
): Float64Array {
  const { asset, timeframe } = q;
  const model = profileOf(asset).model;
  // Open interest per unit of volume: BTC carries the most leverage per dollar traded.
  const intensity = model === "btc" ? 1 : model === "eth" ? 0.65 : 0.5;
  // One venue's view: its own swap and future volume (CME's only in its session).
  const scopeVenue = q.scope === "exchange" ? q.exchange : undefined;
  const sessions = scopeVenue !== undefined && hasSessions(asset, "volume");
  const scale = intensity * (scopeVenue && !sessions ? derivativesShare(asset, scopeVenue) : 1);
  const entries = new Float64Array(total);
  const volumeQuery = { endpoint: VOLUME, asset, timeframe, startMs: start, endMs: last, nowMs: clock };
  const volume = generateColumns(sessions ? { ...volumeQuery, exchange: scopeVenue, marketType: "swap" } : volumeQuery);
  if (sessions) {
    const future = generateColumns({ ...volumeQuery, exchange: scopeVenue, marketType: "future" }).values;
    for (let i = 0; i < future.length; i++) volume.values[i]! += future[i]!;
  }
  const offset = volume.times.length > 0 ? Math.round((volume.times[0]! - start) / step) : total;
  for (let i = 0; i < volume.values.length; i++) entries[offset + i] = volume.values[i]! * ENTRY_RATE * scale;
  return entries;
}

/** The heatmap as typed arrays: what the service hands on, and what its JSON body is written from. */
export function buildHeatmap(q: HeatmapQuery): TypedHeatmap {
  const { asset, timeframe, lookback } = q;
  const step = TIMEFRAME_MS[timeframe];
  const columns = heatmapColumns(timeframe, lookback);
  // The last column is the bucket "now" falls in: its candle and its new positions stop at now.
  const clock = dataClock(q.nowMs);
  const last = Math.floor((clock - 1) / step) * step;
  // No column before the asset was listed (a young asset's heatmap is shorter than its lookback).
  const listed = Math.ceil(inceptionMs(asset) / step) * step;
  const first = Math.max(last - (columns - 1) * step, listed);
  if (first > last) throw new Error(`${asset} has no market before ${isoOf(listed)}`);
  const visible = Math.round((last - first) / step) + 1;
  const warmup = Math.min(600, Math.ceil((3 * HALF_LIFE_MS) / step), Math.max(0, Math.floor((first - listed) / step)));
  const start = first - warmup * step;
  const total = warmup + visible;

  const { candles, low, high } = candleColumns(asset, start, step, total, warmup, clock);
  const levels = priceLevels(low * 0.8, high * 1.2);

  const entries = entryColumns(q, { start, step, total, last, clock });

  const lsr = new Float64Array(total);
  const longShare = new Float64Array(total);
  for (let c = 0; c < total; c++) {
    lsr[c] = topTraderLsr(asset, start + c * step);
    longShare[c] = lsr[c]! / (1 + lsr[c]!);
  }

  // One matrix, row-major (a level's columns are contiguous, as the body's rows are): longs and
  // shorts summed as the model produces them.
  const keep = Math.pow(0.5, step / HALF_LIFE_MS);
  const { cells, peak } = liquidationMatrix({ candles, entries, longShare, keep, levels, firstOutput: warmup });
  const floor = peak * THRESHOLD;
  for (let k = 0; k < cells.length; k++) cells[k] = cells[k]! < floor ? 0 : Math.round(cells[k]!);

  const times = new Float64Array(visible);
  const open = new Float64Array(visible);
  const highs = new Float64Array(visible);
  const lows = new Float64Array(visible);
  const close = new Float64Array(visible);
  const ratio = new Float64Array(visible);
  for (let j = 0; j < visible; j++) {
    times[j] = first + j * step;
    const c = warmup + j;
    const o = round(candles.open[c]!);
    const cl = round(candles.close[c]!);
    open[j] = o;
    close[j] = cl;
    highs[j] = Math.max(round(candles.high[c]!), o, cl);
    lows[j] = Math.min(round(candles.low[c]!), o, cl);
    ratio[j] = round(lsr[c]!, 4);
  }
  const venue = q.scope === "exchange" && q.exchange ? q.exchange : "all";
  // The candles' market as its venue writes it (Binance's for the all-venue map).
  const market = venueMarket(isVenue(venue) ? venue : "binance", profileOf(asset).base);
  return {
    asset,
    timeframe,
    lookback,
    scope: q.scope,
    exchange: venue,
    version: isoOf(last),
    priceSource: `${venue === "all" ? "binance" : venue}:${market.symbol}:${market.kind}`,
    times,
    levels,
    cells,
    // The candles and the ratio are one per column: they share the columns' times.
    candles: { times, open, high: highs, low: lows, close },
    lsr: { times, values: ratio },
  };
}

/** The heatmap's JSON body (objects): for readers of the body; the service writes its bytes directly. */
export function generateHeatmap(q: HeatmapQuery): Heatmap {
  return heatmapBody(buildHeatmap(q));
}
