// Shapes of the service's responses: what every backend returns. The zod schemas the HTTP backend
// validates upstream bodies with are in response-schemas.ts, which only it (and the output schemas
// that pick from them) loads: a call to the embedded service builds none of them.
import type { z } from "zod";

import type { candleSchema, heatmapSchema, variationRecordSchema } from "./response-schemas.js";

export interface TimeRecord {
  time: string;
  [field: string]: number | string;
}

export type VariationRecord = z.infer<typeof variationRecordSchema>;
/** A metrics-variation record's members, in the body's order (CSV columns when there are no records). */
export const VARIATION_FIELDS = [
  "position",
  "name",
  "collection",
  "field",
  "last_value",
  "variation_24h_percent",
  "sparkline_7d",
  "last_date",
] as const satisfies ReadonlyArray<keyof VariationRecord>;
export type Candle = z.infer<typeof candleSchema>;
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
