// The market-event calendar of anchors.json: fee levels of each era, congestion waves, published
// difficulty and hash rate, all-time highs and the highest prints and lowest held closes, dated
// closes between month-ends, weekly closes and their bands, monthly trading ranges, crash-day lows, all-time lows,
// depegs, published totals on all exchanges and dated flows onto and off venues; read per asset on first use.
import { dayOf } from "../levels.js";
import file from "./anchors.json" with { type: "json" };
import type { Points } from "./reference.js";

/** One congestion wave of a fee market, as the file records it. */
interface WaveEntry {
  peak: string;
  usd: number;
  rise: number;
  decay: number;
  what: string;
  sources: number[];
}

export interface Wave {
  peakDay: number;
  /** Mean fee per transaction on the peak day (USD). */
  usd: number;
  /** e-folding days before and after the peak. */
  rise: number;
  decay: number;
}

interface Calendar {
  fees: Record<string, Array<[string, number, number]>>;
  congestion: Record<string, WaveEntry[]>;
  difficulty: Record<string, Array<[string, number, number]>>;
  hashrate: Record<string, Array<[string, number, number]>>;
  highs: Record<string, Array<[string, number, number]>>;
  closes: Record<string, Array<[string, number, number]>>;
  ranges: Record<string, Array<[string, number, number, number]>>;
  lows: Record<string, Array<[string, number, number, string]>>;
  atls?: Record<string, Array<[string, number, number, string]>>;
  depegs: Record<string, Array<[string, number, number]>>;
  ceilings: Record<string, Array<[string, number, number]>>;
  monthHighs: Record<string, Array<[string, number, number]>>;
  floors: Record<string, Array<[string, number, number]>>;
  wraps: Record<string, Array<[string, number, number]>>;
  weeks: Record<string, WeekEntry>;
  peaks: Record<string, Array<[string, number, number, string]>>;
  flows: Record<string, FlowEntry[] | string>;
  reserves: Record<string, Array<[string, number, number]> | string>;
}

/** One dated flow onto (+) or off (-) a venue's wallets, as the file records it. */
interface FlowEntry {
  from: string;
  to: string;
  venue: string;
  native?: number;
  usd?: number;
  what: string;
  sources: number[];
}

/** A dated flow of one venue: `amount` spread evenly over the days [from, to], in native units or USD. */
export interface Flow {
  from: number;
  to: number;
  venue: string;
  amount: number;
  unit: "native" | "usd";
}

/** A coin's weekly closes as the file records them: Sunday closes from `from` on, and each week's band in whole percent. */
interface WeekEntry {
  from: string;
  source: number;
  closes: number[];
  below: number[];
  above: number[];
}

/** Sunday closes of a coin, and the band its daily closes kept inside between two Sundays. */
export interface Weeks {
  /** Day of the first Sunday. */
  from: number;
  /** The Sunday closes (USD), one a week. */
  closes: readonly number[];
  /** Log bounds of the closes of the six days before Sunday k (k ≥ 1). */
  lo: Float64Array;
  hi: Float64Array;
}

const RAW = file as unknown as Calendar;
const feeLevels = new Map<string, Points | undefined>();
const waves = new Map<string, readonly Wave[]>();

/** Dated rows [day, value, source] of a section as points (natural logs), or undefined when it has none for the asset. */
function pointsOf(rows: Array<[string, number, number]> | undefined): Points | undefined {
  if (!Array.isArray(rows)) return undefined;
  return { days: Int32Array.from(rows, ([d]) => dayOf(d)), logs: Float64Array.from(rows, ([, v]) => Math.log(v)) };
}

/** Calm-day fee levels of an asset (USD per transaction), or undefined when the calendar has none. */
export function feeLevelsOf(asset: string): Points | undefined {
  if (!feeLevels.has(asset)) feeLevels.set(asset, pointsOf(RAW.fees[asset]));
  return feeLevels.get(asset);
}

/** Published difficulty right after the retargets the calendar records for a chain, or undefined. */
export function difficultyPointsOf(asset: string): Points | undefined {
  return pointsOf(RAW.difficulty[asset]);
}

/** Published hash rate (EH/s) through the shocks the calendar records for a chain, or undefined. */
export function hashRatePointsOf(asset: string): Points | undefined {
  return pointsOf(RAW.hashrate[asset]);
}

/** Congestion waves of an asset's fee market, by peak day. */
export function wavesOf(asset: string): readonly Wave[] {
  let list = waves.get(asset);
  if (!list) {
    const rows = RAW.congestion[asset];
    list = Array.isArray(rows) ? rows.map((w) => ({ peakDay: dayOf(w.peak), usd: w.usd, rise: w.rise, decay: w.decay })) : [];
    waves.set(asset, list);
  }
  return list;
}

/** All-time highs (intraday USD) a base set, in order, as [day, high]; empty when the calendar has none. */
export function highsOf(base: string): ReadonlyArray<readonly [number, number]> {
  return (RAW.highs[base] ?? []).map(([d, v]) => [dayOf(d), v] as const);
}

/** Dated closes (USD) that shape a base between its month-end anchors, as [day, close]. */
export function closesOf(base: string): ReadonlyArray<readonly [number, number]> {
  return (RAW.closes[base] ?? []).map(([d, v]) => [dayOf(d), v] as const);
}

/** Months a base traded inside a known range: ["YYYY-MM", low, high] (USD). */
export function rangesOf(base: string): ReadonlyArray<readonly [string, number, number]> {
  return (RAW.ranges[base] ?? []).map(([m, lo, hi]) => [m, lo, hi] as const);
}

/** Crash-day lows of a base: [UTC instant "YYYY-MM-DDTHH:MM", lowest print (USD)]. */
export function lowsOf(base: string): ReadonlyArray<readonly [string, number]> {
  return (RAW.lows[base] ?? []).map(([t, v]) => [t, v] as const);
}

/** All-time lows of a base: [UTC instant "YYYY-MM-DDTHH:MM", lowest print (USD), the day it was still the all-time low]. */
export function allTimeLowsOf(base: string): ReadonlyArray<readonly [string, number, string]> {
  return (RAW.atls?.[base] ?? []).map(([t, v, , held]) => [t, v, held] as const);
}

/** Cycle highs of a base: [UTC instant "YYYY-MM-DDTHH:MM", highest print (USD)]. */
export function peaksOf(base: string): ReadonlyArray<readonly [string, number]> {
  return (RAW.peaks?.[base] ?? []).map(([t, v]) => [t, v] as const);
}

/** A stablecoin's known depeg: [UTC instant "YYYY-MM-DDTHH:MM", USD price], or empty. */
export function depegOf(base: string): ReadonlyArray<readonly [string, number]> {
  return (RAW.depegs[base] ?? []).map(([t, v]) => [t, v] as const);
}

const weeks = new Map<string, Weeks | undefined>();

/** A base's weekly closes and bands, or undefined when the calendar has none. */
export function weeksOf(base: string): Weeks | undefined {
  if (!weeks.has(base)) {
    const w = RAW.weeks?.[base];
    let out: Weeks | undefined;
    if (w && typeof w === "object" && Array.isArray(w.closes)) {
      const n = w.closes.length;
      const lo = new Float64Array(n);
      const hi = new Float64Array(n);
      for (let k = 1; k < n; k++) {
        const [a, b] = [w.closes[k - 1]!, w.closes[k]!];
        lo[k] = Math.log(Math.min(a, b) * (1 - (w.below[k] ?? 0) / 100));
        hi[k] = Math.log(Math.max(a, b) * (1 + (w.above[k] ?? 0) / 100));
      }
      out = { from: dayOf(w.from), closes: w.closes, lo, hi };
    }
    weeks.set(base, out);
  }
  return weeks.get(base);
}

/** Highest prints of a coin with month-end closes, as [day, high]: each bounds the days since the row before it. */
export function ceilingRowsOf(base: string): ReadonlyArray<readonly [number, number]> {
  return (RAW.ceilings[base] ?? []).map(([d, v]) => [dayOf(d), v] as const);
}

/** Highest prints of single months: ["YYYY-MM", high] (USD). */
export function monthHighsOf(base: string): ReadonlyArray<readonly [string, number]> {
  return (RAW.monthHighs[base] ?? []).map(([m, v]) => [m, v] as const);
}

/** Lowest closes that held from a day on: [day, low close] (USD). */
export function floorRowsOf(base: string): ReadonlyArray<readonly [number, number]> {
  return (RAW.floors[base] ?? []).map(([d, v]) => [dayOf(d), v] as const);
}

/** A wrapped coin's known discount to its underlying: [UTC instant "YYYY-MM-DDTHH:MM", price in units of the underlying], or empty. */
export function wrapEventOf(asset: string): ReadonlyArray<readonly [string, number]> {
  return (RAW.wraps[asset] ?? []).map(([t, v]) => [t, v] as const);
}

/** Published totals of a coin on all exchange wallets (native units), as [ISO day, total]; empty when the calendar has none. */
export function publishedReservesOf(base: string): ReadonlyArray<readonly [string, number]> {
  const rows = RAW.reserves[base];
  return Array.isArray(rows) ? rows.map(([d, v]) => [d, v] as const) : [];
}

/** Dated flows onto and off the venues' wallets of a coin (its own rows only), in date order. */
export function flowsOf(base: string): readonly Flow[] {
  const rows = RAW.flows[base];
  if (!Array.isArray(rows)) return [];
  return rows
    .map((r): Flow => ({
      from: dayOf(r.from),
      to: dayOf(r.to),
      venue: r.venue,
      amount: r.native ?? r.usd ?? 0,
      unit: r.native === undefined ? "usd" : "native",
    }))
    .sort((a, b) => a.from - b.from);
}
