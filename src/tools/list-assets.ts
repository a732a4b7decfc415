// list_assets: the catalog as a model needs it: an overview, one metric's coverage, one asset's
// endpoints, or a search over tickers and endpoints.
import { z } from "zod";
import {
  ASSET_SETS,
  assetName,
  assetsByName,
  editDistance,
  metricsBySynonym,
  missingConcepts,
  PRICE,
  PRICE_ID,
  GATED,
  gateOf,
  metricById,
  ENDPOINTS,
  KNOWN_ASSETS,
  VENUES,
  coverage,
  covers,
  endpointsForAsset,
  type Endpoint,
} from "../catalog/index.js";
import { escapeFormat } from "../echo.js";
import { ToolInputError } from "../mcp/errors.js";
import { defineTool } from "./define-tool.js";
import { TOOL_OF_KIND, closest, labelled, normalizeAsset, requireEndpoint, suggestAssets } from "../mcp/lookup.js";

const COLUMNS = ["id", "asset_set", "assets", "unit", "purpose", "meaning"];

const endpointRow = z
  .tuple([z.string(), z.string(), z.number().nullable().describe("count; null: any ticker"), z.string()], z.string())
  .describe(
    "[id, asset_set, assets covered, unit, then in one metric's view its purpose and, where unit and purpose leave it open, how to read a value]",
  );
type EndpointRow = z.infer<typeof endpointRow>;
type ByTool = Record<string, EndpointRow[]>;

const output = z.object({
  view: z.enum(["overview", "metric", "asset", "search"]),
  columns: z.array(z.string()).optional().describe("the names of each endpoint row's members"),
  endpoints: z.record(z.string(), z.array(endpointRow)).optional().describe("rows by the tool that reads them"),
  covers: z
    .record(z.string(), z.record(z.string(), z.array(z.string())))
    .optional()
    .describe("one asset's endpoints: {tool: {group: [the id after the group]}}"),
  assets: z.array(z.string()).optional(),
  covered: z.boolean().optional(),
  not_offered: z
    .array(z.object({ concept: z.string(), nearest: z.string(), differs: z.string() }))
    .optional()
    .describe("concepts a search named that the catalog does not offer, with the nearest metric that is"),
  key_may_call: z
    .array(z.string())
    .optional()
    .describe("endpoint ids the key may call, when it is restricted; others answer metric_not_allowed"),
  next: z.string().optional().describe("where to look next"),
});
type Output = z.infer<typeof output>;

const SEARCH_LIMIT = 40;
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

/** Endpoints as rows by tool; only one metric's view gives the purpose (as its text does). */
function rows(list: readonly Endpoint[], purpose = false): ByTool {
  const out: ByTool = {};
  for (const e of list) {
    const members = coverage(e);
    const r: EndpointRow = [e.id, e.assetSet, members ? members.length : null, e.unit];
    if (purpose) r.push(e.purpose, ...(e.meaning ? [e.meaning] : []));
    (out[TOOL_OF_KIND[e.kind]] ??= []).push(r);
  }
  return out;
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

/** The text a search reads: trimmed, lower case, without a cashtag's "$"; an empty one is refused. */
function searchQuery(search: string): string {
  const query = search
    .trim()
    .toLowerCase()
    .replace(/^\$(?=[a-z0-9])/, "");
  if (!query)
    throw new ToolInputError(
      "invalid_arguments",
      "search is empty: give a ticker (btc), a name (bitcoin) or a metric word (mvrv), or omit search for the overview.",
      { parameter: "search" },
    );
  return query;
}

function searchView(query: string): { text: string; structured: Output } {
  // Tickers, names and endpoint ids are written in Latin letters and digits: a query with none
  // matches nothing, and no ticker is "near" it.
  if (!/[a-z0-9]/.test(query)) {
    const script = /\p{L}/u.test(query) ? "Tickers, names and metrics are written in Latin letters" : "It holds no letter or digit";
    return {
      text: `Nothing matches "${escapeFormat(query, { layout: true })}". ${script}: search by ticker (btc), name (bitcoin) or metric word (mvrv, fees, supply).`,
      structured: { view: "search", columns: COLUMNS, endpoints: rows([]), assets: [] },
    };
  }
  const named = new Set(assetsByName(query));
  const rank = (a: string) => (a === query ? 0 : named.has(a) ? 1 : a.startsWith(query) ? 2 : 3);
  const tickers = KNOWN_ASSETS.filter((a) => a.includes(query) || named.has(a)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const synonyms = new Set(metricsBySynonym(query));
  // At the start of a word: "ust" is not a match for "adjusted".
  const atWord = new RegExp(`(^|[^a-z0-9])${query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
  const endpoints = [...ENDPOINTS, PRICE].filter(
    (e) => atWord.test(e.id.toLowerCase()) || atWord.test(e.purpose.toLowerCase()) || synonyms.has(e.id),
  );
  const shown = tickers.slice(0, SEARCH_LIMIT);
  const withName = (t: string) => {
    const name = assetName(t);
    return name && name.toLowerCase() !== t ? `${t} (${name})` : t;
  };
  const missing = missingConcepts(query);
  const lines = [
    ...missing.map((c) => `Not offered: ${c.concept}. Nearest: ${c.nearest} — ${c.differs}.`),
    `Tickers matching "${escapeFormat(query, { layout: true })}" by ticker or name (${tickers.length}): ${shown.map(withName).join(", ") || "none"}${tickers.length > shown.length ? ", …" : ""}`,
    `Endpoints (${endpoints.length}): ${endpoints.map((e) => `${e.id} (${TOOL_OF_KIND[e.kind]})`).join(", ") || "none"}`,
  ];
  // A concept is not a misspelt ticker; and a ticker is proposed only when it is one letter off.
  if (!tickers.length && !endpoints.length && !missing.length && query.length >= 2 && /^[a-z0-9_]+$/.test(query)) {
    const near = closest(query, KNOWN_ASSETS).filter((t) => editDistance(query, t) <= (query.length >= 7 ? 2 : 1));
    if (near.length) lines.push(`Nearest tickers: ${near.join(", ")}.`);
  }
  return {
    text: lines.join("\n"),
    structured: {
      view: "search",
      columns: COLUMNS,
      endpoints: rows(endpoints),
      assets: shown,
      ...(missing.length && { not_offered: missing.map(({ concept, nearest, differs }) => ({ concept, nearest, differs })) }),
    },
  };
}
