// Prompts: canned analyses that tell the model which of our tools to call, with which arguments,
// and what to report; the steps are chosen from the asset's actual coverage.
import { completable, type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { z } from "zod";

import { isoDay, isoMinute } from "../catalog/dates.js";
import {
  CANONICAL_LOOKBACK,
  coverage,
  covers,
  DAY_MS,
  type Endpoint,
  endpointById,
  HEATMAP_ID,
  KNOWN_ASSETS,
  PRICE,
  type Timeframe,
  TIMEFRAMES,
  VARIATION_ID,
} from "../catalog/index.js";
import { completeAssetFor, type CompleterTable, completeSeriesAsset } from "../mcp/completions.js";
import { closest, normalizeAsset } from "../mcp/lookup.js";

/** Series worth a look in a brief, in order of preference; only those covering the asset are named. */
const BRIEF_SERIES = [
  "lifespan/Lth_mvrv",
  "market/metcalfe_ratio",
  "exchange_flow/exchange_reserve",
  "lifespan/Cvdd",
  "addresses/AdrBalUSD1MCnt",
  "fees/fee_price_usd",
  "mining/RevHashRateUSD",
] as const;

const HEATMAP = endpointById(HEATMAP_ID)!;
const VARIATION = endpointById(VARIATION_ID)!;
const VOLUME = endpointById("derivatives/Volume_usd")!;

/** A ticker the endpoint covers (any known ticker without one), else a did-you-mean error. */
function knownAsset(raw: string, endpoint: Endpoint | null): string {
  let asset: string;
  try {
    asset = normalizeAsset(raw);
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, (error as Error).message);
  }
  if (endpoint ? covers(endpoint, asset) : KNOWN_ASSETS.includes(asset)) return asset;
  const near = closest(asset, (endpoint && coverage(endpoint)) ?? KNOWN_ASSETS);
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown asset "${asset}".${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : ""} Completion offers the covered tickers.`,
  );
}

/** Completion of each prompt's arguments (served by installCompletions). */
export const PROMPT_COMPLETERS: CompleterTable = {
  asset_brief: { asset: (value) => completeSeriesAsset(value, undefined) },
  liquidation_risk_brief: {
    asset: (value) => completeAssetFor(HEATMAP, value),
    timeframe: (value) => TIMEFRAMES.filter((t) => t.startsWith(value)),
  },
};

/**
 * The prompts' argument schemas, built once: a server is built per HTTP request, and building
 * these was most of registering the prompts.
 */
const ASSET_BRIEF_ARGS = z.object({
  asset: completable(z.string().max(40).describe("Lowercase ticker, e.g. btc"), (value) => PROMPT_COMPLETERS.asset_brief!.asset!(value)),
});
const RISK_BRIEF_ARGS = z.object({
  asset: completable(z.string().max(40).describe("Lowercase ticker, e.g. btc"), (value) =>
    PROMPT_COMPLETERS.liquidation_risk_brief!.asset!(value),
  ),
  timeframe: completable(
    z.enum(TIMEFRAMES).optional().describe("Heatmap column width, default 1h"),
    (value) => PROMPT_COMPLETERS.liquidation_risk_brief!.timeframe!(value ?? "") as Timeframe[],
  ),
});

/** The date `days` before now, as a startDate (YYYY-MM-DD, UTC). */
function daysAgo(nowMs: number, days: number): string {
  return isoDay(nowMs - days * DAY_MS);
}

/** An hour-aligned instant `hours` before now, as a startDate. */
function hoursAgo(nowMs: number, hours: number): string {
  return `${new Date(Math.floor(nowMs / 3_600_000) * 3_600_000 - hours * 3_600_000).toISOString().slice(0, 16)}:00Z`;
}

function userMessage(text: string) {
  return { messages: [{ role: "user" as const, content: { type: "text" as const, text } }] };
}

/**
 * `now` is the service's "now" (CRYPTO_METRICS_NOW when pinned, else the clock): the prompts write
 * concrete dates from it, so a model need not guess today's date.
 */
export function registerPrompts(server: McpServer, now: () => number = Date.now): void {
  server.registerPrompt(
    "asset_brief",
    {
      title: "Asset brief",
      description: "A short market and on-chain brief on one asset, built from the metrics that cover it.",
      argsSchema: ASSET_BRIEF_ARGS,
    },
    ({ asset: raw }) => {
      const asset = knownAsset(raw, null);
      const nowMs = now();
      const series = BRIEF_SERIES.filter((id) => covers(endpointById(id)!, asset));
      const steps = [
        `list_assets asset=${asset} — what is covered.`,
        covers(VARIATION, asset) ? `get_metrics_variation asset=${asset} — every metric's 24h move and 7-day trend.` : "",
        covers(PRICE, asset)
          ? `get_ohlcv metric=price asset=${asset} startDate=${daysAgo(nowMs, 365)} — price, its range, largest moves and volatility over a year.`
          : "",
        covers(VOLUME, asset)
          ? `get_ohlcv metric=${VOLUME.id} asset=${asset} startDate=${daysAgo(nowMs, 90)} — volume trend, all markets (spot, swap and futures; market_type=swap for perpetuals alone).`
          : "",
        ...series.map((id) => `get_series metric=${id} asset=${asset} startDate=${daysAgo(nowMs, 365)} — ${endpointById(id)!.purpose}.`),
        covers(HEATMAP, asset) ? `get_liquidation_heatmap asset=${asset} — where liquidations cluster around the price.` : "",
      ].filter(Boolean);
      return userMessage(
        [
          `Write a brief on ${asset} as of ${isoMinute(nowMs)} UTC using the crypto-metrics tools. Call them in this order:`,
          ...steps.map((s, i) => `${i + 1}. ${s}`),
          "Then report in under 250 words: price and volume trend, the valuation/on-chain readings (with their dates and how the latest value compares with the range, e.g. the z-score), notable 24h movers, and the nearest liquidation clusters above and below with distance %.",
          "Quote only numbers the tools returned. If a call fails, follow its error text (it says whether to retry) and say what is missing.",
        ].join("\n"),
      );
    },
  );

  server.registerPrompt(
    "liquidation_risk_brief",
    {
      title: "Liquidation risk brief",
      description: "Where leveraged positions would be liquidated around the current price, and how lopsided that is.",
      argsSchema: RISK_BRIEF_ARGS,
    },
    ({ asset: raw, timeframe }) => {
      const asset = knownAsset(raw, HEATMAP);
      const tf: Timeframe = timeframe ?? "1h";
      return userMessage(
        [
          `Assess liquidation risk for ${asset} using the crypto-metrics tools:`,
          `1. get_liquidation_heatmap asset=${asset} timeframe=${tf} top_k=5 (lookback defaults to ${CANONICAL_LOOKBACK[tf]}).`,
          `2. get_ohlcv metric=${VOLUME.id} asset=${asset} timeframe=1h startDate=${hoursAgo(now(), 72)} — is activity rising into the clusters?`,
          `3. Optionally get_liquidation_heatmap asset=${asset} scope=exchange exchange=binance to compare one venue with the aggregate.`,
          "Report: the anchor price and time; the nearest and the largest cluster above and below (peak price, band, distance % to its edge and peak, share); the ±2 % and ±5 % above/below intensities and the imbalance; the top-trader long/short ratio against its range; which side a move would liquidate first and how far price must travel.",
          "Use only numbers the tools returned; say plainly when the map is thin or empty.",
        ].join("\n"),
      );
    },
  );
}
