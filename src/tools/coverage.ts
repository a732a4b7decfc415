// Catalog checks tools make before calling the backend: which tool serves an endpoint, whether an
// asset is covered, and the did-you-mean errors when it is not (nothing is charged for these).
import {
  ASSET_PATTERN,
  ENDPOINTS,
  KNOWN_ASSETS,
  coverage,
  covers,
  editDistance,
  endpointById,
  endpointsForAsset,
  nearestAssets,
  nearestEndpoints,
  type Endpoint,
  type EndpointKind,
} from "../catalog/index.js";
import { ToolInputError } from "./errors.js";

export const TOOL_OF_KIND: Record<EndpointKind, string> = {
  ohlcv: "get_ohlcv",
  series: "get_series",
  variation: "get_metrics_variation",
  heatmap: "get_liquidation_heatmap",
};

/** Coverage lists longer than this are summarised by size in error text. */
const LIST_INLINE = 12;

/** Trimmed, lowercased ticker; rejects what no endpoint could ever accept. */
export function normalizeAsset(raw: string): string {
  const asset = raw.trim().toLowerCase();
  if (!ASSET_PATTERN.test(asset)) {
    throw new ToolInputError(
      "invalid_arguments",
      `asset must be a lowercase ticker of letters, digits or _ (got ${JSON.stringify(raw.slice(0, 40))}), e.g. btc. list_assets search=<text> finds tickers.`,
      { parameter: "asset" },
    );
  }
  return asset;
}

export function requireEndpoint(id: string, kinds?: readonly EndpointKind[]): Endpoint {
  const endpoint = endpointById(id);
  if (endpoint && (!kinds || kinds.includes(endpoint.kind))) return endpoint;
  if (endpoint) {
    throw new ToolInputError("unknown_metric", `metric "${id}" is served by ${TOOL_OF_KIND[endpoint.kind]}, not this tool.`, {
      parameter: "metric",
    });
  }
  const pool = ENDPOINTS.filter((e) => !kinds || kinds.includes(e.kind)).map((e) => e.id);
  const near = nearestEndpoints(id, pool, 3);
  const hint = near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : "";
  throw new ToolInputError(
    "unknown_metric",
    `Unknown metric "${id.slice(0, 64)}".${hint} Ids are case-sensitive, group/segment as in list_assets.`,
    { parameter: "metric", suggestions: near },
  );
}

/** Throws the did-you-mean error when the endpoint carries no data for the asset. */
export function requireCoverage(endpoint: Endpoint, asset: string): void {
  if (covers(endpoint, asset)) return;
  const members = coverage(endpoint) ?? [];
  const listed = members.length <= LIST_INLINE ? members.join(", ") : `${members.length} assets`;
  const known = KNOWN_ASSETS.includes(asset);
  // A real ticker this metric lacks gets pointed at its other metrics, not at look-alike tickers.
  const inCoverage = known ? [] : closest(asset, members);
  const candidates = known ? [] : inCoverage.length ? inCoverage : closest(asset, KNOWN_ASSETS);
  const parts = [`Asset "${asset}" is not covered by ${endpoint.id} (covers ${listed}).`];
  if (candidates.length) parts.push(`Did you mean ${candidates.map((c) => `"${c}"`).join(" or ")}?`);
  if (known) parts.push(`${endpointsForAsset(asset).length} other endpoints cover ${asset}: list_assets asset=${asset}.`);
  else parts.push("list_assets shows coverage.");
  throw new ToolInputError(known ? "asset_not_supported" : "unknown_asset", parts.join(" "), {
    parameter: "asset",
    suggestions: candidates,
  });
}

/** The nearest candidates, keeping only those tied for the smallest distance (one clear answer when there is one). */
export function closest(input: string, pool: readonly string[]): string[] {
  const near = nearestAssets(input, pool, 3);
  if (near.length === 0) return near;
  const best = editDistance(input, near[0]!);
  return near.filter((c) => editDistance(input, c) === best);
}
