// What a request to the real service will cost before it is sent: the catalog's documented costs
// (the service publishes none) per upstream call, nothing for a call the response cache answers.
// Price is one heatmap call; a range wider than one response is one call per window.
import { creditCost, DEFAULT_BUCKETS, type Endpoint, endpointById, HEATMAP_ID, PRICE_ID } from "../../catalog/index.js";
import { type BackendRequest, ServiceError } from "../types.js";
import { planPrice } from "./heatmap-candles.js";
import { bucketMs, parseBound, planWindows } from "./paging.js";
import { buildUpstreamRequest } from "./request.js";

export interface QuoteEnv {
  nowMs: number;
  perWindow: number;
  /** Whether the response cache would answer this upstream call for the caller's key. */
  cached(endpoint: Endpoint, cacheKey: string): boolean;
}

/** Records a single records call returns: the asked range in buckets, or the service's default count. */
function expectedRecords(endpoint: Endpoint, query: BackendRequest["query"], nowMs: number): number {
  if (query.startDate === undefined) return DEFAULT_BUCKETS;
  const start = parseBound(query.startDate, false);
  const end = query.endDate === undefined ? nowMs : Math.min(nowMs, parseBound(query.endDate, true));
  const step = bucketMs(endpoint, query);
  return Number.isFinite(start) && Number.isFinite(end) && end >= start ? Math.floor((end - start) / step) + 1 : DEFAULT_BUCKETS;
}

export function quoteRequest(request: BackendRequest, env: QuoteEnv): number {
  let upstream = request;
  if (request.endpoint === PRICE_ID) {
    const { timeframe, lookback } = planPrice(request.query, env.nowMs);
    upstream = { endpoint: HEATMAP_ID, asset: request.asset, query: { timeframe, lookback } };
  }
  const endpoint = endpointById(upstream.endpoint);
  if (!endpoint)
    throw new ServiceError(404, "not_found", `Unknown endpoint "${upstream.endpoint.slice(0, 80)}"; list_assets shows the endpoint ids.`);
  const windows = endpoint.kind === "heatmap" ? null : planWindows(endpoint, upstream.query, env.nowMs, env.perWindow);
  const calls = windows ? windows.map((w) => ({ ...upstream, query: { ...upstream.query, ...w } })) : [upstream];
  let total = 0;
  for (const call of calls) {
    if (env.cached(endpoint, buildUpstreamRequest(endpoint, call).cacheKey)) continue;
    total += creditCost(endpoint, windows ? env.perWindow : expectedRecords(endpoint, call.query, env.nowMs));
  }
  return total;
}
