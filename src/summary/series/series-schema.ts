// The structured shape of a series digest (the tools' outputSchema).
import { z } from "zod";

import type { SeriesNature } from "../../catalog/index.js";
import { coverageSchema } from "./range-coverage.js";

export const NATURES = ["level", "flow", "signed", "cumulative", "ratio", "count"] as const satisfies readonly SeriesNature[];

export const timedValueSchema = z.object({ time: z.string(), value: z.number() });
export type TimedValue = z.infer<typeof timedValueSchema>;

/** How a series was re-bucketed into weeks or months; the digest and its compact form share it. */
export const resampleSchema = z.object({
  period: z.enum(["1w", "1M"]),
  rule: z.enum(["sum", "last"]),
  partialFirst: z.boolean(),
  partialLast: z.boolean(),
  sourceCount: z.number().int(),
});

const changeSchema = z.object({
  absolute: z.number().describe("last − first in the series' unit (points for ratios)"),
  percent: z.number().nullable().describe("% of first, only where a percentage means something"),
  measure: z.enum(["percent", "points", "units"]),
});

const windowSchema = z.object({
  window: z.enum(["1d", "7d", "30d", "90d", "1y", "YTD"]),
  since: z.string(),
  change: changeSchema.optional().describe("stocks: last value against the window's start"),
  sum: z.number().optional().describe("flows: total over the window"),
  priorSum: z.number().nullable().optional().describe("flows: total over the equal window before"),
  percent: z.number().nullable().optional().describe("flows: sum against priorSum"),
});

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
  changePercent: z.number().nullable().describe("(last − first) / first × 100 for levels and counts with first > 0; else null"),
  zScoreLast: z.number().nullable().describe("(last − mean) / stdev; null when stdev is 0 or fewer than 2 points"),
  maxDrawdown: z
    .object({
      percent: z.number().describe("largest peak-to-trough decline, ≤ 0, relative to a positive peak"),
      peak: timedValueSchema,
      trough: timedValueSchema,
    })
    .nullable()
    .describe("levels and counts only; null when no point is positive"),
  gaps: z.object({
    missingBuckets: z.number().int().describe("buckets absent between consecutive finite points"),
    runs: z.number().int().describe("separate stretches of missing buckets"),
    largest: z
      .array(z.object({ from: z.string(), to: z.string(), missing: z.number().int() }))
      .describe("largest runs, first and last missing bucket"),
  }),
  nature: z.enum(NATURES).describe("what the values are; decides which statistics apply"),
  change: changeSchema.nullable().describe("first → last; null for flows (see flow and windows)"),
  flow: z
    .object({ sum: z.number(), meanPerBucket: z.number(), peak: timedValueSchema })
    .nullable()
    .describe("flows only: total over the range, mean per bucket, largest bucket"),
  signFlips: z
    .object({ count: z.number().int(), last: timedValueSchema.nullable() })
    .nullable()
    .describe("signed series only: sign changes and the point of the latest"),
  windows: z.array(windowSchema).describe("trailing windows back from the last point, where the data reaches"),
  position: z
    .object({
      percentile: z.number().describe("share of points at or below the last value, 0–100"),
      fromPeak: changeSchema.extend({ peakTime: z.string() }),
      lastAtOrAbove: z.string().nullable().describe("latest earlier point at or above the last value"),
      lastAtOrBelow: z.string().nullable().describe("latest earlier point at or below the last value"),
    })
    .nullable(),
  coverage: coverageSchema,
  partialLast: timedValueSchema
    .nullable()
    .describe("flows: the last bucket while it is still filling (data up to coverage.partialLastAsOf); in no statistic"),
  resample: resampleSchema.optional().describe("present when the series was re-bucketed into UTC weeks (from Monday) or calendar months"),
  points: z.array(timedValueSchema),
  sampling: z.object({
    returned: z.number().int(),
    total: z.number().int(),
    method: z.enum(["all", "lttb"]).describe("all points, or LTTB keeping first/last/min/max"),
  }),
});
export type SeriesDigest = z.infer<typeof seriesDigestSchema>;
