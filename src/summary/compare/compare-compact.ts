// The structured shape of a compare answer: the grid once, each member's first, last, change and
// rank, the correlation triangle, and the co-sampled points as rows grouped by month, with the
// text's numbers.
import { z } from "zod";

import { defined, num, timeField, when } from "../format/compact.js";
import { isDaily, seriesValueFormatter } from "../format/format.js";
import { type CompareDigest, leadLagFound, maxLagBuckets, memberNames } from "./compare-digest.js";

export const compactCompareDigestSchema = z.object({
  grid: z.object({
    count: z.number().int().describe("times present in every member"),
    from: timeField.optional(),
    to: timeField.optional(),
  }),
  members: z.array(
    z.object({
      ...memberNames,
      fetched: z.number().int().optional().describe("points before alignment, when more than the grid's"),
      first: z.number().optional().describe("at the grid's first time"),
      last: z.number().optional().describe("at the grid's last time"),
      change: z.number().optional(),
      basis: z
        .enum(["percent", "points", "units", "sum"])
        .describe("percent: (last − first)/|first|; points or units: last − first; sum: the flow's total over the grid"),
      rank: z.number().int().optional().describe("1 = largest change among members of the same basis and unit"),
      rebased: z.boolean().optional().describe("true: points rebased to 1,000 at the grid's first time"),
    }),
  ),
  correlation: z
    .object({
      of: z.string().describe("log returns for prices, differences otherwise"),
      changes: z.number().int(),
      triangle: z.array(z.array(z.number().nullable())).describe("Pearson r: row i (from the second member) against members 0 … i−1"),
      threshold: z.number().optional().describe("smallest |r| significant at level (two-sided, Bonferroni over the pairs)"),
      level: z.number(),
    })
    .optional(),
  leadLag: z
    .object({
      maxLagBuckets,
      threshold: z.number().optional().describe("smallest |r| significant at level over every pair and lag tried"),
      level: z.number(),
      found: leadLagFound
        .optional()
        .describe("a lag that clears the threshold and beats the same-bucket correlation by 0.1; absent: no significant relation"),
    })
    .optional()
    .describe("absent when the grid is too short to try lags (under 20 buckets)"),
  sampling: z.enum(["all", "lttb"]).describe("lttb: one selection shared by all members, each member's min and max kept"),
  pointColumns: z.array(z.string()).describe("what each points row holds: the time, then each member's label"),
  points: z
    .record(z.string(), z.array(z.array(z.union([z.string(), z.number()]))))
    .describe(
      'rows grouped under their UTC month "YYYY-MM": ["DD" (daily) or "DD HH:MM", one value per member in member order, in its unit (rebased members: 1,000 at the first time)]',
    ),
});
export type CompactCompareDigest = z.infer<typeof compactCompareDigestSchema>;

export function compactCompareDigest(d: CompareDigest): CompactCompareDigest {
  // Rebased members as the text writes them: rebased to 1,000 (three-digit integers).
  const values = d.members.map((m, i) => (m.rebased ? Array.from(d.points.values[i]!, (v) => v * 10) : d.points.values[i]!));
  const formats = d.members.map((_, i) => seriesValueFormatter(values[i]!));
  const points: Record<string, Array<Array<string | number>>> = {};
  const daily = d.grid.first !== null && isDaily(d.grid.timeframeMs, Date.parse(d.grid.first));
  d.points.times.forEach((t, p) => {
    const at = daily ? t.slice(8, 10) : `${t.slice(8, 10)} ${t.slice(11, 16)}`;
    (points[t.slice(0, 7)] ??= []).push([at, ...formats.map((f, i) => f.value(values[i]![p]!))]);
  });
  const r2 = (x: number | null) => (x === null ? null : Number(x.toFixed(2)) + 0);
  return defined({
    grid: defined({ count: d.grid.count, from: d.grid.first && when(d.grid.first), to: d.grid.last && when(d.grid.last) }),
    members: d.members.map((m) =>
      defined({
        label: m.label,
        metric: m.metric,
        asset: m.asset,
        unit: m.unit,
        fetched: m.fetched === d.grid.count ? undefined : m.fetched,
        first: m.first ? num(m.first.value) : undefined,
        last: m.last ? num(m.last.value) : undefined,
        change: m.change === null ? undefined : num(m.change),
        basis: m.basis,
        rank: m.rank,
        rebased: m.rebased || undefined,
      }),
    ),
    correlation: d.correlation && {
      of: d.correlation.of,
      changes: d.correlation.changes,
      triangle: d.correlation.matrix.slice(1).map((row, i) => row.slice(0, i + 1).map(r2)),
      ...(d.correlation.threshold !== null && { threshold: num(d.correlation.threshold) }),
      level: d.correlation.level,
    },
    leadLag:
      d.leadLag &&
      defined({
        maxLagBuckets: d.leadLag.maxLagBuckets,
        threshold: r2(d.leadLag.threshold),
        level: d.leadLag.level,
        found: d.leadLag.found && { ...d.leadLag.found, r: r2(d.leadLag.found.r)!, rSameBucket: r2(d.leadLag.found.rSameBucket)! },
      }),
    sampling: d.points.method,
    pointColumns: [daily ? "DD" : "DD HH:MM", ...d.members.map((m) => m.label)],
    points,
  });
}
