// Shapes of the service's responses, as zod schemas derived from the catalog. The HTTP backend
// validates upstream bodies with them; the types are what every backend returns.
import { z } from "zod";

import type { Endpoint } from "./endpoints.js";

export const isoDateTime = z.string().min(10).max(40);

export interface TimeRecord {
  time: string;
  [field: string]: number | string;
}

const recordSchemas = new Map<string, z.ZodType<TimeRecord[]>>();

/** Array of `{time, <field>}` records for a series or OHLCV endpoint. */
export function recordsSchema(endpoint: Endpoint): z.ZodType<TimeRecord[]> {
  let schema = recordSchemas.get(endpoint.id);
  if (!schema) {
    schema = z.array(z.object({ time: isoDateTime, [endpoint.field]: z.number() }).strict()) as unknown as z.ZodType<TimeRecord[]>;
    recordSchemas.set(endpoint.id, schema);
  }
  return schema;
}

export const variationRecordSchema = z.object({
  position: z.number(),
  name: z.string(),
  collection: z.string(),
  field: z.string(),
  last_value: z.number(),
  variation_24h_percent: z.number(),
  sparkline_7d: z.array(z.number()),
  /** Day (YYYY-MM-DD) of last_value: the last complete day, or the day a series ended. */
  last_date: z.string().optional(),
});
export type VariationRecord = z.infer<typeof variationRecordSchema>;
export const variationSchema = z.array(variationRecordSchema);

export const candleSchema = z.object({
  date: isoDateTime,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
});
export type Candle = z.infer<typeof candleSchema>;

export const heatmapSchema = z.object({
  asset: z.string(),
  timeframe: z.string(),
  lookback: z.string(),
  scope: z.string(),
  exchange: z.string(),
  version: z.string(),
  priceSource: z.string(),
  x: z.array(isoDateTime),
  y: z.array(z.number()),
  z: z.array(z.array(z.number().nullable())),
  df: z.array(candleSchema),
  topTraderLsr: z.array(z.object({ date: isoDateTime, value: z.number() })),
});
export type Heatmap = z.infer<typeof heatmapSchema>;

/** The fields a heatmap's JSON body and its typed form share, in the body's order. */
export type HeatmapHeading = Pick<Heatmap, "asset" | "timeframe" | "lookback" | "scope" | "exchange" | "version" | "priceSource">;

/** The shared fields of a heatmap in either form, copied in the body's order. */
export function heatmapHeading(h: HeatmapHeading): HeatmapHeading {
  return {
    asset: h.asset,
    timeframe: h.timeframe,
    lookback: h.lookback,
    scope: h.scope,
    exchange: h.exchange,
    version: h.version,
    priceSource: h.priceSource,
  };
}

/** A series as parallel columns: bucket starts (epoch ms) and values, ascending. */
export interface SeriesColumns {
  times: Float64Array;
  values: Float64Array;
}

/** OHLC candles as parallel columns: bucket starts (epoch ms, ascending, multiples of the step) and the four prices. */
export interface CandleColumns {
  times: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

/**
 * A liquidation heatmap as typed arrays: what digests and views read. The in-process service
 * builds it directly (its JSON body is written from it only when a reader asks); the HTTP backend
 * converts the JSON it receives into it once, at the boundary.
 */
export interface TypedHeatmap {
  asset: string;
  timeframe: string;
  lookback: string;
  scope: string;
  exchange: string;
  version: string;
  priceSource: string;
  /** Column start times (the body's `x`), epoch ms; NaN where an `x` is not a date. */
  times: Float64Array;
  /** The body's `x` as sent, kept only when some of it is not a date (digests then show the text). */
  labels?: readonly string[];
  /** Price levels (the body's `y`), one per row. */
  levels: Float64Array;
  /**
   * Intensities (the body's `z`), row-major: cells[row × times.length + col]. Null, NaN, negative,
   * infinite and missing cells are 0: every reader counts them as nothing. Each fetch gives its
   * caller a matrix of its own (no backend keeps or shares it): a caller done with it may release it
   * (releaseCells in heatmap-typed.ts).
   */
  cells: Float64Array;
  /** The body's `df`, in its order; times NaN where a date does not parse. */
  candles: CandleColumns;
  /** The body's `topTraderLsr`, in its order; times NaN where a date does not parse. */
  lsr: SeriesColumns;
}
