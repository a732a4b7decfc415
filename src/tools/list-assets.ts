// list_assets: the catalog as a model needs it: an overview, one metric's coverage, one asset's
// endpoints, or a search over tickers and endpoints.
import { z } from "zod";
import {
  ASSET_SETS,
  ENDPOINTS,
  KNOWN_ASSETS,
  VENUES,
  coverage,
  covers,
  endpointsForAsset,
  type Endpoint,
} from "../catalog/index.js";
import { defineTool } from "./define-tool.js";
import { TOOL_OF_KIND, closest, normalizeAsset, requireEndpoint } from "./coverage.js";

const endpointRow = z.object({
  id: z.string(),
  tool: z.string(),
  asset_set: z.string(),
  assets: z.number().nullable(),
  unit: z.string(),
  purpose: z.string(),
});
type EndpointRow = z.infer<typeof endpointRow>;

const output = z.object({
  view: z.enum(["overview", "metric", "asset", "search"]),
  endpoints: z.array(endpointRow),
  assets: z.array(z.string()).optional(),
  covered: z.boolean().optional(),
});
type Output = z.infer<typeof output>;

const SEARCH_LIMIT = 40;

export const listAssets = defineTool({
  name: "list_assets",
  title: "Catalog and coverage",
  description:
    "Coverage. No args: overview; metric: its assets; asset: its metrics; search: tickers and metrics.",
  input: z
    .object({
      metric: z.string().max(64).optional(),
      asset: z.string().max(40).optional(),
      search: z.string().max(40).optional(),
    })
    .strict(),
  output,
  async handle({ metric, asset, search }) {
    if (metric !== undefined) return metricView(metric, asset);
    if (asset !== undefined) return assetView(normalizeAsset(asset));
    if (search !== undefined && search.trim()) return searchView(search.trim().toLowerCase());
    return overview();
  },
});

function row(e: Endpoint): EndpointRow {
  const members = coverage(e);
  return { id: e.id, tool: TOOL_OF_KIND[e.kind], asset_set: e.assetSet, assets: members ? members.length : null, unit: e.unit, purpose: e.purpose };
}

function setShort(e: Endpoint): string {
  const members = coverage(e);
  if (!members) return "any ticker";
  if (members.length <= 3) return members.join("+");
  return `${e.assetSet.replace("M2_LEO", "M2+leo_eos")}·${members.length}`;
}

function overview(): { text: string; structured: Output } {
  const byKind = (kind: Endpoint["kind"]) => ENDPOINTS.filter((e) => e.kind === kind);
  const series = byKind("series");
  const groups = [...new Set(series.map((e) => e.group))];
  const seriesLines = groups.map((g) => `  ${g}: ${series.filter((e) => e.group === g).map((e) => `${e.segment} [${setShort(e)}]`).join(", ")}`);
  const ohlcv = byKind("ohlcv");
  const text = [
    `${ENDPOINTS.length} endpoints. [set·size] = assets covered.`,
    `get_ohlcv (set ${setShort(ohlcv[0]!)}; timeframe 1m–1d, ${VENUES.length} venues): ${ohlcv.map((e) => e.id).join(", ")}`,
    `get_series (${series.length} metrics, daily):`,
    ...seriesLines,
    `get_metrics_variation: every metric of one asset, 24h change + 7d sparkline (set ${setShort(byKind("variation")[0]!)})`,
    `get_liquidation_heatmap: liquidation clusters around the last price (set ${setShort(byKind("heatmap")[0]!)})`,
    "Drill down: list_assets metric=<id> (its assets), asset=<ticker> (its endpoints), search=<text>.",
  ].join("\n");
  return { text, structured: { view: "overview", endpoints: ENDPOINTS.map(row) } };
}

function metricView(id: string, rawAsset: string | undefined): { text: string; structured: Output } {
  const endpoint = requireEndpoint(id.trim());
  const members = coverage(endpoint);
  const params = endpoint.params.length ? endpoint.params.join(", ") : "none";
  const lines = [
    `${endpoint.id} (${TOOL_OF_KIND[endpoint.kind]}): ${endpoint.purpose}${endpoint.unit ? `; unit ${endpoint.unit}` : ""}; params ${params}.`,
    members
      ? `Covers ${ASSET_SETS[endpoint.assetSet].label}, ${members.length} assets: ${members.join(", ")}`
      : `Covers ${ASSET_SETS[endpoint.assetSet].label}.`,
  ];
  const structured: Output = { view: "metric", endpoints: [row(endpoint)], assets: members ? [...members] : [] };
  if (rawAsset !== undefined) {
    const asset = normalizeAsset(rawAsset);
    const covered = covers(endpoint, asset);
    structured.covered = covered;
    const near = covered || !members ? [] : closest(asset, members);
    lines.push(covered ? `${asset}: covered.` : `${asset}: not covered.${near.length ? ` Nearest covered: ${near.join(", ")}.` : ""}`);
  }
  return { text: lines.join("\n"), structured };
}

function assetView(asset: string): { text: string; structured: Output } {
  const found = endpointsForAsset(asset);
  const known = KNOWN_ASSETS.includes(asset);
  const lines = [`${asset}: ${found.length} endpoint${found.length === 1 ? "" : "s"}.`];
  if (!known) {
    const near = closest(asset, KNOWN_ASSETS);
    lines[0] = `${asset} is not a known ticker; only ${found.map((e) => e.id).join(", ")} accepts any ticker.${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : ""}`;
  } else {
    for (const kind of ["ohlcv", "series", "variation", "heatmap"] as const) {
      const list = found.filter((e) => e.kind === kind);
      if (!list.length) continue;
      if (kind === "variation" || kind === "heatmap") {
        lines.push(`${TOOL_OF_KIND[kind]}: yes`);
        continue;
      }
      const groups = [...new Set(list.map((e) => e.group))];
      const body = groups.map((g) => `${g}/${list.filter((e) => e.group === g).map((e) => e.segment).join(",")}`).join(" ");
      lines.push(`${TOOL_OF_KIND[kind]} (${list.length}): ${body}`);
    }
  }
  return { text: lines.join("\n"), structured: { view: "asset", endpoints: found.map(row), assets: [asset] } };
}

function searchView(query: string): { text: string; structured: Output } {
  const rank = (a: string) => (a === query ? 0 : a.startsWith(query) ? 1 : 2);
  const tickers = KNOWN_ASSETS.filter((a) => a.includes(query)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const endpoints = ENDPOINTS.filter((e) => e.id.toLowerCase().includes(query) || e.purpose.toLowerCase().includes(query));
  const shown = tickers.slice(0, SEARCH_LIMIT);
  const lines = [
    `Tickers matching "${query}" (${tickers.length}): ${shown.join(", ") || "none"}${tickers.length > shown.length ? ", …" : ""}`,
    `Endpoints (${endpoints.length}): ${endpoints.map((e) => `${e.id} (${TOOL_OF_KIND[e.kind]})`).join(", ") || "none"}`,
  ];
  if (!tickers.length && !endpoints.length) {
    const near = closest(query, KNOWN_ASSETS);
    if (near.length) lines.push(`Nearest tickers: ${near.join(", ")}.`);
  }
  return { text: lines.join("\n"), structured: { view: "search", endpoints: endpoints.map(row), assets: shown } };
}
