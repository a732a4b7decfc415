// Catalog checks tools make before calling the backend: which tool serves an endpoint, whether an
// asset is covered, and the did-you-mean errors when it is not (nothing is charged for these).
import type { Backend, BackendRequest } from "../backend/types.js";
import {
  ASSET_PATTERN,
  assetName,
  assetsByName,
  coverage,
  covers,
  DAY_MS,
  editDistance,
  type Endpoint,
  type EndpointKind,
  ENDPOINTS,
  endpointsForAsset,
  KNOWN_ASSETS,
  metricById,
  nearestAssets,
  nearestEndpoints,
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

/**
 * Trimmed, lowercased ticker; rejects what no endpoint could ever accept. A name people use
 * ("usd coin") is answered with its ticker, among those `endpoint` covers when one is given.
 */
export function normalizeAsset(raw: string, endpoint?: Endpoint): string {
  const asset = raw.trim().toLowerCase();
  if (!ASSET_PATTERN.test(asset)) {
    const named = assetsByName(raw, endpoint ? (coverage(endpoint) ?? KNOWN_ASSETS) : KNOWN_ASSETS).slice(0, 3);
    const elsewhere = named.length || !endpoint ? [] : assetsByName(raw).slice(0, 3);
    const hint = named.length
      ? ` Did you mean ${named.map(labelled).join(" or ")}?`
      : elsewhere.length
        ? ` "${raw.slice(0, 40)}" is the name of ${elsewhere.join(", ")}, which ${endpoint!.id} does not cover.`
        : "";
    throw new ToolInputError(
      "invalid_arguments",
      `asset must be a lowercase ticker of letters, digits or _ (got ${JSON.stringify(raw.slice(0, 40))}), e.g. btc.${hint} list_assets search=<name> finds tickers.`,
      { parameter: "asset", ...(named.length && { suggestions: named }) },
    );
  }
  return asset;
}

/** `"usdc" (USD Coin)`: a suggested ticker with the name that led to it. */
export function labelled(ticker: string): string {
  const name = assetName(ticker);
  return name && name.toLowerCase() !== ticker ? `"${ticker}" (${name})` : `"${ticker}"`;
}

/** Tickers of the pool the input may mean: by name or alias first ("bitcoin" → btc), else by spelling. */
export function suggestAssets(input: string, pool: readonly string[]): string[] {
  const named = assetsByName(input, pool).slice(0, 3);
  return named.length ? named : closest(input, pool);
}

export function requireEndpoint(id: string, kinds?: readonly EndpointKind[]): Endpoint {
  const endpoint = metricById(id);
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

/**
 * Throws the did-you-mean error when the endpoint carries no data for the asset. Suggestions are
 * only tickers the endpoint covers; a name of an uncovered ticker is explained, not proposed.
 */
export function requireCoverage(endpoint: Endpoint, asset: string): void {
  if (covers(endpoint, asset)) return;
  const members = coverage(endpoint) ?? [];
  const listed = members.length <= LIST_INLINE ? members.join(", ") : `${members.length} assets`;
  const known = KNOWN_ASSETS.includes(asset);
  // A real ticker this metric lacks gets pointed at its other metrics, not at look-alike tickers.
  const candidates = known ? [] : suggestAssets(asset, members);
  const elsewhere = known || candidates.length ? [] : assetsByName(asset).slice(0, 3);
  const parts = [`Asset "${asset}" is not covered by ${endpoint.id} (covers ${listed}).`];
  if (candidates.length) parts.push(`Did you mean ${candidates.map(labelled).join(" or ")}?`);
  if (elsewhere.length) parts.push(`"${asset}" is the name of ${elsewhere.join(", ")}, which ${endpoint.id} does not cover.`);
  if (known) parts.push(`${endpointsForAsset(asset).length} other endpoints cover ${asset}: list_assets asset=${asset}.`);
  else parts.push("list_assets shows coverage.");
  throw new ToolInputError(known || elsewhere.length ? "asset_not_supported" : "unknown_asset", parts.join(" "), {
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

const DAY = DAY_MS;

/** A bucket start as the caller wrote dates: the day alone for daily buckets, else day and time (UTC). */
function when(ms: number, stepMs: number): string {
  const iso = new Date(ms).toISOString();
  return stepMs >= DAY && ms % DAY === 0 ? iso.slice(0, 10) : `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * Refuses, before any call or charge, a range the backend knows lies wholly outside the series'
 * history, naming the span that exists. Backends that cannot tell (the real service) are asked.
 */
export function requireInHistory(backend: Backend, request: BackendRequest, stepMs: number): void {
  const span = backend.span?.(request);
  if (!span) return;
  const what = `${request.asset} ${request.endpoint}`;
  const { history, startMs, endMs } = span;
  if (history === null) {
    throw new ToolInputError(
      "invalid_parameter",
      `${what} has no data at all: list_assets asset=${request.asset} shows the metrics that have.`,
      { parameter: "asset" },
    );
  }
  const after = startMs > history.lastMs;
  const before = endMs < history.firstMs;
  if (!after && !before) return;
  const exists = `its history runs ${when(history.firstMs, stepMs)} to ${when(history.lastMs, stepMs)}`;
  // The bound as the caller wrote it (a date-only endDate means the end of that day).
  const given = (name: "startDate" | "endDate", ms: number) => request.query[name]?.slice(0, 40) ?? when(ms, stepMs);
  const asked = after
    ? `startDate ${given("startDate", startMs)} is after its last data`
    : `endDate ${given("endDate", endMs)} is before its first data`;
  throw new ToolInputError("invalid_parameter", `No data: ${asked} (${what}: ${exists}). Ask within that span.`, {
    parameter: after ? "startDate" : "endDate",
  });
}
