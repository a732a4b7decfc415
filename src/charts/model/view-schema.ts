// The zod shape of structuredContent.view (see types.ts): declared in the tools' output schemas so
// a result that carries it still validates. Only clients that render MCP Apps views receive it.
import { z } from "zod";

const candleColumns = {
  open: z.array(z.number().nullable()),
  high: z.array(z.number().nullable()),
  low: z.array(z.number().nullable()),
  close: z.array(z.number().nullable()),
};

export const heatmapViewSchema = z.object({
  kind: z.literal("heatmap"),
  asset: z.string(),
  timeframe: z.string(),
  lookback: z.string(),
  scope: z.string(),
  exchange: z.string(),
  rows: z.number().int(),
  cols: z.number().int(),
  priceLow: z.number(),
  priceStep: z.number(),
  times: z.array(z.number()),
  columnMs: z.number(),
  zMax: z.number(),
  z: z.string().describe("base64 little-endian uint16 cells, row-major from the lowest price; value = q / 65535 × zMax"),
  cellRule: z.string(),
  candles: z.object(candleColumns),
  last: z.object({ price: z.number(), time: z.number() }).nullable(),
  marks: z.array(
    z.object({
      kind: z.enum(["nearest", "largest"]),
      side: z.enum(["above", "below"]),
      low: z.number(),
      high: z.number(),
      intensity: z.number(),
      distancePercent: z.number(),
    }),
  ),
  choices: z.object({ timeframes: z.array(z.string()), lookbacks: z.record(z.string(), z.array(z.string())), exchanges: z.array(z.string()) }),
});

export const seriesViewSchema = z.object({
  kind: z.literal("series"),
  title: z.string(),
  series: z.array(z.object({ label: z.string(), unit: z.string(), times: z.array(z.number()), values: z.array(z.number()) })),
  candles: z.object({ times: z.array(z.number()), ...candleColumns }).optional(),
  layout: z.enum(["single", "rebased", "twin"]),
});

export const viewField = {
  view: z
    .discriminatedUnion("kind", [heatmapViewSchema, seriesViewSchema])
    .optional()
    .describe("chart data for MCP Apps views (only for clients that declare the UI extension)"),
};
