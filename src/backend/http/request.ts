// Turns a BackendRequest into the upstream path and query, plus a normalized cache key.
import { ASSET_PATTERN, type Endpoint, pathOf } from "../../catalog/index.js";
import { type BackendRequest, ServiceError } from "../types.js";

export interface UpstreamRequest {
  endpoint: Endpoint;
  asset: string;
  /** Path and query relative to the base URL's path, e.g. `/btc/lifespan/Lth_mvrv?startDate=…`. */
  pathAndQuery: string;
  /** The same request with its query sorted: equal requests give equal keys. */
  cacheKey: string;
}

/** Lowercase tickers as the service writes them (the catalog's rule); anything else never reaches a URL. */
export function assertAsset(asset: string, endpoint: Endpoint): void {
  if (!ASSET_PATTERN.test(asset)) {
    throw new ServiceError(
      404,
      "asset_not_supported",
      `Asset "${asset.slice(0, 32)}" is not a valid ticker: use a lowercase ticker such as btc or eth (list_assets shows coverage).`,
      {
        endpoint: endpoint.id,
      },
    );
  }
}

/**
 * The heatmap takes its asset first in the query ("in this order", says the spec); every other
 * endpoint carries the asset in its path. Omitted and empty values are not sent.
 */
export function buildUpstreamRequest(endpoint: Endpoint, request: BackendRequest): UpstreamRequest {
  assertAsset(request.asset, endpoint);
  const entries: [string, string][] = [];
  if (endpoint.kind === "heatmap") entries.push(["asset", request.asset]);
  const known = endpoint.params.filter((p) => p !== "asset");
  const extra = Object.keys(request.query)
    .filter((k) => !known.includes(k as never) && k !== "asset")
    .sort();
  for (const name of [...known, ...extra]) {
    const value = request.query[name];
    if (value !== undefined && value !== "") entries.push([name, value]);
  }
  const path = pathOf(endpoint, encodeURIComponent(request.asset));
  const query = new URLSearchParams(entries).toString();
  const sorted = new URLSearchParams([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
  return {
    endpoint,
    asset: request.asset,
    pathAndQuery: query ? `${path}?${query}` : path,
    cacheKey: sorted ? `${path}?${sorted}` : path,
  };
}
