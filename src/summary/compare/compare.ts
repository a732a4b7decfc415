// Comparison of several series: one shared time grid, each member's first/last/change by its
// nature and its rank, and the changes' correlation. Pure functions over columns.
import type { SeriesNature } from "../../catalog/index.js";

export interface CompareInput {
  label: string;
  /** What the values are; `price` marks OHLC closes (log returns, rebased). */
  nature: SeriesNature | "price";
  unit: string;
  times: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** How a member's change is expressed, by its nature. */
export type ChangeBasis = "percent" | "points" | "units" | "sum";

export interface MemberStats {
  first: number;
  last: number;
  /** In the basis' unit: % for prices, levels and counts; points for ratios; units for signed and cumulative; the sum for flows. */
  change: number | null;
  basis: ChangeBasis;
  /** Rebased to 100 at the grid's first bucket (prices, levels and counts with a positive start). */
  rebased: boolean;
}

export function changeBasis(nature: CompareInput["nature"]): ChangeBasis {
  switch (nature) {
    case "price":
    case "level":
    case "count":
      return "percent";
    case "ratio":
      return "points";
    case "flow":
      return "sum";
    default:
      return "units";
  }
}

/** Times present in every member (ascending), and each member's values at them. */
export function alignOnGrid(members: readonly Pick<CompareInput, "times" | "values">[]): { times: Float64Array; values: Float64Array[] } {
  if (members.length === 0) return { times: new Float64Array(0), values: [] };
  const cursors = members.map(() => 0);
  const times: number[] = [];
  const picks: number[][] = members.map(() => []);
  const base = members[0]!;
  outer: for (let i = 0; i < base.times.length; i++) {
    const t = base.times[i]!;
    if (!Number.isFinite(base.values[i]!)) continue;
    const at: number[] = [i];
    for (let m = 1; m < members.length; m++) {
      const other = members[m]!;
      let c = cursors[m]!;
      while (c < other.times.length && other.times[c]! < t) c++;
      cursors[m] = c;
      if (c >= other.times.length) break outer;
      if (other.times[c]! !== t || !Number.isFinite(other.values[c]!)) continue outer;
      at.push(c);
    }
    times.push(t);
    for (let m = 0; m < members.length; m++) picks[m]!.push(at[m]!);
  }
  return {
    times: Float64Array.from(times),
    values: members.map((member, m) => Float64Array.from(picks[m]!, (i) => member.values[i]!)),
  };
}

/** A member's statistics over the aligned grid (swap-in point for richer window statistics). */
export function memberStats(values: ArrayLike<number>, nature: CompareInput["nature"]): MemberStats {
  const n = values.length;
  const first = values[0]!;
  const last = values[n - 1]!;
  const basis = changeBasis(nature);
  let change: number | null;
  if (basis === "percent") change = first === 0 ? null : ((last - first) / Math.abs(first)) * 100;
  else if (basis === "sum") {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[i]!;
    change = s;
  } else change = last - first;
  return { first, last, change, basis, rebased: basis === "percent" && first > 0 };
}

/**
 * Ranks (1 = largest change) among like quantities: members of the same metric whose changes share a
 * basis (and, unless the basis is percent, a unit); null for a member alone in its group or without a
 * change: ranking a reserve's % against a price's, or a % against points, would compare nothing.
 */
export function rankChanges(
  items: readonly { change: number | null; basis: ChangeBasis; unit: string; metric?: string }[],
): (number | null)[] {
  const key = (i: number) => `${items[i]!.metric ?? ""}|${items[i]!.basis}|${items[i]!.basis === "percent" ? "" : items[i]!.unit}`;
  return items.map((item, i) => {
    if (item.change === null) return null;
    const peers = items.filter((_, j) => key(j) === key(i) && items[j]!.change !== null);
    if (peers.length < 2) return null;
    return 1 + peers.filter((p) => p.change! > item.change!).length;
  });
}

/** Bucket-to-bucket changes: log returns for prices, differences otherwise. NaN where undefined. */
export function changesOf(values: ArrayLike<number>, nature: CompareInput["nature"]): Float64Array {
  const n = Math.max(0, values.length - 1);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = values[i]!;
    const b = values[i + 1]!;
    out[i] = nature === "price" ? (a > 0 && b > 0 ? Math.log(b / a) : NaN) : b - a;
  }
  return out;
}

/** Pearson correlation of x[i] with y[i + lag] over the pairs both define; null below 3 pairs or without variance. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>, lag = 0): number | null {
  return correlate(x, y, lag).r;
}

/** Pearson r of x[i] with y[i + lag] and the number of pairs it read (both finite). */
export function correlate(x: ArrayLike<number>, y: ArrayLike<number>, lag = 0): { r: number | null; n: number } {
  const lo = Math.max(0, -lag);
  const hi = Math.min(x.length, y.length - lag);
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = lo; i < hi; i++) {
    const a = x[i]!;
    const b = y[i + lag]!;
    if (Number.isFinite(a) && Number.isFinite(b)) {
      n++;
      sx += a;
      sy += b;
    }
  }
  if (n < 3) return { r: null, n };
  const mx = sx / n;
  const my = sy / n;
  let cov = 0;
  let vx = 0;
  let vy = 0;
  for (let i = lo; i < hi; i++) {
    const a = x[i]!;
    const b = y[i + lag]!;
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    cov += (a - mx) * (b - my);
    vx += (a - mx) ** 2;
    vy += (b - my) ** 2;
  }
  if (!(vx > 0) || !(vy > 0)) return { r: null, n };
  return { r: Math.max(-1, Math.min(1, cov / Math.sqrt(vx * vy))), n };
}

/** Symmetric matrix of same-bucket correlations (diagonal 1) and the fewest pairs any of them read. */
export function correlationMatrix(changes: readonly ArrayLike<number>[]): { matrix: (number | null)[][]; pairs: number } {
  const m = changes.length;
  const matrix: (number | null)[][] = changes.map(() => new Array<number | null>(m).fill(null));
  let pairs = Infinity;
  for (let i = 0; i < m; i++) {
    matrix[i]![i] = 1;
    for (let j = 0; j < i; j++) {
      const { r, n } = correlate(changes[i]!, changes[j]!);
      matrix[i]![j] = matrix[j]![i] = r;
      pairs = Math.min(pairs, n);
    }
  }
  return { matrix, pairs: Number.isFinite(pairs) ? pairs : 0 };
}

export interface LeadLag {
  leader: number;
  follower: number;
  /** Buckets by which the leader's changes precede the follower's. */
  lag: number;
  r: number;
  rSameBucket: number;
  /** Pairs the lagged correlation read. */
  n: number;
}

/** Correlation gain a lag must add over the same-bucket correlation to count as a lead. */
export const LEAD_GAIN = 0.1;

/**
 * The pair whose changes correlate most strongly at some lag within ±maxLag; a lead only when that
 * lag is not 0, beats the same-bucket correlation by LEAD_GAIN and clears `critical(n, tests)`, the
 * |r| significant once every pair and lag tried is accounted for (`tests` = pairs × lags).
 */
export function strongestLeadLag(
  changes: readonly ArrayLike<number>[],
  maxLag: number,
  critical: (n: number, tests: number) => number,
): { lead: LeadLag | null; tests: number; threshold: number } {
  let best: { i: number; j: number; lag: number; r: number; n: number } | null = null;
  const pairs = (changes.length * (changes.length - 1)) / 2;
  const tests = pairs * (2 * maxLag + 1);
  for (let i = 0; i < changes.length; i++) {
    for (let j = i + 1; j < changes.length; j++) {
      for (let lag = -maxLag; lag <= maxLag; lag++) {
        const { r, n } = correlate(changes[i]!, changes[j]!, lag);
        if (r !== null && (!best || Math.abs(r) > Math.abs(best.r))) best = { i, j, lag, r, n };
      }
    }
  }
  const span = Math.min(...changes.map((c) => c.length)) - maxLag;
  const threshold = critical(best?.n ?? span, tests);
  if (!best || best.lag === 0) return { lead: null, tests, threshold };
  const same = pearson(changes[best.i]!, changes[best.j]!, 0) ?? 0;
  if (Math.abs(best.r) - Math.abs(same) < LEAD_GAIN || !(Math.abs(best.r) >= threshold)) return { lead: null, tests, threshold };
  // x[t] with y[t + lag]: a positive lag means the first member moves first.
  const [leader, follower] = best.lag > 0 ? [best.i, best.j] : [best.j, best.i];
  return { lead: { leader, follower, lag: Math.abs(best.lag), r: best.r, rSameBucket: same, n: best.n }, tests, threshold };
}
