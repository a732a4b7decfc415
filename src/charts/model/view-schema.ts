// The chart data a view draws, as zod: the source of the view types (types.ts infers them). It reaches
// views in a result's _meta or through view_data (tools/view-data.ts), never in structuredContent; the
// tools' output schemas still name an optional `view` member, which no answer sends.
import { z } from "zod";

const candleColumns = {
  open: z.array(z.number().nullable()),
  high: z.array(z.number().nullable()),
  low: z.array(z.number().nullable()),
  close: z.array(z.number().nullable()),
};

/** Column-aligned OHLC; null where a column has no candle. */
export const columnCandlesSchema = z.object(candleColumns);

export const heatmapMarkSchema = z.object({
  kind: z.enum(["nearest", "largest"]),
  side: z.enum(["above", "below"]),
  low: z.number(),
  high: z.number(),
  /** USD notional of the cluster in the latest column. */
  intensity: z.number(),
  distancePercent: z.number(),
});

export const heatmapViewSchema = z.object({
  kind: z.literal("heatmap"),
  asset: z.string(),
  timeframe: z.string(),
  lookback: z.string(),
  scope: z.string(),
  exchange: z.string(),
  rows: z.number().int(),
  cols: z.number().int(),
  /** Price at the centre of row 0 (the lowest band). */
  priceLow: z.number(),
  /** The price distance between rows. */
  priceStep: z.number(),
  /** Start of each column (epoch ms), ascending; a column lasts columnMs. */
  times: z.array(z.number()),
  columnMs: z.number(),
  /** USD value of the largest cell. */
  zMax: z.number(),
  z: z.string().describe("base64 little-endian uint16 cells, row-major from the lowest price; value = q / 65535 × zMax"),
  /** How a cell was formed from the service's matrix. */
  cellRule: z.string(),
  candles: columnCandlesSchema,
  last: z.object({ price: z.number(), time: z.number() }).nullable(),
  marks: z.array(heatmapMarkSchema),
  /** What the view may ask for next: timeframes, the lookbacks each one accepts, venue ids. */
  choices: z.object({
    timeframes: z.array(z.string()),
    lookbacks: z.record(z.string(), z.array(z.string())),
    exchanges: z.array(z.string()),
  }),
});

export const seriesLineSchema = z.object({
  label: z.string(),
  unit: z.string(),
  times: z.array(z.number()),
  values: z.array(z.number()),
  /** Each value is an amount per bucket (a flow): drawn as bars. */
  bars: z.boolean().optional(),
});

export const seriesViewSchema = z.object({
  kind: z.literal("series"),
  title: z.string(),
  series: z.array(seriesLineSchema),
  candles: z.object({ times: z.array(z.number()), ...candleColumns }).optional(),
  /** One series; several rebased to 100 at their first common time; or two units on twin axes. */
  layout: z.enum(["single", "rebased", "twin"]),
});

export const chartViewSchema = z.discriminatedUnion("kind", [heatmapViewSchema, seriesViewSchema]);

export const viewField = {
  view: chartViewSchema.optional().describe("chart data for MCP Apps views (only for clients that declare the UI extension)"),
};
