// The structured shape of a series answer (get_series, get_ohlcv): the digest's facts as
// [time, value] pairs at a model's precision, only the members that apply, and the points grouped
// by month as the text prints them.
import { z } from "zod";

import { defined, groupedPoints, num, pair, pairSchema, pointsSchema, timeField, when } from "../format/compact.js";
import { isDaily } from "../format/format.js";
import type { CandleFacts } from "./candles.js";
import type { Change } from "./nature.js";
import { NATURES, resampleSchema, type SeriesDigest } from "./series-schema.js";

const changeSchema = z
  .object({
    by: z.number().describe("last − first, in the unit (points for ratios)"),
    percent: z.number().optional().describe("only where a percentage means something"),
  })
  .describe("change between two values");

const windowSchema = z.object({
  since: timeField.optional().describe("start of a YTD window (the others reach back their own length from the last point)"),
  by: z.number().optional().describe("last − the window's start, where no percent applies (ratios, signed series)"),
  percent: z.number().optional(),
  sum: z.number().optional().describe("flows: total over the window"),
  priorSum: z.number().optional().describe("flows: total over the window before"),
});

export const compactSeriesDigestSchema = z.object({
  nature: z.enum(NATURES).describe("what the values are; decides which statistics apply"),
  count: z.number().int().describe("points digested"),
  nonFinite: z.number().int().optional().describe("points skipped as not finite"),
  first: pairSchema.optional(),
  last: pairSchema.optional(),
  min: pairSchema.optional().describe("first occurrence"),
  max: pairSchema.optional().describe("first occurrence"),
  mean: z.number().optional(),
  stdev: z.number().optional(),
  zScoreLast: z.number().optional(),
  change: changeSchema.optional().describe("first → last (not for flows)"),
  maxDrawdown: z.object({ percent: z.number(), peak: pairSchema, trough: pairSchema }).optional(),
  flow: z
    .object({ sum: z.number(), meanPerBucket: z.number(), peak: pairSchema })
    .optional()
    .describe("flows: total, mean per bucket, largest bucket"),
  signFlips: z.object({ count: z.number().int(), last: pairSchema.optional() }).optional(),
  windows: z.record(z.string(), windowSchema).optional().describe("trailing windows back from the last point: 1d, 7d, 30d, 90d, 1y, YTD"),
  position: z
    .object({
      percentile: z.number().describe("share of points at or below the last, 0–100"),
      fromPeak: changeSchema.extend({ peak: timeField }),
      lastAtOrAbove: timeField.optional(),
      lastAtOrBelow: timeField.optional(),
    })
    .optional(),
  coverage: z
    .object({
      requestedFrom: timeField,
      requestedTo: timeField,
      percent: z.number().describe("share of the asked range covered"),
      historyFrom: timeField,
      historyTo: timeField,
      endedAt: timeField.describe("the series stopped here"),
      partialLastAsOf: timeField.describe("the last bucket is still filling: data as of this time"),
    })
    .partial(),
  gaps: z
    .object({
      missingBuckets: z.number().int(),
      runs: z.number().int(),
      largest: z.array(z.tuple([timeField, timeField, z.number().int()])).describe("[from, to, missing]"),
    })
    .optional()
    .describe("absent when no bucket is missing"),
  partialLast: pairSchema
    .optional()
    .describe("flows: the last bucket while still filling (data up to coverage.partialLastAsOf); in no statistic"),
  resample: resampleSchema.optional().describe("re-bucketed into UTC weeks (from Monday) or calendar months"),
  sampling: z.enum(["all", "lttb"]).describe("all points, or LTTB keeping the shape with first, last, min and max"),
  points: pointsSchema,
});
export type CompactSeriesDigest = z.infer<typeof compactSeriesDigestSchema>;

function change(c: Change): z.infer<typeof changeSchema> {
  return defined({ by: num(c.absolute), percent: c.percent === null ? null : num(c.percent) });
}

export function compactSeriesDigest(d: SeriesDigest): CompactSeriesDigest {
  const p = d.position;
  const daily =
    d.first !== null &&
    d.last !== null &&
    isDaily(d.timeframeMs, Date.parse(d.first.time)) &&
    isDaily(d.timeframeMs, Date.parse(d.last.time));
  const points = groupedPoints(d.points, d.resample?.period === "1M" ? "month" : daily ? "day" : "minute");
  return defined({
    nature: d.nature,
    count: d.count,
    nonFinite: d.nonFinite || undefined,
    first: d.first && pair(d.first),
    last: d.last && pair(d.last),
    min: d.min && pair(d.min),
    max: d.max && pair(d.max),
    mean: d.mean === null ? null : num(d.mean),
    stdev: d.stdev === null ? null : num(d.stdev),
    zScoreLast: d.zScoreLast === null ? null : num(d.zScoreLast),
    change: d.change && change(d.change),
    maxDrawdown: d.maxDrawdown && {
      percent: num(d.maxDrawdown.percent),
      peak: pair(d.maxDrawdown.peak),
      trough: pair(d.maxDrawdown.trough),
    },
    flow: d.flow && { sum: num(d.flow.sum), meanPerBucket: num(d.flow.meanPerBucket), peak: pair(d.flow.peak) },
    signFlips: d.signFlips && defined({ count: d.signFlips.count, last: d.signFlips.last && pair(d.signFlips.last) }),
    windows: d.windows.length ? windowsOf(d.windows) : undefined,
    position:
      p &&
      defined({
        percentile: num(p.percentile),
        fromPeak: { ...change(p.fromPeak), peak: when(p.fromPeak.peakTime) },
        lastAtOrAbove: p.lastAtOrAbove && when(p.lastAtOrAbove),
        lastAtOrBelow: p.lastAtOrBelow && when(p.lastAtOrBelow),
      }),
    coverage: coverageOf(d.coverage),
    gaps: d.gaps.missingBuckets
      ? { ...d.gaps, largest: d.gaps.largest.map((g) => [when(g.from), when(g.to), g.missing] as [string, string, number]) }
      : undefined,
    partialLast: d.partialLast && pair(d.partialLast),
    resample: d.resample,
    sampling: d.sampling.method,
    points,
  });
}

/** The windows by name; the text gives a window one figure (its % where there is one): so does the JSON. */
function windowsOf(list: SeriesDigest["windows"]): Record<string, z.infer<typeof windowSchema>> {
  const windows: Record<string, z.infer<typeof windowSchema>> = {};
  for (const w of list) {
    const percent = w.change?.percent ?? w.percent ?? undefined;
    windows[w.window] = defined({
      since: w.window === "YTD" ? when(w.since) : undefined,
      by: w.change && percent === undefined ? num(w.change.absolute) : undefined,
      percent,
      sum: w.sum === undefined ? undefined : num(w.sum),
      priorSum: w.priorSum === undefined || w.priorSum === null ? undefined : num(w.priorSum),
    });
    const pct = windows[w.window]!.percent;
    if (pct !== undefined) windows[w.window]!.percent = num(pct);
  }
  return windows;
}

function coverageOf(c: SeriesDigest["coverage"]): CompactSeriesDigest["coverage"] {
  return defined({
    requestedFrom: c.requestedFrom && when(c.requestedFrom),
    requestedTo: c.requestedTo && when(c.requestedTo),
    percent: c.percent === null ? null : num(c.percent),
    historyFrom: c.historyFrom && when(c.historyFrom),
    historyTo: c.historyTo && when(c.historyTo),
    endedAt: c.endedAt && when(c.endedAt),
    partialLastAsOf: c.partialLastAsOf && when(c.partialLastAsOf),
  });
}

export const moveSchema = z.object({
  time: timeField,
  percent: z.number().describe("(close − open) / open × 100"),
  open: z.number(),
  close: z.number(),
});

export const compactCandleFactsSchema = z
  .object({
    candles: z.number().int(),
    high: pairSchema.optional().describe("highest high, first occurrence"),
    low: pairSchema.optional().describe("lowest low, first occurrence"),
    rangePercent: z.number().optional().describe("(high − low) / low × 100"),
    largestUp: moveSchema.optional(),
    largestDown: moveSchema.optional(),
    realizedVolatility: z
      .object({
        annualizedPercent: z.number().describe("stdev of close-to-close log returns × √(buckets per year) × 100"),
        returns: z.number().int(),
      })
      .optional(),
  })
  .describe("price: facts of the timeframe's candles");

export function compactCandleFacts(f: CandleFacts): z.infer<typeof compactCandleFactsSchema> {
  const move = (m: NonNullable<CandleFacts["largestUp"]>) => ({
    time: when(m.time),
    percent: num(m.percent),
    open: num(m.open),
    close: num(m.close),
  });
  return defined({
    candles: f.candles,
    high: f.high && pair(f.high),
    low: f.low && pair(f.low),
    rangePercent: f.rangePercent === null ? null : num(f.rangePercent),
    largestUp: f.largestUp && move(f.largestUp),
    largestDown: f.largestDown && move(f.largestDown),
    realizedVolatility: f.realizedVolatility && {
      annualizedPercent: num(f.realizedVolatility.annualizedPercent),
      returns: f.realizedVolatility.returns,
    },
  });
}
