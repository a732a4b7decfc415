// rank_assets' plan from its arguments, checked before any backend call (nothing is charged for a
// bad request): the metric and its resolution, the window's buckets, the universe, the thresholds.
import {
  BY_MARKET_CAP,
  coverage,
  covers,
  DAY_MS,
  type Endpoint,
  HOUR_MS,
  KNOWN_ASSETS,
  metricById,
  nearestEndpoints,
  OHLCV_IDS,
  PRICE_ID,
  SERIES_IDS,
  type Timeframe,
  TIMEFRAME_MS,
} from "../catalog/index.js";
import { ToolInputError } from "../mcp/errors.js";
import { labelled, normalizeAsset, suggestAssets, TOOL_OF_KIND } from "../mcp/lookup.js";
import type { RankBy } from "../summary/rank/rank.js";

export const RANK_WINDOWS = ["1h", "24h", "7d", "30d", "90d", "365d"] as const;
export type RankWindow = (typeof RANK_WINDOWS)[number];
export const WINDOW_MS: Record<RankWindow, number> = {
  "1h": HOUR_MS,
  "24h": DAY_MS,
  "7d": 7 * DAY_MS,
  "30d": 30 * DAY_MS,
  "90d": 90 * DAY_MS,
  "365d": 365 * DAY_MS,
};
export const MAX_UNIVERSE = 50;
export const MIN_ASSETS = 2;

export interface RankArgs {
  metric: string;
  by: RankBy;
  window: RankWindow;
  order: "desc" | "asc";
  limit: number;
  assets?: string[] | undefined;
  above?: number | undefined;
  below?: number | undefined;
}

export interface RankPlan {
  endpoint: Endpoint;
  window: RankWindow;
  windowMs: number;
  /** Buckets read: hourly for windows up to a day where the metric has them, else daily. */
  timeframe: Timeframe;
  timeframeMs: number;
  universe: { kind: "market_cap" | "given"; assets: string[] };
  /** Given tickers the metric does not cover: left out, never read. */
  notCovered: string[];
}

const RANKABLE = [PRICE_ID, ...SERIES_IDS, ...OHLCV_IDS];

function bad(parameter: string, message: string, suggestions?: string[]): ToolInputError {
  return new ToolInputError("invalid_arguments", `${message} Nothing was read or charged.`, {
    parameter,
    ...(suggestions?.length && { suggestions }),
  });
}

function rankable(id: string): Endpoint {
  const endpoint = metricById(id.trim());
  if (endpoint && (endpoint.kind === "series" || endpoint.kind === "ohlcv")) return endpoint;
  if (endpoint)
    throw bad(
      "metric",
      `${id} is not a time series (${TOOL_OF_KIND[endpoint.kind]} serves it); rank_assets takes price or a get_series or get_ohlcv id.`,
    );
  const near = nearestEndpoints(id, RANKABLE, 3);
  throw new ToolInputError(
    "unknown_metric",
    `Unknown metric "${id.slice(0, 64)}".${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : ""} rank_assets takes price or a get_series or get_ohlcv id (list_assets lists them). Nothing was read or charged.`,
    { parameter: "metric", suggestions: near },
  );
}

/** The finest window the metric's buckets allow: daily series start at 24h. */
function resolution(endpoint: Endpoint): number {
  return endpoint.kind === "series" ? DAY_MS : TIMEFRAME_MS["1m"];
}

function givenUniverse(raw: readonly string[], endpoint: Endpoint): { assets: string[]; notCovered: string[] } {
  if (raw.length < MIN_ASSETS || raw.length > MAX_UNIVERSE)
    throw bad(
      "assets",
      `assets takes ${MIN_ASSETS}–${MAX_UNIVERSE} tickers (got ${raw.length}); omit it to rank the ${MAX_UNIVERSE} largest the metric covers.`,
    );
  const members = coverage(endpoint) ?? KNOWN_ASSETS;
  const assets = raw.map((a, i) => {
    let t: string;
    try {
      t = normalizeAsset(a);
    } catch {
      throw bad(`assets[${i}]`, `assets[${i}] "${a.slice(0, 40)}" is not a ticker: use lowercase tickers such as btc, eth.`);
    }
    if (!KNOWN_ASSETS.includes(t)) {
      const near = suggestAssets(t, members);
      throw new ToolInputError(
        "unknown_asset",
        `assets[${i}] "${t}" is not a known ticker.${near.length ? ` Did you mean ${near.map(labelled).join(" or ")}?` : ""} list_assets search=<name> finds tickers. Nothing was read or charged.`,
        { parameter: `assets[${i}]`, suggestions: near },
      );
    }
    return t;
  });
  const twice = [...new Set(assets.filter((x, i) => assets.indexOf(x) !== i))];
  if (twice.length) throw bad("assets", `assets names ${twice.join(", ")} more than once; list each asset once.`);
  const notCovered = assets.filter((a) => !covers(endpoint, a));
  if (assets.length - notCovered.length === 0)
    throw new ToolInputError(
      "asset_not_supported",
      `${endpoint.id} covers none of assets; list_assets metric=${endpoint.id} lists its coverage. Nothing was read or charged.`,
      { parameter: "assets" },
    );
  return { assets: assets.filter((a) => covers(endpoint, a)), notCovered };
}

export function planRank(args: RankArgs): RankPlan {
  const endpoint = rankable(args.metric);
  const windowMs = WINDOW_MS[args.window];
  if (windowMs < resolution(endpoint)) {
    throw bad("window", `window ${args.window} is finer than ${endpoint.id}'s daily buckets; use 24h or longer.`, ["24h", "7d", "30d"]);
  }
  if (args.above !== undefined && args.below !== undefined && args.above >= args.below)
    throw bad(
      "above",
      `above (${args.above}) must be less than below (${args.below}), or no value could lie between them; swap or drop one.`,
    );
  const timeframe: Timeframe = endpoint.kind === "ohlcv" && windowMs <= DAY_MS ? "1h" : "1d";
  let universe: RankPlan["universe"];
  let notCovered: string[] = [];
  if (args.assets !== undefined) {
    const given = givenUniverse(args.assets, endpoint);
    universe = { kind: "given", assets: given.assets };
    notCovered = given.notCovered;
  } else {
    const assets = BY_MARKET_CAP.filter((a) => covers(endpoint, a)).slice(0, MAX_UNIVERSE);
    if (assets.length < MIN_ASSETS)
      throw bad(
        "metric",
        `${endpoint.id} covers ${assets.join(", ") || "no listed coin"} alone: nothing to rank. get_series reads it; pick a metric covering more assets.`,
      );
    universe = { kind: "market_cap", assets };
  }
  return { endpoint, window: args.window, windowMs, timeframe, timeframeMs: TIMEFRAME_MS[timeframe], universe, notCovered };
}
