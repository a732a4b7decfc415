// The metrics-variation through the real service, with the daily closes the embedded service puts
// beside it: read from the service's price source (the heatmap's candles, one heatmap call and its
// cost), so get_metrics_variation carries the same price row through either backend.
import { isoDay } from "../../catalog/dates.js";
import { DAY_MS, PRICE_ID } from "../../catalog/index.js";
import { type BackendRequest, type BackendResult, ServiceError } from "../types.js";

/** Days of closes asked: the variation's day, the day before it, and margin for a day the service has not closed. */
const CLOSE_DAYS = 9;

/**
 * `result` with `candles` (daily closes up to now) and both calls' charges. A key the price source
 * refuses (a metric restriction, no credits left for the heatmap) keeps the variation without its
 * price row: the table is what was asked for.
 */
export async function withDailyCloses(
  result: BackendResult,
  asset: string,
  nowMs: number,
  fetchPrice: (request: BackendRequest) => Promise<BackendResult>,
): Promise<BackendResult> {
  if (result.kind !== "variation" || result.candles) return result;
  const startDate = isoDay(Math.floor(nowMs / DAY_MS) * DAY_MS - CLOSE_DAYS * DAY_MS);
  let price: BackendResult;
  try {
    price = await fetchPrice({ endpoint: PRICE_ID, asset, query: { timeframe: "1d", startDate } });
  } catch (error) {
    if (error instanceof ServiceError && error.status >= 400 && error.status < 500) return result;
    throw error;
  }
  if (price.kind !== "candles") return result;
  const charged = result.usage.charged + price.usage.charged;
  const creditsRemaining = price.usage.creditsRemaining ?? result.usage.creditsRemaining;
  return {
    ...result,
    candles: price.candles,
    usage: creditsRemaining === undefined ? { charged } : { charged, creditsRemaining },
    ...(result.asOfMs === undefined && price.asOfMs !== undefined && { asOfMs: price.asOfMs }),
  };
}
