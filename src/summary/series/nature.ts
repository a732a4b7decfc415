// Statistics chosen by what a series' values are (its nature): a percentage where a ratio of two
// values means something, points for dimensionless ratios, units for series that cross zero or
// run as totals, sums for per-bucket flows. Pure functions on ascending epoch-ms times and values.
import { lastAtOrBefore } from "../../catalog/dates.js";
import type { SeriesNature } from "../../catalog/index.js";
import { DAY_MS } from "../../catalog/index.js";

export type { SeriesNature };

/** How a change is best read: a % of the start, points of a ratio, or units of the series. */
export type ChangeMeasure = "percent" | "points" | "units";

export interface Change {
  /** last − first, in the series' unit (points for ratios). */
  absolute: number;
  /** (last − first) / first × 100 where a percentage means something (level, count, flow averages with first > 0); else null. */
  percent: number | null;
  measure: ChangeMeasure;
}

/** Natures whose values are positive amounts, so that a percentage change and a drawdown mean something. */
export function hasPercent(nature: SeriesNature): boolean {
  return nature === "level" || nature === "count" || nature === "flow";
}

/** Natures with a meaningful peak-to-trough decline in %: stocks and prices, never flows or signed totals. */
export function hasDrawdown(nature: SeriesNature): boolean {
  return nature === "level" || nature === "count";
}

/**
 * The change from `first` to `last` in the measure that fits the nature. For a flow pass averages
 * (or sums) of comparable windows, never two single buckets.
 */
export function changeOf(nature: SeriesNature, first: number, last: number): Change {
  const absolute = last - first + 0;
  const measure: ChangeMeasure = hasPercent(nature) ? "percent" : nature === "ratio" ? "points" : "units";
  const percent = measure === "percent" && first > 0 && Number.isFinite(first) ? ((last - first) / first) * 100 + 0 : null;
  return { absolute, percent: percent !== null && Number.isFinite(percent) ? percent : null, measure };
}

/** Per-bucket flow facts: total, mean per bucket and the largest bucket (first occurrence). */
export function flowSummary(values: ArrayLike<number>, count = values.length): { sum: number; mean: number; peakIndex: number } | null {
  if (count === 0) return null;
  let sum = 0;
  let peakIndex = 0;
  for (let i = 0; i < count; i++) {
    sum += values[i]!;
    if (values[i]! > values[peakIndex]!) peakIndex = i;
  }
  return { sum, mean: sum / count, peakIndex };
}

/** Sign changes between consecutive non-zero values, and the index where the latest one landed. */
export function signFlips(values: ArrayLike<number>, count = values.length): { flips: number; lastIndex: number | null } {
  let flips = 0;
  let lastIndex: number | null = null;
  let sign = 0;
  for (let i = 0; i < count; i++) {
    const s = Math.sign(values[i]!);
    if (s === 0) continue;
    if (sign !== 0 && s !== sign) {
      flips++;
      lastIndex = i;
    }
    sign = s;
  }
  return { flips, lastIndex };
}

export const WINDOWS = ["1d", "7d", "30d", "90d", "1y", "YTD"] as const;
export type WindowName = (typeof WINDOWS)[number];
const WINDOW_MS: Record<Exclude<WindowName, "YTD">, number> = {
  "1d": DAY_MS,
  "7d": 7 * DAY_MS,
  "30d": 30 * DAY_MS,
  "90d": 90 * DAY_MS,
  "1y": 365 * DAY_MS,
};

export interface WindowChange {
  window: WindowName;
  /** Start of the window (ISO): the reference bucket for stocks, the first bucket summed for flows. */
  since: string;
  /** Stocks: change from the last bucket at or before the window's start to the last value. */
  change?: Change;
  /** Flows: the window's total, the total of the window before it, and the % between them. */
  sum?: number;
  priorSum?: number | null;
  percent?: number | null;
}

/**
 * Changes over the trailing windows 1d/7d/30d/90d/1y and year-to-date, measured back from the last
 * point (not from "now"), each only where the data reaches back far enough:
 * - stocks (every nature but flow): last value against the value at the window's start, by
 *   `changeOf` (YTD against the last bucket of the previous year);
 * - flows: the window's sum and the % against the equal window before it, when that is covered too.
 * A window no longer than one bucket is left out (for flows: not longer than one bucket).
 */
export function windowChanges(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  nature: SeriesNature,
  timeframeMs: number,
  count = Math.min(times.length, values.length),
): WindowChange[] {
  if (count < 2) return [];
  const lastT = times[count - 1]!;
  const firstT = times[0]!;
  const out: WindowChange[] = [];
  const tf = timeframeMs > 0 ? timeframeMs : 0;
  for (const window of WINDOWS) {
    const yearStart = Date.UTC(new Date(lastT).getUTCFullYear(), 0, 1);
    const span = window === "YTD" ? lastT - yearStart + tf : WINDOW_MS[window];
    if (window !== "YTD" && (nature === "flow" ? span <= tf : span < tf)) continue;
    if (nature === "flow") {
      // The buckets summed are those starting after lastT − span: span / tf of them.
      const start = window === "YTD" ? yearStart : lastT - span + tf;
      if (firstT > start || (window === "YTD" && span <= tf)) continue;
      const sum = sumBetween(times, values, count, start, lastT);
      const priorStart = start - span;
      const prior = window !== "YTD" && firstT <= priorStart ? sumBetween(times, values, count, priorStart, start - 1) : null;
      const percent = prior !== null && prior > 0 ? ((sum - prior) / prior) * 100 : null;
      out.push({ window, since: iso(start), sum, priorSum: prior, percent });
      continue;
    }
    const refTime = window === "YTD" ? yearStart - 1 : lastT - span;
    const ref = lastAtOrBefore(times, refTime, count);
    if (ref < 0) continue;
    out.push({ window, since: iso(times[ref]!), change: changeOf(nature, values[ref]!, values[count - 1]!) });
  }
  return out;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function sumBetween(times: ArrayLike<number>, values: ArrayLike<number>, count: number, from: number, to: number): number {
  let sum = 0;
  for (let i = lastAtOrBefore(times, to, count); i >= 0 && times[i]! >= from; i--) sum += values[i]!;
  return sum;
}

export interface Position {
  /** Share of points at or below the last value, 0–100. */
  percentile: number;
  /** Last value against the range's largest value (first occurrence), by `changeOf`. */
  fromPeak: Change & { peakTime: string };
  /** Latest earlier point at or above / at or below the last value (ISO), null when none. */
  lastAtOrAbove: string | null;
  lastAtOrBelow: string | null;
}

/** Where the last value sits in the returned range. */
export function positionOf(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  nature: SeriesNature,
  count = Math.min(times.length, values.length),
): Position | null {
  if (count < 2) return null;
  const last = values[count - 1]!;
  let atOrBelow = 0;
  let peak = 0;
  for (let i = 0; i < count; i++) {
    if (values[i]! <= last) atOrBelow++;
    if (values[i]! > values[peak]!) peak = i;
  }
  let above: number | null = null;
  let below: number | null = null;
  for (let i = count - 2; i >= 0 && (above === null || below === null); i--) {
    if (above === null && values[i]! >= last) above = i;
    if (below === null && values[i]! <= last) below = i;
  }
  return {
    percentile: (atOrBelow / count) * 100,
    fromPeak: { ...changeOf(nature, values[peak]!, last), peakTime: iso(times[peak]!) },
    lastAtOrAbove: above === null ? null : iso(times[above]!),
    lastAtOrBelow: below === null ? null : iso(times[below]!),
  };
}
