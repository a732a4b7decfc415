// list_assets: the catalog as a model needs it: an overview, one metric's coverage, one asset's
// endpoints, or a search over tickers and endpoints.
import { z } from "zod";

import {
  ASSET_SETS,
  assetName,
  coverage,
  covers,
  type Endpoint,
  ENDPOINTS,
  endpointsForAsset,
  GATED,
  gateOf,
  KNOWN_ASSETS,
  metricById,
  PRICE,
  PRICE_ID,
  VENUES,
} from "../catalog/index.js";
import { labelled, normalizeAsset, requireEndpoint, suggestAssets, TOOL_OF_KIND } from "../mcp/lookup.js";
import { defineTool } from "./define-tool.js";
import { COLUMNS, type Output, output, rows } from "./list-assets-output.js";
import { searchQuery, searchView } from "./list-assets-search.js";

const DRILL_DOWN = "Drill down: list_assets metric=<id> (its assets), asset=<ticker> (its endpoints), search=<text>.";

export const listAssets = defineTool({
  name: "list_assets",
  title: "Catalog and coverage",
  description: "Coverage: overview, or a metric's assets, an asset's metrics, a search.",
  input: z
    .object({
      metric: z.string().max(64).optional(),
      asset: z.string().max(40).optional(),
      search: z.string().max(40).optional(),
    })
    .strict(),
  example: { metric: "lifespan/Lth_mvrv" },
  output,
  async handle({ metric, asset, search }, context) {
    const view =
      metric !== undefined
        ? metricView(metric, asset)
        : asset !== undefined
          ? assetView(normalizeAsset(asset))
          : search !== undefined
            ? searchView(searchQuery(search))
            : overview();
    return withEntitlements(view, context?.backend.entitlements?.(context.call));
  },
});

/** Marks what a restricted key may call: a flag per endpoint row and one line of text. */
function withEntitlements(
  view: { text: string; structured: Output },
  allowed: readonly string[] | null | undefined,
): { text: string; structured: Output } {
  if (!allowed) return view;
  const may = new Set(allowed);
  const gate = (id: string) => {
    const endpoint = metricById(id);
    return endpoint ? gateOf(endpoint) : id;
  };
  const ids = view.structured.endpoints
    ? Object.values(view.structured.endpoints)
        .flat()
        .map((e) => e[0])
    : Object.values(view.structured.covers ?? {}).flatMap((groups) =>
        Object.entries(groups).flatMap(([g, segments]) => segments.map((x) => (x === PRICE_ID ? x : `${g}/${x}`))),
      );
  const shown = ids.filter((id) => !may.has(gate(id)));
  const through = GATED.filter((e) => may.has(gateOf(e))).map((e) => e.id);
  const line =
    `This key may call only ${allowed.join(", ")}${through.length ? ` (and ${through.join(", ")})` : ""}; others answer metric_not_allowed` +
    (shown.length && view.structured.view !== "overview" ? ` (here: ${shown.join(", ")}).` : ".");
  return { text: `${view.text}\n${line}`, structured: { ...view.structured, key_may_call: [...allowed] } };
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
  const seriesLines = groups.map(
    (g) =>
      `  ${g}: ${series
        .filter((e) => e.group === g)
        .map((e) => `${e.segment} [${setShort(e)}]`)
        .join(", ")}`,
  );
  const ohlcv = byKind("ohlcv");
  const text = [
    `${ENDPOINTS.length} endpoints. [set·size] = assets covered.`,
    `get_ohlcv (set ${setShort(ohlcv[0]!)}; timeframe 1m–1d, ${VENUES.length} venues): ${ohlcv.map((e) => e.id).join(", ")}, ${PRICE_ID} (OHLC candles)`,
    `get_series (${series.length} metrics, daily):`,
    ...seriesLines,
    `get_metrics_variation: every metric of one asset, 24h change + 7d sparkline (set ${setShort(byKind("variation")[0]!)})`,
    `get_liquidation_heatmap: liquidation clusters around the last price (set ${setShort(byKind("heatmap")[0]!)})`,
    "compare: one series id or price over 2–8 assets, or 2–4 of them for one asset, on one time grid",
    DRILL_DOWN,
  ].join("\n");
  return { text, structured: { view: "overview", columns: COLUMNS, endpoints: rows(ENDPOINTS), next: DRILL_DOWN } };
}

function metricView(id: string, rawAsset: string | undefined): { text: string; structured: Output } {
  const endpoint = requireEndpoint(id.trim());
  const members = coverage(endpoint);
  const params = endpoint.params.length ? endpoint.params.join(", ") : "none";
  const lines = [
    `${endpoint.id} (${TOOL_OF_KIND[endpoint.kind]}): ${endpoint.purpose}${endpoint.unit ? `; unit ${endpoint.unit}` : ""}; params ${params}.`,
    ...(endpoint.meaning ? [`Meaning: ${endpoint.meaning}.`] : []),
    members
      ? `Covers ${ASSET_SETS[endpoint.assetSet].label}, ${members.length} assets: ${members.join(", ")}`
      : `Covers ${ASSET_SETS[endpoint.assetSet].label}.`,
  ];
  const structured: Output = { view: "metric", columns: COLUMNS, endpoints: rows([endpoint], true), assets: members ? [...members] : [] };
  if (rawAsset !== undefined) {
    const asset = normalizeAsset(rawAsset);
    const covered = covers(endpoint, asset);
    structured.covered = covered;
    const near = covered || !members ? [] : suggestAssets(asset, members);
    lines.push(
      covered ? `${asset}: covered.` : `${asset}: not covered.${near.length ? ` Nearest covered: ${near.map(labelled).join(", ")}.` : ""}`,
    );
  }
  return { text: lines.join("\n"), structured };
}

/** A known asset's view, built once: it depends on the catalog alone (at most one entry per known ticker). */
const ASSET_VIEWS = new Map<string, { text: string; structured: Output }>();

function assetView(asset: string): { text: string; structured: Output } {
  let view = ASSET_VIEWS.get(asset);
  if (view) return view;
  view = buildAssetView(asset);
  if (KNOWN_ASSETS.includes(asset)) ASSET_VIEWS.set(asset, deepFreeze(view));
  return view;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

function buildAssetView(asset: string): { text: string; structured: Output } {
  const found = endpointsForAsset(asset);
  const known = KNOWN_ASSETS.includes(asset);
  const name = assetName(asset);
  const lines = [
    `${asset}${name && name.toLowerCase() !== asset ? ` (${name})` : ""}: ${found.length} endpoint${found.length === 1 ? "" : "s"}${covers(PRICE, asset) ? " and price" : ""}.`,
  ];
  if (!known) {
    const near = suggestAssets(asset, KNOWN_ASSETS);
    lines[0] = `${asset} is not a known ticker; only ${found.map((e) => e.id).join(", ")} accepts any ticker.${near.length ? ` Did you mean ${near.map(labelled).join(" or ")}?` : ""}`;
  } else {
    for (const kind of ["ohlcv", "series", "variation", "heatmap"] as const) {
      const list = found.filter((e) => e.kind === kind);
      if (!list.length) continue;
      if (kind === "variation" || kind === "heatmap") {
        lines.push(`${TOOL_OF_KIND[kind]}: yes`);
        continue;
      }
      const groups = [...new Set(list.map((e) => e.group))];
      const body = groups
        .map(
          (g) =>
            `${g}/${list
              .filter((e) => e.group === g)
              .map((e) => e.segment)
              .join(",")}`,
        )
        .join(" ");
      const price = kind === "ohlcv" && covers(PRICE, asset) ? ` ${PRICE_ID}` : "";
      lines.push(`${TOOL_OF_KIND[kind]} (${list.length + (price ? 1 : 0)}): ${body}${price}`);
    }
  }
  const byTool: Record<string, Record<string, string[]>> = {};
  for (const e of found) ((byTool[TOOL_OF_KIND[e.kind]] ??= {})[e.group] ??= []).push(e.segment);
  if (known && covers(PRICE, asset)) ((byTool[TOOL_OF_KIND.ohlcv] ??= {})[PRICE_ID] ??= []).push(PRICE_ID);
  return { text: lines.join("\n"), structured: { view: "asset", covers: byTool, assets: [asset] } };
}
