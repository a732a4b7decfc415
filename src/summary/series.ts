// Series digest: the statistics and a shape-preserving sample of a time series, of bounded size
// whatever the range.
import { z } from "zod";
import { lttb } from "./lttb.js";

export const DEFAULT_MAX_POINTS = 120;
export const MAX_POINTS_LIMIT = 5_000;
/** Fewer cannot hold first, last, min and max together. */
export const MIN_POINTS = 4;
const LARGEST_GAPS = 3;

const timedValueSchema = z.object({ time: z.string(), value: z.number() });
export type TimedValue = z.infer<typeof timedValueSchema>;

export const seriesDigestSchema = z.object({
  count: z.number().int().describe("finite points digested"),
  nonFinite: z.number().int().describe("points skipped because their time or value was not a finite number"),
  timeframeMs: z.number().describe("bucket size used for gap detection"),
  first: timedValueSchema.nullable(),
  last: timedValueSchema.nullable(),
  min: timedValueSchema.nullable().describe("smallest value, at its first occurrence"),
  max: timedValueSchema.nullable().describe("largest value, at its first occurrence"),
  mean: z.number().nullable(),
  stdev: z.number().nullable().describe("population standard deviation"),
  changePercent: z.number().nullable().describe("(last − first) / |first| × 100; null when first is 0"),
  zScoreLast: z.number().nullable().describe("(last − mean) / stdev; null when stdev is 0 or fewer than 2 points"),
  maxDrawdown: z
    .object({
      percent: z.number().describe("largest peak-to-trough decline, ≤ 0, relative to a positive peak"),
      peak: timedValueSchema,
      trough: timedValueSchema,
    })
    .nullable()
    .describe("null when no point is positive"),
  gaps: z.object({
    missingBuckets: z.number().int().describe("buckets absent between consecutive finite points"),
    runs: z.number().int().describe("separate stretches of missing buckets"),
    largest: z.array(z.object({ from: z.string(), to: z.string(), missing: z.number().int() })).describe("largest runs, first and last missing bucket"),
  }),
  points: z.array(timedValueSchema),
  sampling: z.object({
    returned: z.number().int(),
    total: z.number().int(),
    method: z.enum(["all", "lttb"]).describe("all points, or LTTB keeping first/last/min/max"),
  }),
});
export type SeriesDigest = z.infer<typeof seriesDigestSchema>;

export interface SeriesDigestOptions {
  /** Bucket size in ms (gaps are counted in these buckets); ≤ 0 disables gap detection. */
  timeframeMs: number;
  /** Points to return at most: default 120, clamped to [4, 5000]. */
  maxPoints?: number;
}

/** Clamp a requested point budget to what the digest supports. */
export function clampMaxPoints(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return DEFAULT_MAX_POINTS;
  return Math.min(MAX_POINTS_LIMIT, Math.max(MIN_POINTS, Math.floor(requested)));
}

/** Digest of a series given as epoch-ms times (ascending) and values; non-finite pairs are skipped and counted. */
export function digestSeries(times: ArrayLike<number>, values: ArrayLike<number>, opts: SeriesDigestOptions): SeriesDigest {
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
  const nonFinite = Math.max(times.length, values.length) - count;
  const timeframeMs = Number.isFinite(opts.timeframeMs) ? opts.timeframeMs : 0;
  const maxPoints = clampMaxPoints(opts.maxPoints);
  // `+ 0` turns -0 into 0, which is what JSON would make of it anyway.
  const at = (i: number): TimedValue => ({ time: new Date(t[i]!).toISOString(), value: v[i]! + 0 });

  if (count === 0) {
    return {
      count, nonFinite, timeframeMs, first: null, last: null, min: null, max: null, mean: null, stdev: null,
      changePercent: null, zScoreLast: null, maxDrawdown: null, gaps: { missingBuckets: 0, runs: 0, largest: [] },
      points: [], sampling: { returned: 0, total: 0, method: "all" },
    };
  }

  const { minIndex, maxIndex, mean, stdev } = moments(v, count);
  const first = v[0]!;
  const last = v[count - 1]!;
  const indices = count <= maxPoints ? null : lttb(t.subarray(0, count), v.subarray(0, count), maxPoints);
  const points = indices ? indices.map(at) : Array.from({ length: count }, (_, i) => at(i));
  const drawdown = maxDrawdown(v, count);
  return {
    count,
    nonFinite,
    timeframeMs,
    first: at(0),
    last: at(count - 1),
    min: at(minIndex),
    max: at(maxIndex),
    mean: finiteOrNull(mean),
    stdev: finiteOrNull(stdev),
    changePercent: first === 0 ? null : finiteOrNull(((last - first) / Math.abs(first)) * 100),
    zScoreLast: count < 2 || !(stdev > 0) ? null : finiteOrNull((last - mean) / stdev),
    // A denormal peak can turn the ratio infinite; such a percentage is not reportable.
    maxDrawdown: drawdown && Number.isFinite(drawdown.percent) ? { percent: drawdown.percent + 0, peak: at(drawdown.peak), trough: at(drawdown.trough) } : null,
    gaps: findGaps(t, count, timeframeMs),
    points,
    sampling: { returned: points.length, total: count, method: indices ? "lttb" : "all" },
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
