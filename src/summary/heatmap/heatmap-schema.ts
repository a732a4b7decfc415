// The structured shape of a liquidation-heatmap digest (the tools' outputSchema).
import { z } from "zod";

import { heatmapSchema } from "../../catalog/response-schemas.js";

const clusterSchema = z.object({
  side: z.enum(["above", "below"]),
  low: z.number().describe("price of the lowest level"),
  high: z.number().describe("price of the highest level"),
  levels: z.number().int(),
  intensity: z.number().describe("sum of the cluster's cells (USD notional)"),
  share: z.number().describe("share of the latest column's total, 0–1"),
  peak: z.number().describe("price of the hottest level"),
  peakIntensity: z.number(),
  width: z.number().describe("price width of its levels (levels × spacing)"),
  widthPercent: z.number().describe("width as % of the anchor price"),
  distanceEdgePercent: z.number().describe("signed % from the anchor price to the nearest edge"),
  distancePeakPercent: z.number().describe("signed % from the anchor price to the peak level"),
});

const sideSchema = z.object({
  largest: clusterSchema.nullable(),
  nearest: clusterSchema.nullable(),
  top: z.array(clusterSchema).describe("most intense clusters, most intense first"),
});

export const heatmapDigestSchema = z.object({
  source: heatmapSchema.pick({
    asset: true,
    timeframe: true,
    lookback: true,
    scope: true,
    exchange: true,
    version: true,
    priceSource: true,
  }),
  anchor: z.object({
    price: z.number().nullable(),
    time: z.string().nullable(),
    source: z.enum(["df_close", "price_axis_mid", "none"]).describe("last candle close, else the middle of the price axis"),
  }),
  shape: z.object({
    rows: z.number().int().describe("price levels"),
    cols: z.number().int().describe("time columns"),
    priceStep: z.number().nullable(),
    priceLow: z.number().nullable(),
    priceHigh: z.number().nullable(),
    timeFrom: z.string().nullable(),
    timeTo: z.string().nullable(),
    columnTotals: z
      .object({ latest: z.number(), mean: z.number(), max: z.number(), maxTime: z.string().nullable() })
      .nullable()
      .describe("total of each time column (the open notional at that time): the latest, the mean over columns, the largest and when"),
  }),
  latest: z
    .object({
      time: z.string().nullable(),
      total: z.number(),
      maxCell: z.number(),
      maxCellPrice: z.number().nullable().describe("price of the hottest level"),
      bands: z
        .array(z.object({ percent: z.number(), above: z.number(), below: z.number(), narrowerThanSpacing: z.boolean() }))
        .describe("intensity within ±percent of the anchor; narrowerThanSpacing: the band holds at most one level per side"),
      imbalance: z.number().nullable().describe("(above − below) / (above + below) within ±10 %; null when both are 0"),
      clusterThreshold: z.number().describe("minimum intensity of a cluster's peak level"),
      clusterFraction: z.number().describe("threshold as a fraction of the column's largest cell"),
      clusterEdgeFraction: z.number().describe("a cluster keeps the levels around its peak down to this fraction of the peak"),
      above: sideSchema,
      below: sideSchema,
    })
    .nullable()
    .describe("the latest column: the current liquidation map"),
  peak: z
    .object({
      price: z.number(),
      time: z.string().nullable(),
      intensity: z.number(),
      ageColumns: z.number().int(),
      ageMs: z.number().nullable(),
    })
    .nullable()
    .describe("hottest cell of the whole matrix and how long before the latest column it was"),
  topTraderLsr: z
    .object({
      venue: z.string().describe("venue whose top traders' positions the ratio reads"),
      latest: z.number(),
      latestTime: z.string(),
      min: z.number(),
      minTime: z.string(),
      max: z.number(),
      maxTime: z.string(),
      mean: z.number(),
      count: z.number().int(),
    })
    .nullable(),
  candles: z
    .object({
      count: z.number().int(),
      from: z.string(),
      to: z.string(),
      open: z.number(),
      close: z.number(),
      high: z.number(),
      low: z.number(),
      changePercent: z.number().nullable(),
    })
    .nullable(),
  matrix: z
    .object({
      rows: z.array(z.object({ low: z.number(), high: z.number(), levels: z.number().int() })).describe("price bins, ascending"),
      cols: z.array(z.object({ start: z.string().nullable(), columns: z.number().int() })).describe("time bins, ascending"),
      cells: z
        .array(z.array(z.number()))
        .describe("cells[row][col]: mean intensity of the original cells (price levels × columns) in the bin"),
    })
    .optional()
    .describe("re-binned matrix (at most 24 × 24), only when requested"),
});
export type HeatmapDigest = z.infer<typeof heatmapDigestSchema>;
export type HeatmapCluster = z.infer<typeof clusterSchema>;
