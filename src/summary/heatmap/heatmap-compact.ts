// The structured shape of a liquidation-heatmap answer: the digest's facts with times at their own
// precision, amounts at a model's precision, each cluster written once.
import { z } from "zod";

import { defined, num, pair, pairSchema, timeField, when } from "../format/compact.js";
import type { HeatmapCluster, HeatmapDigest } from "./heatmap-schema.js";
import { cellLevel } from "./heatmap-text.js";

export const clusterSchema = z.object({
  low: z.number().describe("the band's low edge: its lowest level's price"),
  high: z.number().describe("its high edge: the highest level's price + one step (a level is the bin from its price up one step)"),
  levels: z.number().int(),
  intensity: z.number().describe("sum of the run's cells, USD notional"),
  share: z.number().describe("of the latest column's total, 0–1"),
  peak: z.number().describe("price of the run's hottest level"),
  widthPercent: z.number().describe("(high − low) as % of the anchor price"),
  edgePercent: z.number().describe("signed % from the anchor to the band's near edge (0: the band holds the anchor)"),
  peakPercent: z.number().describe("signed % from the anchor to the peak level"),
});

export const sideSchema = z.object({
  largest: clusterSchema.optional().describe("the side's most intense cluster; absent when the side has none"),
  nearest: clusterSchema.optional().describe("the cluster whose near edge is closest to the anchor (may be the largest)"),
  also: z.array(clusterSchema).optional().describe("the other clusters up to top_k per side, most intense first"),
});

export const compactHeatmapDigestSchema = z.object({
  timeframe: z.string(),
  lookback: z.string(),
  scope: z.string(),
  exchange: z.string(),
  version: timeField.optional().describe("the service's version of the matrix, when not its latest column (matrix.to)"),
  priceSource: z.string().optional().describe("market of the candles and the anchor"),
  anchor: pairSchema.optional().describe("[time, price] of the last candle close (or the middle of the price axis, see anchorSource)"),
  anchorSource: z.enum(["price_axis_mid", "none"]).optional().describe("absent: the last candle close"),
  matrix: z.object({
    rows: z.number().int().describe("price levels"),
    cols: z.number().int().describe("time columns"),
    priceStep: z.number().optional(),
    priceLow: z.number().optional(),
    priceHigh: z.number().optional(),
    from: timeField.optional(),
    to: timeField.optional(),
  }),
  columnTotals: z
    .object({ latest: z.number(), mean: z.number(), max: z.number(), maxTime: timeField.optional() })
    .optional()
    .describe("open liquidation notional at one time (USD): the latest column, the mean, the largest and when"),
  latest: z
    .object({
      time: timeField.optional().describe("absent: matrix.to"),
      total: z.number(),
      maxCell: z.number().describe("hottest level"),
      maxCellPrice: z.number().optional().describe("price of the hottest level"),
      bands: z
        .record(
          z.string(),
          z.object({
            above: z.number(),
            below: z.number(),
            narrowerThanSpacing: z.literal(true).optional().describe("the band holds at most one level per side: n/a"),
          }),
        )
        .describe("USD notional within ±N % of the anchor, by N: above (short liquidations) and below (long liquidations)"),
      imbalance: z.number().optional().describe("(above − below) / (above + below) within ±10 %"),
      clusterThreshold: z.number().describe("a cluster's levels are each at least this (clusterFraction of the hottest level)"),
      clusterFraction: z.number(),
      above: sideSchema,
      below: sideSchema,
    })
    .optional()
    .describe("the latest column: the current liquidation map"),
  peak: z
    .object({
      price: z.number(),
      time: timeField.optional(),
      intensity: z.number(),
      ageColumns: z.number().int(),
      ageMs: z.number().optional(),
    })
    .optional()
    .describe("hottest cell of the whole matrix and how long before the latest column"),
  topTraderLsr: z
    .object({
      venue: z.string().describe("whose top traders' positions the ratio reads"),
      latest: pairSchema,
      min: pairSchema,
      max: pairSchema,
      mean: z.number(),
      count: z.number().int(),
    })
    .optional()
    .describe("top traders' long/short ratio"),
  candles: z
    .object({
      count: z.number().int(),
      from: timeField,
      to: timeField,
      open: z.number(),
      close: z.number(),
      high: z.number(),
      low: z.number(),
      changePercent: z.number().optional(),
    })
    .optional(),
  binned: z
    .object({
      rows: z.array(z.tuple([z.number(), z.number()])).describe("price bins [low edge, high edge], ascending"),
      cols: z.array(timeField).describe("start of each time bin, ascending"),
      hottest: z.number().describe("the hottest bin's mean cell (USD notional per level and column)"),
      levels: z
        .array(z.string())
        .describe(
          "one string per price bin (as rows), one digit per time bin (as cols): its mean cell, 0 = empty, k (1–9) = in ((k−1)/9, k/9] of hottest",
        ),
    })
    .optional()
    .describe("re-binned matrix (at most 24 × 24), when requested"),
});
export type CompactHeatmapDigest = z.infer<typeof compactHeatmapDigestSchema>;

/** Percentages to 2 decimals and shares to 4, as the text prints them. */
const pct = (x: number) => Number(x.toFixed(2)) + 0;
const share = (x: number) => Number(x.toFixed(4)) + 0;

function cluster(c: HeatmapCluster): z.infer<typeof clusterSchema> {
  return {
    low: num(c.low),
    high: num(c.high),
    levels: c.levels,
    intensity: num(c.intensity),
    share: share(c.share),
    peak: num(c.peak),
    widthPercent: pct(c.widthPercent),
    edgePercent: pct(c.distanceEdgePercent),
    peakPercent: pct(c.distancePeakPercent),
  };
}

function side(s: NonNullable<HeatmapDigest["latest"]>["above"]): z.infer<typeof sideSchema> {
  // As the text names them: nearest and largest, then the rest of the side's top_k.
  const named = (c: HeatmapCluster) => c.low === s.largest?.low || c.low === s.nearest?.low;
  const also = s.top.filter((c) => !named(c)).slice(0, Math.max(0, s.top.length - (s.largest?.low === s.nearest?.low ? 1 : 2)));
  return defined({
    largest: s.largest && cluster(s.largest),
    nearest: s.nearest && cluster(s.nearest),
    also: also.length ? also.map(cluster) : undefined,
  });
}

/** The coarse matrix as the text writes it: a digit per bin against the hottest bin (the full matrix is the resource). */
function binned(m: NonNullable<HeatmapDigest["matrix"]>): NonNullable<CompactHeatmapDigest["binned"]> {
  let max = 0;
  for (const row of m.cells) for (const v of row) if (v > max) max = v;
  return {
    rows: m.rows.map((r) => [num(r.low), num(r.high)] as [number, number]),
    cols: m.cols.map((c) => (c.start === null ? "" : when(c.start))),
    hottest: num(max),
    levels: m.cells.map((row) => row.map((v) => cellLevel(v, max)).join("")),
  };
}

type Compact = CompactHeatmapDigest;
const t = (iso: string | null) => (iso === null ? undefined : when(iso));

export function compactHeatmapDigest(d: HeatmapDigest): CompactHeatmapDigest {
  const { shape, latest, peak, topTraderLsr: lsr, candles, matrix } = d;
  return defined({
    timeframe: d.source.timeframe,
    lookback: d.source.lookback,
    scope: d.source.scope,
    exchange: d.source.exchange,
    // The matrix's latest column, said once (matrix.to) unless the version names another time.
    version: d.source.version && d.source.version !== shape.timeTo ? when(d.source.version) : undefined,
    priceSource: d.source.priceSource ?? undefined,
    anchor: d.anchor.price === null ? undefined : ([d.anchor.time ? when(d.anchor.time) : "", num(d.anchor.price)] as [string, number]),
    anchorSource: d.anchor.source === "df_close" ? undefined : d.anchor.source,
    matrix: shapeOf(shape),
    columnTotals:
      shape.columnTotals &&
      defined({
        latest: num(shape.columnTotals.latest),
        mean: num(shape.columnTotals.mean),
        max: num(shape.columnTotals.max),
        maxTime: t(shape.columnTotals.maxTime),
      }),
    latest: latest && latestOf(latest, shape.timeTo),
    peak:
      peak &&
      defined({
        price: num(peak.price),
        time: t(peak.time),
        intensity: num(peak.intensity),
        ageColumns: peak.ageColumns,
        ageMs: peak.ageMs ?? undefined,
      }),
    topTraderLsr: lsr && {
      venue: lsr.venue,
      latest: pair({ time: lsr.latestTime, value: lsr.latest }),
      min: pair({ time: lsr.minTime, value: lsr.min }),
      max: pair({ time: lsr.maxTime, value: lsr.max }),
      mean: num(lsr.mean),
      count: lsr.count,
    },
    candles: candles && candlesOf(candles),
    binned: matrix && binned(matrix),
  });
}

function shapeOf(shape: HeatmapDigest["shape"]): Compact["matrix"] {
  return defined({
    rows: shape.rows,
    cols: shape.cols,
    // At a model's precision: a float step's noise (3.000000000000056e-8) costs tokens and says nothing.
    priceStep: shape.priceStep === null ? undefined : num(shape.priceStep),
    priceLow: shape.priceLow === null ? undefined : num(shape.priceLow),
    priceHigh: shape.priceHigh === null ? undefined : num(shape.priceHigh),
    from: t(shape.timeFrom),
    to: t(shape.timeTo),
  });
}

/** The latest column: its time only where it is not the matrix's last (matrix.to). */
function latestOf(latest: NonNullable<HeatmapDigest["latest"]>, matrixTo: string | null): NonNullable<Compact["latest"]> {
  return defined({
    time: latest.time === matrixTo ? undefined : t(latest.time),
    total: num(latest.total),
    maxCell: num(latest.maxCell),
    maxCellPrice: latest.maxCellPrice === null || latest.maxCellPrice === undefined ? undefined : num(latest.maxCellPrice),
    bands: Object.fromEntries(
      latest.bands.map((b) => [
        String(b.percent),
        { above: num(b.above), below: num(b.below), ...(b.narrowerThanSpacing && { narrowerThanSpacing: true as const }) },
      ]),
    ),
    imbalance: latest.imbalance === null ? undefined : share(latest.imbalance),
    clusterThreshold: num(latest.clusterThreshold),
    clusterFraction: num(latest.clusterFraction),
    above: side(latest.above),
    below: side(latest.below),
  });
}

function candlesOf(candles: NonNullable<HeatmapDigest["candles"]>): NonNullable<Compact["candles"]> {
  return defined({
    count: candles.count,
    from: when(candles.from),
    to: when(candles.to),
    open: num(candles.open),
    close: num(candles.close),
    high: num(candles.high),
    low: num(candles.low),
    changePercent: candles.changePercent === null ? undefined : num(candles.changePercent),
  });
}
