// The service's response bodies as zod schemas derived from the catalog: the HTTP backend validates
// upstream bodies with them (responses.ts holds the types every backend returns).
import { z } from "zod";

import type { Endpoint } from "./endpoints.js";
import type { TimeRecord } from "./responses.js";

export const isoDateTime = z.string().min(10).max(40);

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
export const variationSchema = z.array(variationRecordSchema);

export const candleSchema = z.object({
  date: isoDateTime,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
});

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
