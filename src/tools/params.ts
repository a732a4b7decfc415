// Tool arguments shared across tools, defined once; descriptions are kept to what a model cannot
// infer from the name, because every word here is paid for in tokens on each tools/list.
import { z } from "zod";

import { MARKET_TYPES } from "../catalog/index.js";
import { DEFAULT_MAX_POINTS, MAX_POINTS_LIMIT, MIN_POINTS } from "../summary/series/series.js";

export const assetParam = z.string().max(40);

/** Date format: see DATES_NOTE (in the server instructions). */
export const startDateParam = z.string().max(40).optional();
export const endDateParam = z.string().max(40).optional();

export const maxPointsParam = z
  .number()
  .int()
  .min(MIN_POINTS)
  .max(MAX_POINTS_LIMIT)
  .optional()
  .describe(`Default up to ${DEFAULT_MAX_POINTS}, fewer for long values`);

export const venueParam = z.string().max(64).optional();

export const marketTypeParam = z.enum(MARKET_TYPES).optional();

/** The date format, stated once in the server instructions rather than on every date field. */
export const DATES_NOTE = "Dates YYYY-MM-DD or ISO, inclusive; default last 1,000 buckets.";

/**
 * Opt-in PNG: image content costs some clients thousands of tokens. No description: the name says
 * it, and tools/list has no tokens to spare with six tools.
 */
export const chartParam = z.boolean().optional();

/**
 * A list of strings of at most `maxCount` items; a comma-separated string is taken as the same list
 * (scripts and CLIs send those). Tools check the count they accept themselves, with a message that
 * says the fix; the schema's cap only bounds the input.
 */
export function tickerList(maxLength: number, maxCount = 16) {
  const split = (v: unknown) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : v;
  return z.preprocess(split, z.array(z.string().max(maxLength)).max(maxCount)).optional();
}
