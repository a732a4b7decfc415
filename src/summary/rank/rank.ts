// The quantity rank_assets ranks, per asset, from one series' columns, and the ranking itself:
// complete buckets only, one end bucket shared by every row, nothing imputed. Pure functions.
import { lastAtOrBefore } from "../../catalog/dates.js";
import type { SeriesNature } from "../../catalog/index.js";
import { type ChangeMeasure, changeOf } from "../series/nature.js";

export const RANK_BY = ["change", "value"] as const;
export type RankBy = (typeof RANK_BY)[number];

/** Why an asset has no row; never a value or a zero in its place. */
export type ExclusionReason = "not_covered" | "listed_too_late" | "no_data" | "undefined_change" | "read_failed";

/** How the ranked quantity reads: a % change, points of a ratio, units of the series, a window's total or a level. */
export type RankMeasure = ChangeMeasure | "total" | "value";

export interface Columns {
  times: ArrayLike<number>;
  values: ArrayLike<number>;
}

export interface RankSpec {
  by: RankBy;
  nature: SeriesNature;
  timeframeMs: number;
  windowMs: number;
}

export type Measured =
  | { ok: true; quantity: number; value: number; fromMs: number }
  | { ok: false; reason: Exclude<ExclusionReason, "not_covered" | "read_failed"> };

/** What `by` measures for a series of this nature. */
export function measureOf(spec: Pick<RankSpec, "by" | "nature">): RankMeasure {
  if (spec.by === "value") return spec.nature === "flow" ? "total" : "value";
  return spec.nature === "flow" ? "percent" : changeOf(spec.nature, 1, 1).measure;
}

/** Count of the leading buckets that had closed by `asOfMs` (a partial last bucket is never ranked). */
export function completeCount(times: ArrayLike<number>, timeframeMs: number, asOfMs: number): number {
  return lastAtOrBefore(times, asOfMs - timeframeMs) + 1;
}

/** Start of the last complete bucket, or undefined when none has closed. */
export function lastComplete(c: Columns, timeframeMs: number, asOfMs: number): number | undefined {
  const n = completeCount(c.times, timeframeMs, asOfMs);
  return n > 0 ? c.times[n - 1]! : undefined;
}

/** Sum of the buckets starting in [from, to]; null when the series does not reach back to `from`. */
function windowSum(c: Columns, from: number, to: number): number | null {
  if (c.times.length === 0 || c.times[0]! > from) return null;
  let sum = 0;
  for (let i = lastAtOrBefore(c.times, to); i >= 0 && c.times[i]! >= from; i--) sum += c.values[i]!;
  return sum;
}

/**
 * The ranked quantity of one asset with its window ending at the bucket starting `endMs`:
 * - levels (and ratios, counts, running totals): `value` is the bucket's value; `change` compares it
 *   with the last bucket at or before endMs − window, in the nature's measure;
 * - flows: `value` is the window's total; `change` is that total against the window before it, in %.
 */
export function measure(c: Columns, spec: RankSpec, endMs: number): Measured {
  const end = lastAtOrBefore(c.times, endMs);
  if (end < 0 || c.times[end] !== endMs || !Number.isFinite(c.values[end]!)) return { ok: false, reason: "no_data" };
  const { windowMs, timeframeMs } = spec;
  if (spec.nature === "flow") {
    const from = endMs - windowMs + timeframeMs;
    const total = windowSum(c, from, endMs);
    if (total === null) return { ok: false, reason: "listed_too_late" };
    if (spec.by === "value") return { ok: true, quantity: total, value: total, fromMs: from };
    const prior = windowSum(c, from - windowMs, from - 1);
    if (prior === null) return { ok: false, reason: "listed_too_late" };
    if (!(prior > 0)) return { ok: false, reason: "undefined_change" };
    return { ok: true, quantity: ((total - prior) / prior) * 100, value: total, fromMs: from };
  }
  const value = c.values[end]!;
  if (spec.by === "value") return { ok: true, quantity: value, value, fromMs: endMs };
  const ref = lastAtOrBefore(c.times, endMs - windowMs);
  if (ref < 0) return { ok: false, reason: "listed_too_late" };
  const change = changeOf(spec.nature, c.values[ref]!, value);
  const quantity = change.measure === "percent" ? change.percent : change.absolute;
  if (quantity === null || !Number.isFinite(quantity)) return { ok: false, reason: "undefined_change" };
  return { ok: true, quantity, value, fromMs: c.times[ref]! };
}

export interface Candidate {
  asset: string;
  quantity: number;
  value: number;
}

export interface RankedRow extends Candidate {
  rank: number;
  /** Another row has the same quantity as printed: they share the rank, market cap orders them. */
  tie: boolean;
}

export interface RankOptions {
  order: "desc" | "asc";
  limit: number;
  above?: number | undefined;
  below?: number | undefined;
  /** The quantity as printed: rows that print alike are tied (never ordered by digits nobody sees). */
  key: (quantity: number) => string;
}

/**
 * Candidates (given in market-cap order) filtered by the thresholds (strictly above / below),
 * ordered, tied where their printed quantities are equal (competition ranking: 1, 2, 2, 4), cut
 * at `limit`. Ties keep the market-cap order, so the same input gives the same rows.
 */
export function rankCandidates(candidates: readonly Candidate[], opts: RankOptions): { matched: number; rows: RankedRow[] } {
  const kept = candidates.filter(
    (c) => (opts.above === undefined || c.quantity > opts.above) && (opts.below === undefined || c.quantity < opts.below),
  );
  const sign = opts.order === "desc" ? -1 : 1;
  const keyed = kept.map((c, i) => ({ c, i, k: Number(opts.key(c.quantity)) }));
  keyed.sort((a, b) => sign * (a.k - b.k) || a.i - b.i);
  const rows: RankedRow[] = keyed.map(({ c }, i) => ({ ...c, rank: i + 1, tie: false }));
  for (let i = 1; i < rows.length; i++) {
    if (keyed[i]!.k === keyed[i - 1]!.k) {
      rows[i]!.rank = rows[i - 1]!.rank;
      rows[i]!.tie = rows[i - 1]!.tie = true;
    }
  }
  return { matched: kept.length, rows: rows.slice(0, opts.limit) };
}
