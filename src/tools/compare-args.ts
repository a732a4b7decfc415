// compare's members from its arguments, checked before any backend call (nothing is charged for a
// bad request): the mode, counts, duplicates, metric kinds, coverage and the key's entitlements.
import { ServiceError } from "../backend/types.js";
import {
  coverage,
  covers,
  type Endpoint,
  gateOf,
  KNOWN_ASSETS,
  metricById,
  nearestEndpoints,
  OHLCV_IDS,
  PRICE,
  PRICE_ID,
  readThrough,
  SERIES_IDS,
} from "../catalog/index.js";
import { ToolInputError } from "../mcp/errors.js";
import { labelled, normalizeAsset, suggestAssets, TOOL_OF_KIND } from "../mcp/lookup.js";

export const MAX_ASSETS = 8;
export const MAX_METRICS = 4;

export interface Member {
  endpoint: Endpoint;
  asset: string;
  label: string;
}

export interface CompareArgs {
  metric?: string | undefined;
  assets?: string[] | undefined;
  asset?: string | undefined;
  metrics?: string[] | undefined;
  timeframe?: string | undefined;
}

const COMPARABLE = [...SERIES_IDS, ...OHLCV_IDS, PRICE_ID];

function bad(parameter: string, message: string, suggestions?: string[]): ToolInputError {
  return new ToolInputError("invalid_arguments", message, { parameter, ...(suggestions?.length && { suggestions }) });
}

/** A series, OHLCV id or price; the variation and heatmap have no time series to align. */
function comparable(id: string, parameter: string): Endpoint {
  const endpoint = metricById(id.trim());
  if (endpoint && (endpoint.kind === "series" || endpoint.kind === "ohlcv")) return endpoint;
  if (endpoint)
    throw bad(
      parameter,
      `${id} has no time series to align (it is served by ${TOOL_OF_KIND[endpoint.kind]}); compare takes a get_series or get_ohlcv id, or price.`,
    );
  const near = nearestEndpoints(id, COMPARABLE, 3);
  throw new ToolInputError(
    "unknown_metric",
    `Unknown metric "${id.slice(0, 64)}" in ${parameter}.${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : ""} compare takes a get_series or get_ohlcv id, or price.`,
    {
      parameter,
      suggestions: near,
    },
  );
}

function ticker(raw: string, parameter: string, endpoint?: Endpoint): string {
  try {
    return normalizeAsset(raw, endpoint);
  } catch (error) {
    const named = (error as ToolInputError).details?.suggestions ?? [];
    const hint = named.length ? ` Did you mean ${named.map(labelled).join(" or ")}?` : "";
    throw bad(
      parameter,
      `${parameter} holds "${raw.slice(0, 40)}", not a ticker: use lowercase tickers such as btc, eth.${hint} list_assets search=<name> finds them.`,
      [...named],
    );
  }
}

function duplicates(list: readonly string[]): string[] {
  return [...new Set(list.filter((x, i) => list.indexOf(x) !== i))];
}

export function resolveMembers(args: CompareArgs): { mode: "assets" | "metrics"; members: Member[] } {
  const byAssets = args.metric !== undefined || args.assets !== undefined;
  const byMetrics = args.asset !== undefined || args.metrics !== undefined;
  if (byAssets && byMetrics) {
    throw bad(
      "metric",
      "Give either metric + assets (one metric over 2–8 assets) or asset + metrics (2–4 metrics of one asset), not a mix of both.",
    );
  }
  if (!byAssets && !byMetrics)
    throw bad("metric", 'compare needs metric + assets (e.g. metric=price, assets=["btc","eth"]) or asset + metrics.');
  if (byAssets) {
    if (args.metric === undefined) throw bad("metric", "assets needs a metric to compare them on, e.g. metric=price.");
    if (args.assets === undefined)
      throw bad("assets", `metric needs assets, a list of 2–${MAX_ASSETS} tickers, e.g. assets=["btc","eth"].`);
    const endpoint = comparable(args.metric, "metric");
    const assets = args.assets.map((a, i) => ticker(a, `assets[${i}]`, endpoint));
    if (assets.length < 2 || assets.length > MAX_ASSETS)
      throw bad("assets", `assets takes 2–${MAX_ASSETS} tickers (got ${assets.length}).`);
    const twice = duplicates(assets);
    if (twice.length) throw bad("assets", `assets names ${twice.join(", ")} more than once; list each asset once.`);
    checkCoverage(endpoint, assets);
    return { mode: "assets", members: assets.map((asset) => ({ endpoint, asset, label: asset })) };
  }
  if (args.asset === undefined) throw bad("asset", "metrics needs the asset to compare them for, e.g. asset=btc.");
  if (args.metrics === undefined)
    throw bad(
      "metrics",
      `asset needs metrics, a list of 2–${MAX_METRICS} ids (price allowed), e.g. metrics=["price","lifespan/Lth_mvrv"].`,
    );
  const asset = ticker(args.asset, "asset");
  if (args.metrics.length < 2 || args.metrics.length > MAX_METRICS)
    throw bad("metrics", `metrics takes 2–${MAX_METRICS} ids (got ${args.metrics.length}).`);
  const endpoints = args.metrics.map((id, i) => comparable(id, `metrics[${i}]`));
  const twice = duplicates(endpoints.map((e) => e.id));
  if (twice.length) throw bad("metrics", `metrics names ${twice.join(", ")} more than once; list each metric once.`);
  const uncovered = endpoints.filter((e) => !covers(e, asset));
  if (uncovered.length) {
    const known = KNOWN_ASSETS.includes(asset);
    throw new ToolInputError(
      known ? "asset_not_supported" : "unknown_asset",
      `${asset} is not covered by ${uncovered.map((e) => e.id).join(", ")}; remove ${uncovered.length === 1 ? "it" : "them"} from metrics (list_assets asset=${asset} shows what covers ${asset}).`,
      { parameter: "metrics" },
    );
  }
  return {
    mode: "metrics",
    members: endpoints.map((endpoint) => ({ endpoint, asset, label: endpoint === PRICE ? "price" : endpoint.segment })),
  };
}

/** Every asset the metric does not cover, named with a did-you-mean where one fits. */
function checkCoverage(endpoint: Endpoint, assets: readonly string[]): void {
  const missing = assets.filter((a) => !covers(endpoint, a));
  if (!missing.length) return;
  const members = coverage(endpoint) ?? [];
  const parts = missing.map((a) => {
    const near = KNOWN_ASSETS.includes(a) ? [] : suggestAssets(a, members);
    return `"${a}"${near.length ? ` (did you mean ${near.map(labelled).join(" or ")}?)` : KNOWN_ASSETS.includes(a) ? "" : " (not a known ticker)"}`;
  });
  const covered = members.length <= 12 ? `covers ${members.join(", ")}` : `covers ${members.length} assets`;
  throw new ToolInputError(
    "asset_not_supported",
    `${endpoint.id} does not cover ${parts.join(", ")} (it ${covered}). Remove ${missing.length === 1 ? "it" : "them"} from assets or pick another metric; list_assets metric=${endpoint.id} lists coverage.`,
    { parameter: "assets", suggestions: missing },
  );
}

/** The entitlement each member needs (its row's gate), checked when the backend knows the key's. */
export function checkEntitlements(members: readonly Member[], allowed: readonly string[] | null | undefined): void {
  if (!allowed) return;
  const gates = [...new Set(members.map((m) => gateOf(m.endpoint)))];
  const denied = gates.filter((g) => !allowed.includes(g));
  if (!denied.length) return;
  const through = members.find((m) => m.endpoint.gate !== undefined && denied.includes(m.endpoint.gate))?.endpoint;
  throw new ServiceError(
    403,
    "metric_not_allowed",
    `This key may not call ${denied.join(", ")}${through ? readThrough(through, "it") : ""}; nothing was charged. It may call: ${allowed.join(", ")}.`,
    { endpoint: denied[0]!, allowed, ...(through && { through: through.id }) },
  );
}
