// Tool arguments shared across tools, defined once with descriptions written for a model.
import { z } from "zod";
import { DATE_FORMAT_HINT, LOOKBACKS, MARKET_TYPES, SCOPES, TIMEFRAMES } from "../catalog/index.js";

/** Longest string any argument accepts; tickers and ids are far shorter. */
export const MAX_ARG_LENGTH = 64;
export const DEFAULT_MAX_POINTS = 120;
export const MAX_POINTS_CAP = 5_000;

export const assetParam = z.string().min(1).max(40).describe("Lowercase ticker, e.g. btc, eth, sol");

export const startDateParam = z
  .string()
  .max(40)
  .optional()
  .describe(`Inclusive start, ${DATE_FORMAT_HINT.replace(" or ", " | ")}. Default: latest 1,000 buckets`);

export const endDateParam = z.string().max(40).optional().describe("Inclusive end, same format. Default: now");

export const maxPointsParam = z
  .number()
  .int()
  .min(2)
  .max(MAX_POINTS_CAP)
  .optional()
  .describe(`Points returned (default ${DEFAULT_MAX_POINTS}); longer series are LTTB-downsampled, the stats use every point`);

export const timeframeParam = z.enum(TIMEFRAMES).optional();

export const exchangeParam = z.string().max(MAX_ARG_LENGTH).optional();

export const symbolParam = z.string().max(24).optional();

export const marketTypeParam = z.enum(MARKET_TYPES).optional();

export const lookbackParam = z.enum(LOOKBACKS).optional();

export const scopeParam = z.enum(SCOPES).optional();
