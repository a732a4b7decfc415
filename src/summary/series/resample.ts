// Calendar re-bucketing of a series into UTC weeks (starting Monday) or calendar months: flows are
// summed, every other nature keeps the bucket's last value, and a bucket the data does not fill
// (at either end, or before "now") is marked partial. Only the points are re-bucketed.
import { DAY_MS } from "../../catalog/index.js";
import type { SeriesNature } from "./nature.js";
import { coverageOf } from "./range-coverage.js";
import { digestSeries, MIN_POINTS, type SeriesDigest, type SeriesDigestOptions } from "./series.js";

export const RESAMPLES = ["1w", "1M"] as const;
export type Resample = (typeof RESAMPLES)[number];

/** Nominal length, for gap detection and window choice (a month is 28–31 days). */
export const RESAMPLE_MS: Record<Resample, number> = { "1w": 7 * DAY_MS, "1M": 30.436875 * DAY_MS };

/** Start of the calendar period holding t (UTC; weeks start Monday). */
export function periodStart(t: number, period: Resample): number {
  const d = new Date(t);
  if (period === "1M") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const day = Math.floor(t / DAY_MS) * DAY_MS;
  // 1970-01-01 was a Thursday: (getUTCDay() + 6) % 7 is the days since Monday.
  return day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
}

export function periodEnd(start: number, period: Resample): number {
  if (period === "1w") return start + 7 * DAY_MS;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Why a resample cannot apply to a series of this bucket size, or null when it can. */
export function resampleProblem(period: Resample, timeframeMs: number): string | null {
  const target = period === "1w" ? 7 * DAY_MS : 28 * DAY_MS;
  if (!(timeframeMs > 0)) return `resample needs a series with a fixed bucket size`;
  if (timeframeMs >= target) return `resample ${period} is not coarser than the series' buckets; drop resample or use a coarser one`;
  // A bucket must fit a period evenly, or one bucket would straddle two periods.
  if (timeframeMs < DAY_MS ? DAY_MS % timeframeMs !== 0 : timeframeMs % DAY_MS !== 0)
    return `resample ${period} needs buckets that divide a day evenly; use a timeframe that divides 24 h (1m to 1d)`;
  return null;
}

export interface Resampled {
  times: Float64Array;
  values: Float64Array;
  /** How the periods were filled: summed buckets (flows) or the period's last value. */
  rule: "sum" | "last";
  /** First and last period are not covered whole by the data (or the last one runs past "now"). */
  partialFirst: boolean;
  partialLast: boolean;
}

/**
 * Re-bucket ascending `times`/`values` (`timeframeMs` apart) into calendar periods. A period is
 * partial when the data starts after its start, ends before its last bucket, or "now" (`asOfMs`)
 * falls inside it. Non-finite values are skipped, as the digest skips them.
 */
export function resample(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  nature: SeriesNature,
  period: Resample,
  timeframeMs: number,
  asOfMs?: number,
): Resampled {
  const rule = nature === "flow" ? "sum" : "last";
  const outT: number[] = [];
  const outV: number[] = [];
  let firstT = NaN;
  let lastT = NaN;
  const n = Math.min(times.length, values.length);
  for (let i = 0; i < n; i++) {
    const t = times[i]!;
    const v = values[i]!;
    if (!Number.isFinite(v) || !Number.isFinite(t)) continue;
    if (Number.isNaN(firstT)) firstT = t;
    lastT = t;
    const start = periodStart(t, period);
    if (outT.length === 0 || outT[outT.length - 1] !== start) {
      outT.push(start);
      outV.push(v);
    } else if (rule === "sum") outV[outV.length - 1]! += v;
    else outV[outV.length - 1] = v;
  }
  const k = outT.length;
  const partialFirst = k > 0 && firstT > outT[0]!;
  const lastEnd = k > 0 ? periodEnd(outT[k - 1]!, period) : NaN;
  const partialLast = k > 0 && (lastT + timeframeMs < lastEnd || (asOfMs !== undefined && asOfMs < lastEnd));
  return { times: Float64Array.from(outT), values: Float64Array.from(outV), rule, partialFirst, partialLast };
}

/**
 * The digest of a series re-bucketed into calendar periods: every statistic (extremes, mean,
 * change, drawdown, sums, position, gaps, windows) is of the series as served, every point, as
 * without resample; only the points are the periods. One rule, so an answer never has two lows.
 */
export function digestResampled(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  period: Resample,
  opts: SeriesDigestOptions,
): SeriesDigest {
  const nature = opts.nature ?? "level";
  const src = finiteOnly(times, values);
  const n = src.times.length;
  const coverage = coverageOf({
    dataFromMs: n ? src.times[0]! : NaN,
    dataToMs: n ? src.times[n - 1]! : NaN,
    timeframeMs: opts.timeframeMs,
    requestedFromMs: opts.requestedFromMs,
    requestedToMs: opts.requestedToMs,
    extent: opts.extent,
    asOfMs: opts.asOfMs,
  });
  const r = resample(src.times, src.values, nature, period, opts.timeframeMs, opts.asOfMs);
  // The statistics' own sample is not shown: the fewest points keep it cheap.
  const full = digestSeries(src.times, src.values, { ...opts, coverage, maxPoints: MIN_POINTS });
  const buckets = digestSeries(r.times, r.values, { ...opts, timeframeMs: RESAMPLE_MS[period], coverage, windows: [] });
  return {
    ...full,
    // The points skipped are those of the series as served.
    nonFinite: Math.max(times.length, values.length) - n,
    resample: { period, rule: r.rule, partialFirst: r.partialFirst, partialLast: r.partialLast, sourceCount: n },
    points: buckets.points,
    sampling: buckets.sampling,
  };
}

function finiteOnly(times: ArrayLike<number>, values: ArrayLike<number>): { times: Float64Array; values: Float64Array } {
  const n = Math.min(times.length, values.length);
  const t: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(values[i]!) || !Number.isFinite(times[i]!)) continue;
    t.push(times[i]!);
    v.push(values[i]!);
  }
  return { times: Float64Array.from(t), values: Float64Array.from(v) };
}
