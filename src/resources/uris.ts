// Resource URIs: the templates clients see, builders tools use to link the full data behind a
// digest, and a template matcher that accepts optional query parameters in any order.
import { UriTemplate, type Variables } from "@modelcontextprotocol/server";
import { endpointById, ENDPOINTS, HEATMAP_ID, type Endpoint } from "../catalog/index.js";

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

/**
 * The SDK's matcher wants every `{?a,b}` parameter present and in order; ours matches the path part
 * with the SDK and then reads whichever query parameters the template names, in any order.
 * toString() stays the full RFC 6570 template, which is what clients list and complete against.
 */
export class QueryTolerantTemplate extends UriTemplate {
  private readonly pathTemplate: UriTemplate;
  private readonly queryNames: ReadonlySet<string>;

  constructor(template: string) {
    super(template);
    const cut = template.indexOf("{?");
    this.pathTemplate = new UriTemplate(cut === -1 ? template : template.slice(0, cut));
    this.queryNames = new Set(cut === -1 ? [] : template.slice(cut + 2, template.indexOf("}", cut)).split(","));
  }

  override match(uri: string): Variables | null {
    const q = uri.indexOf("?");
    const vars = this.pathTemplate.match(q === -1 ? uri : uri.slice(0, q));
    if (!vars) return null;
    const decoded: Variables = {};
    for (const [k, v] of Object.entries(vars)) decoded[k] = typeof v === "string" ? safeDecode(v) : v.map(safeDecode);
    if (q !== -1) {
      for (const [name, value] of new URLSearchParams(uri.slice(q + 1))) {
        if (!this.queryNames.has(name)) return null;
        // A repeated parameter is kept as a list, for the reader to refuse as the REST face does.
        const prior = decoded[name];
        decoded[name] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
      }
    }
    return decoded;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
