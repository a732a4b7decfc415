// Serialized success bodies kept for repeated requests (the REST face's): a body is a pure
// function of the resolved request, so a repeat may get the same bytes without regenerating them.
import type { LRUCache } from "lru-cache";

import { DAY_MS, type Endpoint, MINUTE_MS, TIMEFRAME_MS } from "../../catalog/index.js";
import type { Params } from "./request-params.js";

/**
 * Identity of a success body: requests with the same key get the same bytes. Series use their
 * bucket grid (any bounds selecting the same buckets select the same records). The heatmap and
 * the variation table depend on "now" only through the bucket it falls in (the heatmap's last
 * column, the variation's last day), so that bucket is part of theirs: polls within it are repeats.
 */
export function bodyKey(endpoint: Endpoint, asset: string, params: Params, nowMs: number): string {
  // The data runs to the last whole minute: the heatmap's last candle stops there.
  const minute = Math.floor(nowMs / MINUTE_MS);
  if (params.kind === "heatmap") {
    return [endpoint.id, asset, minute, params.timeframe, params.lookback, params.scope, params.exchange].join("|");
  }
  if (params.kind === "variation") return [endpoint.id, asset, Math.floor(nowMs / DAY_MS)].join("|");
  const step = endpoint.kind === "ohlcv" ? TIMEFRAME_MS[params.timeframe] : DAY_MS;
  const { timeframe, exchange, symbol, marketType, entityName } = params;
  // A range reaching the bucket now falls in changes with every minute (that bucket is partial);
  // daily metrics change with the day (the last complete day).
  const reach = endpoint.kind === "ohlcv" ? Math.floor(Math.min(params.endMs, nowMs) / MINUTE_MS) : Math.floor(nowMs / DAY_MS);
  return [
    endpoint.id,
    asset,
    timeframe,
    exchange,
    symbol,
    marketType,
    entityName,
    Math.ceil(params.startMs / step),
    Math.floor(params.endMs / step),
    reach,
  ].join("|");
}

export type BodyCache = LRUCache<string, Buffer>;
