// The compare digest: members aligned on one grid, their changes and ranks, the changes'
// correlation and lead/lag, and co-sampled points. Bounded in size whatever the range.
import { z } from "zod";

import { MAX_POINTS_LIMIT, MIN_POINTS } from "../series/series.js";
import { coSample } from "./co-sample.js";
import { alignOnGrid, changesOf, type CompareInput, correlationMatrix, memberStats, rankChanges, strongestLeadLag } from "./compare.js";
import { criticalR, SIGNIFICANCE } from "./compare-significance.js";

/** Default co-sampled points: fewer rows as members are added, so 8 members stay within budget. */
export function defaultComparePoints(members: number): number {
  return Math.max(12, Math.min(60, Math.floor(120 / Math.max(1, members))));
}

const timed = z.object({ time: z.string(), value: z.number() });

/** The fields the digest and its compact form describe alike: a member's names, the lags tried, a lead found. */
export const memberNames = { label: z.string(), metric: z.string(), asset: z.string(), unit: z.string() };
export const maxLagBuckets = z.number().int().describe("lags tried: ±this many buckets, every pair");
export const leadLagFound = z.object({
  leader: z.string(),
  follower: z.string(),
  lagBuckets: z.number().int(),
  r: z.number(),
  rSameBucket: z.number(),
  changes: z.number().int(),
});

export const compareDigestSchema = z.object({
  grid: z.object({
    count: z.number().int().describe("timestamps present in every member"),
    first: z.string().nullable(),
    last: z.string().nullable(),
    timeframeMs: z.number(),
  }),
  members: z.array(
    z.object({
      ...memberNames,
      nature: z.string(),
      fetched: z.number().int().describe("points the member had before alignment"),
      first: timed.nullable(),
      last: timed.nullable(),
      change: z.number().nullable(),
      basis: z
        .enum(["percent", "points", "units", "sum"])
        .describe("percent: (last − first)/|first|; points or units: last − first; sum: total of the flow over the grid"),
      rank: z.number().int().nullable().describe("1 = largest change among members of the same basis and unit"),
      rebased: z.boolean().describe("points are rebased to 100 at the grid's first time"),
    }),
  ),
  correlation: z
    .object({
      of: z.string().describe("what is correlated: log returns for prices, differences otherwise"),
      changes: z.number().int().describe("pairs of changes each correlation reads (the fewest of any pair)"),
      matrix: z.array(z.array(z.number().nullable())),
      threshold: z
        .number()
        .nullable()
        .describe("smallest |r| significant at `level` (two-sided, Bonferroni over the pairs); the text shows only those"),
      level: z.number(),
    })
    .nullable(),
  leadLag: z
    .object({
      maxLagBuckets,
      threshold: z.number().nullable().describe("smallest |r| significant at `level` over every pair and lag tried"),
      level: z.number(),
      found: leadLagFound.nullable().describe("a lag that clears the threshold and beats the same-bucket correlation by 0.1; else none"),
    })
    .nullable()
    .describe("null when the grid is too short to try lags (under 20 buckets)"),
  points: z.object({
    returned: z.number().int(),
    total: z.number().int(),
    method: z.enum(["all", "lttb"]),
    times: z.array(z.string()),
    values: z.array(z.array(z.number())).describe("per member, in member order; rebased where the member says so"),
  }),
});
export type CompareDigest = z.infer<typeof compareDigestSchema>;

export interface CompareMember extends CompareInput {
  metric: string;
  asset: string;
}

export function digestCompare(members: readonly CompareMember[], opts: { timeframeMs: number; maxPoints?: number }): CompareDigest {
  const grid = alignOnGrid(members);
  const n = grid.times.length;
  const stats = n ? members.map((m, i) => memberStats(grid.values[i]!, m.nature)) : [];
  const ranks = n
    ? rankChanges(stats.map((s, i) => ({ change: s.change, basis: s.basis, unit: members[i]!.unit, metric: members[i]!.metric })))
    : [];
  const changes = members.map((m, i) => changesOf(grid.values[i] ?? [], m.nature));
  const budget = Math.min(MAX_POINTS_LIMIT, Math.max(MIN_POINTS, Math.floor(opts.maxPoints ?? defaultComparePoints(members.length))));
  const picked = coSample(grid.times, grid.values, budget);
  return {
    grid: { count: n, first: n ? iso(grid.times[0]!) : null, last: n ? iso(grid.times[n - 1]!) : null, timeframeMs: opts.timeframeMs },
    members: members.map((m, i) => {
      const s = stats[i];
      return {
        label: m.label,
        metric: m.metric,
        asset: m.asset,
        unit: m.unit,
        nature: m.nature,
        fetched: m.times.length,
        first: s ? { time: iso(grid.times[0]!), value: s.first } : null,
        last: s ? { time: iso(grid.times[n - 1]!), value: s.last } : null,
        change: s?.change ?? null,
        basis: s?.basis ?? "percent",
        rank: ranks[i] ?? null,
        rebased: s?.rebased ?? false,
      };
    }),
    ...comovement(members, changes, n),
    points: {
      returned: picked.length,
      total: n,
      method: picked.length < n ? "lttb" : "all",
      times: picked.map((i) => iso(grid.times[i]!)),
      values: members.map((_, m) => {
        const v = grid.values[m]!;
        const base = stats[m]?.rebased ? v[0]! : 0;
        return picked.map((i) => (base ? (v[i]! / base) * 100 : v[i]!));
      }),
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** How the members move together: correlation of their changes, and the strongest lead or lag. */
function comovement(
  members: readonly CompareMember[],
  changes: readonly ArrayLike<number>[],
  n: number,
): Pick<CompareDigest, "correlation" | "leadLag"> {
  const kinds = new Set(members.map((m) => (m.nature === "price" ? "log returns" : "differences")));
  const pairs = (members.length * (members.length - 1)) / 2;
  const same = n >= 4 ? correlationMatrix(changes) : null;
  const threshold = same ? criticalR(same.pairs, pairs) : Number.NaN;
  const maxLag = Math.min(10, Math.floor((n - 1) / 10));
  const lagged = n >= 20 ? strongestLeadLag(changes, maxLag, criticalR) : null;
  return {
    correlation: same
      ? {
          of: kinds.size === 1 ? [...kinds][0]! : "log returns (prices), differences (others)",
          changes: same.pairs,
          matrix: same.matrix,
          threshold: Number.isFinite(threshold) ? threshold : null,
          level: SIGNIFICANCE,
        }
      : null,
    leadLag: lagged && {
      maxLagBuckets: maxLag,
      threshold: Number.isFinite(lagged.threshold) ? lagged.threshold : null,
      level: SIGNIFICANCE,
      found: lagged.lead && {
        leader: members[lagged.lead.leader]!.label,
        follower: members[lagged.lead.follower]!.label,
        lagBuckets: lagged.lead.lag,
        r: lagged.lead.r,
        rSameBucket: lagged.lead.rSameBucket,
        changes: lagged.lead.n,
      },
    },
  };
}
