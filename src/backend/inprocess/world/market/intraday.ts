// The one fine price path as candles: every candle at every timeframe is read from the minutes of
// minute-path.ts (hours and days are memoized maxima and minima of them), so a day's OHLC is
// exactly its hours' OHLC, an hour's exactly its minutes'. A candle that is still open stops at "now".
import { DAY_MS } from "../../../../catalog/index.js";
import { hash2 } from "../../util/hash.js";
import { Memo } from "../../util/memo.js";
import {
  capitulationMinute,
  fillMinuteLogs,
  floorOf,
  HOUR_MS,
  type IntradaySource,
  MINUTE_MS,
  minuteDay,
  MINUTES,
  peakMinute,
  scratch,
  topOf,
  wickScale,
} from "./minute-path.js";

export type { IntradaySource } from "./minute-path.js";

/** The hour's exact high and low, written by `exactExtremes`. */
const extremes = new Float64Array(2);

/**
 * The exact high and low of an hour's minutes (the hour's first minute at `first` of the day's logs,
 * `start` of the day's minute numbers), evaluated only for the minutes whose keys (keyHi, keyLo) reach
 * `hiFrom` or `loTo`: as fillMinuteDay evaluates them (the same operations, so the same bits).
 */
function exactExtremes(logs: Float64Array, seed: number, start: number, first: number, wick: number, hiFrom: number, loTo: number): void {
  let hi = -Infinity;
  let lo = Infinity;
  for (let j = 0; j < 60; j++) {
    const takeHi = keyHi[j]! >= hiFrom;
    const takeLo = keyLo[j]! <= loTo;
    if (!takeHi && !takeLo) continue;
    const m = first + j;
    const x = hash2(seed, start + j);
    const prev = Math.exp(logs[m]!);
    const next = Math.exp(logs[m + 1]!);
    if (takeHi) {
      const up = x >>> 16;
      const v = Math.max(prev, next) * (1 + wick * up * up);
      if (v > hi) hi = v;
    }
    if (takeLo) {
      const down = x & 0xffff;
      const v = Math.min(prev, next) * (1 - wick * down * down);
      if (v < lo) lo = v;
    }
  }
  extremes[0] = hi;
  extremes[1] = lo;
}

/** Per day: 25 hour-boundary prices, 24 hour highs, 24 hour lows, the day's high and low. */
const SUMMARY = 75;
const CHUNK = 32;
const summaries = new Memo<string, Float64Array>(512);

function summaryChunk(src: IntradaySource, chunk: number): Float64Array {
  return summaries.getOr(`${src.key}|${chunk}`, () => {
    const out = new Float64Array(CHUNK * SUMMARY);
    const wick = wickScale(src);
    const seed = src.seed ^ 0x48c13d3b;
    // A minute's high in logs is max(open, close) + log(1 + x), x = wick·up² ≤ xMax; taking x for
    // the log errs by less than x²/2, so only minutes whose approximate log high is within xMax² of
    // the hour's best can hold its high. Those few are evaluated exactly as fillMinuteDay does (the
    // same operations, so the same bits): one exp per candidate instead of one per minute.
    const xMax = wick * 65535 * 65535;
    const tol = xMax * xMax + 1e-12;
    const logs = scratch.logs;
    for (let k = 0; k < CHUNK; k++) {
      const day = chunk * CHUNK + k;
      fillMinuteLogs(src, day, logs);
      const cap = Math.min(Math.exp(src.ceiling(day)), topOf(src, day));
      const floor = floorOf(src, day);
      const at = capitulationMinute(src, day);
      const top = peakMinute(src, day);
      const base = day * MINUTES;
      const o = k * SUMMARY;
      let dayHigh = -Infinity;
      let dayLow = Infinity;
      for (let h = 0; h < 24; h++) {
        out[o + h] = Math.exp(logs[h * 60]!);
        let bestHi = -Infinity;
        let bestLo = Infinity;
        for (let m = h * 60; m < h * 60 + 60; m++) {
          const x = hash2(seed, base + m);
          const l0 = logs[m]!;
          const l1 = logs[m + 1]!;
          const kHi = (l0 > l1 ? l0 : l1) + wick * (x >>> 16) * (x >>> 16);
          const kLo = (l0 < l1 ? l0 : l1) - wick * (x & 0xffff) * (x & 0xffff);
          keyHi[m - h * 60] = kHi;
          keyLo[m - h * 60] = kLo;
          if (kHi > bestHi) bestHi = kHi;
          if (kLo < bestLo) bestLo = kLo;
        }
        exactExtremes(logs, seed, base + h * 60, h * 60, wick, bestHi - tol, bestLo + tol);
        let hi = extremes[0]!;
        let lo = extremes[1]!;
        // The clipped maximum is the maximum of the clipped wicks, as fillMinuteDay clips them.
        if (hi > cap) hi = cap;
        if (lo < floor) lo = floor;
        // The hour holding a capitulation minute prints the day's known low (its wick).
        if (at >= h * 60 && at < h * 60 + 60) lo = floor;
        // The hour holding a known high's minute prints it.
        if (top >= h * 60 && top < h * 60 + 60) hi = cap;
        out[o + 25 + h] = hi;
        out[o + 49 + h] = lo;
        if (hi > dayHigh) dayHigh = hi;
        if (lo < dayLow) dayLow = lo;
      }
      out[o + 24] = Math.exp(logs[MINUTES]!);
      out[o + 73] = dayHigh;
      out[o + 74] = dayLow;
    }
    return out;
  });
}

const keyHi = new Float64Array(60);
const keyLo = new Float64Array(60);

let lastKey = "";
let lastChunkIndex = NaN;
let lastChunk: Float64Array = new Float64Array(0);

/** Offset of the day's summary row in `lastChunk` (which it makes current). */
function summary(src: IntradaySource, day: number): number {
  const chunk = Math.floor(day / CHUNK);
  if (chunk !== lastChunkIndex || src.key !== lastKey) {
    lastChunk = summaryChunk(src, chunk);
    lastChunkIndex = chunk;
    lastKey = src.key;
  }
  return (day - chunk * CHUNK) * SUMMARY;
}

/** Price at a minute boundary (epoch ms, a multiple of one minute). */
export function priceAtMinute(src: IntradaySource, ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  const minute = Math.round((ms - day * DAY_MS) / MINUTE_MS);
  if (minute === 0) return Math.exp(src.dailyLog(day - 1));
  if (minute % 60 === 0) {
    const o = summary(src, day);
    return lastChunk[o + minute / 60]!;
  }
  return Math.exp(minuteDay(src, day).logs[minute]!);
}

/** Price at any instant: log-linear inside the minute. */
export function priceAtInstant(src: IntradaySource, ms: number): number {
  const start = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
  if (start === ms) return priceAtMinute(src, ms);
  const f = (ms - start) / MINUTE_MS;
  return Math.exp((1 - f) * Math.log(priceAtMinute(src, start)) + f * Math.log(priceAtMinute(src, start + MINUTE_MS)));
}

export interface Ohlc {
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * The candle of [startMs, endMs) (minute-aligned): open and close are the path at its ends, high
 * and low the extremes of its minute candles, read through whole days and hours where possible.
 */
export function candleOf(src: IntradaySource, startMs: number, endMs: number): Ohlc {
  const open = priceAtMinute(src, startMs);
  const close = priceAtMinute(src, endMs);
  let high = -Infinity;
  let low = Infinity;
  let t = startMs;
  while (t < endMs) {
    const day = Math.floor(t / DAY_MS);
    const intoDay = t - day * DAY_MS;
    if (intoDay === 0 && t + DAY_MS <= endMs) {
      const o = summary(src, day);
      if (lastChunk[o + 73]! > high) high = lastChunk[o + 73]!;
      if (lastChunk[o + 74]! < low) low = lastChunk[o + 74]!;
      t += DAY_MS;
    } else if (intoDay % HOUR_MS === 0 && t + HOUR_MS <= endMs) {
      // Whole hours up to the next day boundary or the end, in one pass over the summary row.
      const o = summary(src, day);
      let h = intoDay / HOUR_MS;
      const stop = Math.min(24, h + Math.floor((endMs - t) / HOUR_MS));
      for (; h < stop; h++) {
        if (lastChunk[o + 25 + h]! > high) high = lastChunk[o + 25 + h]!;
        if (lastChunk[o + 49 + h]! < low) low = lastChunk[o + 49 + h]!;
        t += HOUR_MS;
      }
    } else {
      const md = minuteDay(src, day);
      const first = intoDay / MINUTE_MS;
      const stop = Math.min(MINUTES, first + (endMs - t) / MINUTE_MS);
      // Up to the next hour boundary (or the end): whole hours are read from the summary.
      const until = Math.min(stop, intoDay % HOUR_MS === 0 ? stop : (Math.floor(first / 60) + 1) * 60);
      for (let m = first; m < until; m++) {
        if (md.highs[m]! > high) high = md.highs[m]!;
        if (md.lows[m]! < low) low = md.lows[m]!;
      }
      t += (until - first) * MINUTE_MS;
    }
  }
  return { open, high, low, close };
}
