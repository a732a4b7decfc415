// Series digest: the statistics and a shape-preserving sample of a time series, of bounded size
// whatever the range.
import type { SeriesNature } from "../../catalog/index.js";
import { isDaily } from "../format/format.js";
import { lttb } from "./lttb.js";
import { changeOf, flowSummary, hasDrawdown, positionOf, signFlips, type WindowChange, windowChanges } from "./nature.js";
import { DEFAULT_MAX_POINTS, defaultPointCount } from "./point-budget.js";
import { type Coverage, coverageOf } from "./range-coverage.js";
import type { SeriesDigest, TimedValue } from "./series-schema.js";

export { seriesDigestSchema, type SeriesDigest, type TimedValue } from "./series-schema.js";

export { DEFAULT_MAX_POINTS } from "./point-budget.js";
export const MAX_POINTS_LIMIT = 5_000;
/** Fewer cannot hold first, last, min and max together. */
export const MIN_POINTS = 4;
const LARGEST_GAPS = 3;

export interface SeriesDigestOptions {
  /** Bucket size in ms (gaps are counted in these buckets); ≤ 0 disables gap detection. */
  timeframeMs: number;
  /** Points to return at most, clamped to [4, 5000]; by default up to 120, fewer where points cost more tokens. */
  maxPoints?: number;
  /** What the values are (default `level`): decides change, drawdown, flow sums and windows. */
  nature?: SeriesNature;
  /** The asked range (epoch ms), when the request named it. */
  requestedFromMs?: number;
  requestedToMs?: number;
  /** The series' whole history and the service's "now", when the backend knows them. */
  extent?: { firstMs: number; lastMs: number };
  asOfMs?: number;
  /** Length of the last bucket when it is not the timeframe (calendar months). */
  lastBucketMs?: number;
  /** Coverage computed on the series before re-bucketing (overrides the one computed here). */
  coverage?: Coverage;
  /** Windows measured on the series before re-bucketing (a calendar bucket is not a trailing window). */
  windows?: WindowChange[];
  /** How the series was re-bucketed, reported as is. */
  resample?: SeriesDigest["resample"];
}

/** Clamp a requested point budget to what the digest supports. */
export function clampMaxPoints(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return DEFAULT_MAX_POINTS;
  return Math.min(MAX_POINTS_LIMIT, Math.max(MIN_POINTS, Math.floor(requested)));
}

/** Digest of a series given as epoch-ms times (ascending) and values; non-finite pairs are skipped and counted. */
export function digestSeries(times: ArrayLike<number>, values: ArrayLike<number>, opts: SeriesDigestOptions): SeriesDigest {
  const { t, v, count } = finitePairs(times, values);
  const timeframeMs = Number.isFinite(opts.timeframeMs) ? opts.timeframeMs : 0;
  const nature = opts.nature ?? "level";
  const coverage =
    opts.coverage ??
    coverageOf({
      dataFromMs: count ? t[0]! : NaN,
      dataToMs: count ? t[count - 1]! : NaN,
      timeframeMs,
      requestedFromMs: opts.requestedFromMs,
      requestedToMs: opts.requestedToMs,
      extent: opts.extent,
      asOfMs: opts.asOfMs,
      lastBucketMs: opts.lastBucketMs,
    });
  const base = { count, nonFinite: Math.max(times.length, values.length) - count, timeframeMs, nature, coverage };
  const resample = opts.resample && { resample: opts.resample };
  if (count === 0) return { ...base, ...NO_STATISTICS, ...resample, points: [], sampling: { returned: 0, total: 0, method: "all" } };

  // `+ 0` turns -0 into 0, which is what JSON would make of it anyway.
  const at = (i: number): TimedValue => ({ time: new Date(t[i]!).toISOString(), value: v[i]! + 0 });
  const maxPoints =
    opts.maxPoints === undefined
      ? defaultPointCount(v, count, isDaily(timeframeMs, t[0]!) ? "day" : "minute", t[count - 1]! - t[0]!)
      : clampMaxPoints(opts.maxPoints);
  const indices = count <= maxPoints ? null : lttb(t.subarray(0, count), v.subarray(0, count), maxPoints);
  const points = indices ? indices.map(at) : Array.from({ length: count }, (_, i) => at(i));
  return {
    ...base,
    ...statistics(t, v, count, nature, coverage.partialLastAsOf !== null, at),
    windows: opts.windows ?? windowChanges(t, v, nature, timeframeMs, statisticCount(nature, coverage.partialLastAsOf !== null, count)),
    gaps: findGaps(t, count, timeframeMs),
    ...resample,
    points,
    sampling: { returned: points.length, total: count, method: indices ? "lttb" : "all" },
  };
}

/** The pairs whose value is finite and whose time a Date can hold, packed at the front of two arrays. */
function finitePairs(times: ArrayLike<number>, values: ArrayLike<number>): { t: Float64Array; v: Float64Array; count: number } {
  const n = Math.min(times.length, values.length);
  const t = new Float64Array(n);
  const v = new Float64Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const ti = times[i]!;
    const vi = values[i]!;
    // ±8.64e15 ms is the range a Date (and so an ISO time) can hold.
    if (Number.isFinite(vi) && Math.abs(ti) <= 8.64e15) {
      t[count] = ti;
      v[count] = vi;
      count++;
    }
  }
  return { t, v, count };
}

type Statistics = Omit<
  SeriesDigest,
  "count" | "nonFinite" | "timeframeMs" | "nature" | "coverage" | "windows" | "gaps" | "resample" | "points" | "sampling"
>;

const NO_STATISTICS: Statistics & Pick<SeriesDigest, "windows" | "gaps"> = {
  first: null,
  last: null,
  min: null,
  max: null,
  mean: null,
  stdev: null,
  changePercent: null,
  zScoreLast: null,
  maxDrawdown: null,
  change: null,
  flow: null,
  signFlips: null,
  windows: [],
  position: null,
  gaps: { missingBuckets: 0, runs: 0, largest: [] },
  partialLast: null,
};

/**
 * How many leading points the statistics read: a flow's bucket still filling holds minutes of data,
 * not a bucket's, so it is named apart and left out of every statistic (first, last, extremes, sum,
 * mean, position and windows).
 */
function statisticCount(nature: SeriesNature, partialLast: boolean, count: number): number {
  return nature === "flow" && partialLast && count >= 2 ? count - 1 : count;
}

/** First, last, extremes, moments and the statistics of the series' nature, over its first `stat` points. */
function statistics(
  t: Float64Array,
  v: Float64Array,
  count: number,
  nature: SeriesNature,
  partialLast: boolean,
  at: (i: number) => TimedValue,
): Statistics {
  const stat = statisticCount(nature, partialLast, count);
  const { minIndex, maxIndex, mean, stdev } = moments(v, stat);
  const last = v[stat - 1]!;
  const drawdown = hasDrawdown(nature) ? maxDrawdown(v, stat) : null;
  const change = changeOf(nature, v[0]!, last);
  const flow = nature === "flow" ? flowSummary(v, stat) : null;
  const flips = nature === "signed" ? signFlips(v, stat) : null;
  return {
    first: at(0),
    last: at(stat - 1),
    min: at(minIndex),
    max: at(maxIndex),
    mean: finiteOrNull(mean),
    stdev: finiteOrNull(stdev),
    changePercent: hasDrawdown(nature) ? change.percent : null,
    zScoreLast: stat < 2 || !(stdev > 0) ? null : finiteOrNull((last - mean) / stdev),
    // A denormal peak can turn the ratio infinite; such a percentage is not reportable.
    maxDrawdown:
      drawdown && Number.isFinite(drawdown.percent)
        ? { percent: drawdown.percent + 0, peak: at(drawdown.peak), trough: at(drawdown.trough) }
        : null,
    change: nature === "flow" || !Number.isFinite(change.absolute) ? null : change,
    flow: flow && Number.isFinite(flow.sum) ? { sum: flow.sum + 0, meanPerBucket: flow.mean + 0, peak: at(flow.peakIndex) } : null,
    signFlips: flips && { count: flips.flips, last: flips.lastIndex === null ? null : at(flips.lastIndex) },
    position: positionOf(t, v, nature, stat),
    partialLast: stat < count ? at(count - 1) : null,
  };
}

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x + 0 : null;
}

/** Extremes (first occurrences), mean and population stdev; a constant series has stdev exactly 0. */
export function moments(v: ArrayLike<number>, count: number): { minIndex: number; maxIndex: number; mean: number; stdev: number } {
  let minIndex = 0;
  let maxIndex = 0;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const x = v[i]!;
    sum += x;
    if (x < v[minIndex]!) minIndex = i;
    if (x > v[maxIndex]!) maxIndex = i;
  }
  const lo = v[minIndex]!;
  const hi = v[maxIndex]!;
  // Summing a constant can drift by an ulp; pin the mean so the stdev (and z-score) stay exact.
  if (lo === hi) return { minIndex, maxIndex, mean: lo, stdev: 0 };
  // Near ±1e308 the plain sum overflows; a running mean cannot.
  const mean = Math.min(hi, Math.max(lo, Number.isFinite(sum) ? sum / count : runningMean(v, count)));
  let squares = 0;
  for (let i = 0; i < count; i++) {
    const d = v[i]! - mean;
    squares += d * d;
  }
  return { minIndex, maxIndex, mean, stdev: Math.sqrt(squares / count) };
}

function runningMean(v: ArrayLike<number>, count: number): number {
  let m = 0;
  for (let i = 0; i < count; i++) m += (v[i]! - m) / (i + 1);
  return m;
}

/**
 * Largest decline from a running positive peak, in percent (≤ 0), with the indices of that peak
 * and trough; null when no value is positive (a percentage of a non-positive peak means nothing).
 */
export function maxDrawdown(v: ArrayLike<number>, count: number): { percent: number; peak: number; trough: number } | null {
  let peak = -1;
  let best: { percent: number; peak: number; trough: number } | null = null;
  for (let i = 0; i < count; i++) {
    const x = v[i]!;
    if (x > 0 && (peak < 0 || x > v[peak]!)) {
      peak = i;
      if (!best) best = { percent: 0, peak: i, trough: i };
      continue;
    }
    if (peak < 0) continue;
    const percent = ((x - v[peak]!) / v[peak]!) * 100;
    if (percent < best!.percent) best = { percent, peak, trough: i };
  }
  return best;
}

/** Missing buckets between consecutive times: total, runs, and the largest few runs. */
export function findGaps(t: ArrayLike<number>, count: number, timeframeMs: number): SeriesDigest["gaps"] {
  const none = { missingBuckets: 0, runs: 0, largest: [] };
  if (!(timeframeMs > 0) || count < 2) return none;
  let missingBuckets = 0;
  let runs = 0;
  const top: Array<{ after: number; missing: number }> = [];
  for (let i = 1; i < count; i++) {
    const step = t[i]! - t[i - 1]!;
    // Half a bucket of tolerance absorbs month-end or DST-like jitter in upstream timestamps.
    if (step < 1.5 * timeframeMs) continue;
    const missing = Math.round(step / timeframeMs) - 1;
    missingBuckets += missing;
    runs++;
    if (top.length < LARGEST_GAPS || missing > top[top.length - 1]!.missing) {
      top.push({ after: i - 1, missing });
      top.sort((a, b) => b.missing - a.missing || a.after - b.after);
      if (top.length > LARGEST_GAPS) top.pop();
    }
  }
  const largest = top.map(({ after, missing }) => ({
    from: new Date(t[after]! + timeframeMs).toISOString(),
    to: new Date(t[after]! + missing * timeframeMs).toISOString(),
    missing,
  }));
  return { missingBuckets, runs, largest };
}
