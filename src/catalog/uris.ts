// Resource URIs: the templates clients see and the builders tools use to link the full data behind a
// digest (the matcher that reads them is resources/uri-template.ts).
import { type Endpoint, endpointById, ENDPOINTS, HEATMAP_ID } from "./index.js";

export const SCHEME = "crypto-metrics";
export const CATALOG_URI = `${SCHEME}://catalog`;

/** Every query parameter of the series and OHLCV endpoints, in catalog order. */
const SERIES_QUERY = [...new Set(ENDPOINTS.filter((e) => e.kind === "series" || e.kind === "ohlcv").flatMap((e) => e.params))];
/** The heatmap's parameters but its asset, which the template carries in the path. */
const HEATMAP_QUERY = endpointById(HEATMAP_ID)!.params.filter((p) => p !== "asset");

export const SERIES_TEMPLATE = `${SCHEME}://series/{asset}/{group}/{segment}{?${SERIES_QUERY.join(",")}}`;
export const HEATMAP_TEMPLATE = `${SCHEME}://heatmap/{asset}{?${HEATMAP_QUERY.join(",")}}`;
export const VARIATION_TEMPLATE = `${SCHEME}://variation/{asset}`;

function withQuery(base: string, query: Readonly<Record<string, string | undefined>>, order: readonly string[]): string {
  const pairs = order
    .filter((name) => query[name] !== undefined && query[name] !== "")
    .map((name) => `${name}=${encodeURIComponent(query[name]!)}`);
  return pairs.length ? `${base}?${pairs.join("&")}` : base;
}

export function seriesResourceUri(endpoint: Endpoint, asset: string, query: Readonly<Record<string, string | undefined>>): string {
  return withQuery(`${SCHEME}://series/${encodeURIComponent(asset)}/${endpoint.group}/${endpoint.segment}`, query, SERIES_QUERY);
}

export function heatmapResourceUri(asset: string, query: Readonly<Record<string, string | undefined>>): string {
  return withQuery(`${SCHEME}://heatmap/${encodeURIComponent(asset)}`, query, HEATMAP_QUERY);
}

export function variationResourceUri(asset: string): string {
  return `${SCHEME}://variation/${encodeURIComponent(asset)}`;
}
