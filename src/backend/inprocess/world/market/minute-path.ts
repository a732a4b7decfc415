// The minutes of one day of the fine price path: a minute-by-minute Brownian bridge from the
// previous close to the day's close (a coin's own bridge plus its loading on BTC's bridge of the
// same day, so hours move together as days do), with the day's wicks, capitulation low, depeg and
// ceiling. intraday.ts reads every candle from these minutes.
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../../../catalog/index.js";
import { hash2 } from "../../util/hash.js";
import { Memo } from "../../util/memo.js";
import { fillMinuteWalk, type MinuteFactor } from "./factor.js";

export { HOUR_MS, MINUTE_MS };

export const MINUTES = 1440;

/** What the intraday path needs of an asset: its daily log closes, volatility, seed and loading on BTC. */
export interface IntradaySource {
  key: string;
  seed: number;
  /** Total daily log volatility (sizes the wicks). */
  sigma: number;
  /** Daily log volatility of the coin's own noise (its minute noise is noise/√1440; 0: none). */
  noise: number;
  /** Loading on the market factor's minute bridge (0: none). */
  beta: number;
  /** Loading on the alt factor's minute bridge (daily log volatility; 0: none). */
  alt: number;
  altFactor: MinuteFactor;
  /** Loading on a sector factor's minute bridge (daily log volatility) and that factor. */
  sector?: { loading: number; factor: MinuteFactor } | undefined;
  /** Scale of the day's bridges against the daily volatility (1: a day's own moves as large as a day's return). */
  amplitude: number;
  factor: MinuteFactor;
  dailyLog(day: number): number;
  /** An event inside days (a stablecoin's depeg): its log price offset at an instant, 0 outside. */
  shock?: { covers(day: number): boolean; log(ms: number): number } | undefined;
  /** Log of the highest price the market printed over the span holding `day` (Infinity: none known). */
  ceiling(day: number): number;
  /** The day's known lowest print (a crash's capitulation wick): its minute of the day and log price. */
  low?: ((day: number) => { minute: number; log: number } | undefined) | undefined;
  /** The day's known highest print (a cycle's top): its minute of the day and log price. */
  peak?: ((day: number) => { minute: number; log: number } | undefined) | undefined;
}

/** Half-width of a capitulation wick (minutes): the path falls into the known low and recovers within it. */
const WICK_MINUTES = 90;
/**
 * A capitulation low is a wick: the path's own bottom (a minute boundary, so a candle's open or
 * close) sits this far above it (log, ~0.6 %), and the minute starting there prints the low.
 */
const CAPITULATION_WICK = 0.006;
/** Intraday excursions per daily sigma of the day's own move, once that exceeds the usual amplitude. */
const MOVE_SWING = 0.6;

/** The minute of the day whose candle prints the day's known low, or -1 on days without one. */
export function capitulationMinute(src: IntradaySource, day: number): number {
  const low = src.low?.(day);
  return low ? Math.min(MINUTES - 1, Math.max(1, low.minute)) : -1;
}

/** The minute of the day whose candle prints the day's known high, or -1 on days without one. */
export function peakMinute(src: IntradaySource, day: number): number {
  const peak = src.peak?.(day);
  return peak ? Math.min(MINUTES - 1, Math.max(1, peak.minute)) : -1;
}

/** The day's known high (USD), where wicks stop; Infinity on days without one. */
export function topOf(src: IntradaySource, day: number): number {
  const peak = src.peak?.(day);
  return peak ? Math.exp(peak.log) : Infinity;
}

/** Minute log prices of a day (1,441 boundaries) and minute highs/lows (1,440 each, USD). */
export interface MinuteDay {
  logs: Float64Array;
  highs: Float64Array;
  lows: Float64Array;
}

const minuteDays = new Memo<string, MinuteDay>(96);

export function minuteDay(src: IntradaySource, day: number): MinuteDay {
  return minuteDays.getOr(`${src.key}|${day}`, () => buildMinuteDay(src, day));
}

function buildMinuteDay(src: IntradaySource, day: number): MinuteDay {
  const md = { logs: new Float64Array(MINUTES + 1), highs: new Float64Array(MINUTES), lows: new Float64Array(MINUTES) };
  fillMinuteDay(src, day, md);
  return md;
}

/** Scratch minutes for summaries: a chunk of days is read once, so its minutes need not be kept. */
export const scratch = { logs: new Float64Array(MINUTES + 1) };

function fillMinuteDay(src: IntradaySource, day: number, { logs, highs, lows }: MinuteDay): void {
  fillMinuteLogs(src, day, logs);
  const base = day * MINUTES;
  const wick = wickScale(src);
  const seed = src.seed ^ 0x48c13d3b;
  const cap = Math.min(Math.exp(src.ceiling(day)), topOf(src, day));
  const floor = floorOf(src, day);
  let prev = Math.exp(logs[0]!);
  for (let m = 0; m < MINUTES; m++) {
    const next = Math.exp(logs[m + 1]!);
    const h = hash2(seed, base + m);
    const up = h >>> 16;
    const down = h & 0xffff;
    // A wick stops at the ceiling (the minute path itself stays under it).
    highs[m] = Math.min(cap, Math.max(prev, next) * (1 + wick * up * up));
    lows[m] = Math.max(floor, Math.min(prev, next) * (1 - wick * down * down));
    prev = next;
  }
  const at = capitulationMinute(src, day);
  if (at >= 0) lows[at] = floor;
  const top = peakMinute(src, day);
  if (top >= 0) highs[top] = cap;
}

/** The day's known low (USD), where wicks stop; 0 on days without one. */
export function floorOf(src: IntradaySource, day: number): number {
  const low = src.low?.(day);
  return low ? Math.exp(low.log) : 0;
}

/**
 * Wicks beyond the minute's open and close: one hash gives both (two 16-bit halves, squared so
 * most wicks are short and a few long, up to ~0.8σ of a minute): the scale of a half squared.
 */
export function wickScale(src: IntradaySource): number {
  return (0.8 * (src.sigma / Math.sqrt(MINUTES))) / 65536 ** 2;
}

/**
 * The minute log prices of a day: 1,441 boundaries, from one daily close to the next, reflected
 * below the day's ceiling (both closes are under it, so the ends stay where they are).
 */
export function fillMinuteLogs(src: IntradaySource, day: number, logs: Float64Array): void {
  const a = src.dailyLog(day - 1);
  const b = src.dailyLog(day);
  // A day that moves far swings far inside too (volatility clusters): past ~1.7 daily sigmas the
  // day's excursions grow with its move, so a -37 % day has hours of -10 % and rebounds, not 24
  // steps of -2 %.
  const amplitude = src.amplitude * Math.max(1, (MOVE_SWING * Math.abs(b - a)) / src.sigma);
  const beta = src.beta * amplitude;
  // Both walks are bridged (their straight line to the day's end taken off), so they add nothing
  // at either end: the day still runs from one daily close to the next.
  const market = beta ? src.factor.walk(day) : undefined;
  const marketEnd = market ? market[MINUTES]! : 0;
  const alt = src.alt * amplitude;
  const alts = alt ? src.altFactor.walk(day) : undefined;
  const altEnd = alts ? alts[MINUTES]! : 0;
  const sector = src.sector ? src.sector.loading * amplitude : 0;
  const sectors = sector ? src.sector!.factor.walk(day) : undefined;
  const sectorEnd = sectors ? sectors[MINUTES]! : 0;
  let own = 0;
  if (src.noise) {
    fillMinuteWalk(logs, src.seed ^ 0x1b873593, (amplitude * src.noise) / Math.sqrt(MINUTES), day);
    own = logs[MINUTES]!;
  } else logs.fill(0);
  for (let m = 0; m <= MINUTES; m++) {
    const f = m / MINUTES;
    let v = a + (b - a) * f + logs[m]! - f * own;
    if (market) v += beta * (market[m]! - f * marketEnd);
    if (alts) v += alt * (alts[m]! - f * altEnd);
    if (sectors) v += sector * (sectors[m]! - f * sectorEnd);
    logs[m] = v;
  }
  const { shock } = src;
  if (shock?.covers(day)) {
    // The closes already hold the event at the day's ends: add its shape inside the day.
    const start = day * DAY_MS;
    const e0 = shock.log(start);
    const e1 = shock.log(start + DAY_MS);
    for (let m = 1; m < MINUTES; m++) logs[m] = logs[m]! + shock.log(start + m * MINUTE_MS) - (e0 + ((e1 - e0) * m) / MINUTES);
  }
  const low = src.low?.(day);
  if (low) {
    // A V into the known low at its minute (0 at both ends of the V), bottoming a wick above it;
    // no minute below it.
    const at = capitulationMinute(src, day);
    const depth = low.log + CAPITULATION_WICK - logs[at]!;
    const width = Math.min(WICK_MINUTES, at, MINUTES - at);
    if (depth < 0) for (let m = at - width + 1; m < at + width; m++) logs[m] = logs[m]! + depth * (1 - Math.abs(m - at) / width);
    for (let m = 1; m < MINUTES; m++) if (logs[m]! < low.log) logs[m] = 2 * low.log - logs[m]!;
  }
  const peak = src.peak?.(day);
  if (peak) {
    // An inverted V up to the known high at its minute, topping a wick under it; no minute above it.
    const at = peakMinute(src, day);
    const height = peak.log - CAPITULATION_WICK - logs[at]!;
    const width = Math.min(WICK_MINUTES, at, MINUTES - at);
    if (height > 0) for (let m = at - width + 1; m < at + width; m++) logs[m] = logs[m]! + height * (1 - Math.abs(m - at) / width);
    for (let m = 1; m < MINUTES; m++) if (logs[m]! > peak.log) logs[m] = 2 * peak.log - logs[m]!;
  }
  const ceiling = src.ceiling(day);
  if (ceiling !== Infinity) for (let m = 1; m < MINUTES; m++) if (logs[m]! > ceiling) logs[m] = 2 * ceiling - logs[m]!;
  // Both ends exactly the daily closes, whatever the rounding of the sums above.
  logs[0] = a;
  logs[MINUTES] = b;
}
