// get_ohlcv: derivatives volume, derivatives buy trades or spot trades per bucket, by timeframe and
// venue, digested to a bounded size (a 60-day 1-minute series costs about what one day does).
import { z } from "zod";

import { ENDPOINTS, OHLCV_IDS, PRICE, PRICE_ID, SYMBOL_PATTERN, TIMEFRAME_MS, TIMEFRAMES } from "../catalog/index.js";
import { ToolInputError } from "../mcp/errors.js";
import { normalizeAsset, requireCoverage, requireEndpoint } from "../mcp/lookup.js";
import { compactCandleFactsSchema } from "../summary/index.js";
import { defineTool } from "./define-tool.js";
import { assetParam, chartParam, endDateParam, marketTypeParam, maxPointsParam, startDateParam, venueParam } from "./params.js";
import { fetchPrice } from "./price-digest.js";
import { fetchSeries, onlyFor, resampleArg, resampleParam, seriesOutput, venueArg } from "./series-common.js";

const MARKET_TYPE_METRICS = ENDPOINTS.filter((e) => e.kind === "ohlcv" && e.params.includes("market_type")).map((e) => e.id);

export const getOhlcv = defineTool({
  name: "get_ohlcv",
  title: "Volume and trade counts",
  description: "Volume (USD), buy trades, spot trades or OHLC price (real API: 1 heatmap call) per bucket; digest as get_series.",
  input: z
    .object({
      metric: z.enum([...OHLCV_IDS, PRICE_ID]),
      asset: assetParam,
      timeframe: z.enum(TIMEFRAMES).optional().describe("Default 1d"),
      exchange: venueParam,
      symbol: z.string().max(24).optional().describe("e.g. BTCUSDT"),
      market_type: marketTypeParam.describe(`Only for metric ${MARKET_TYPE_METRICS.map((id) => id.split("/")[1]).join(" or ")}`),
      startDate: startDateParam,
      endDate: endDateParam,
      max_points: maxPointsParam,
      resample: resampleParam,
      chart: chartParam,
    })
    .strict(),
  example: { metric: "derivatives/Volume_usd", asset: "eth", timeframe: "1h", exchange: "binance", startDate: "2025-12-01" },
  output: seriesOutput.extend({
    resource: z.string().optional(),
    candles: compactCandleFactsSchema.optional(),
    lastCandleOpenUntil: z.string().optional().describe("price: the last candle had not closed at the service's now"),
  }),
  view: "chart",
  async handle(args, context) {
    if (args.metric === PRICE_ID) {
      const asset = normalizeAsset(args.asset, PRICE);
      for (const name of ["exchange", "symbol", "market_type"] as const) onlyFor(name, args[name], PRICE);
      requireCoverage(PRICE, asset);
      const timeframe = args.timeframe ?? "1d";
      const resample = resampleArg(args.resample, timeframe, TIMEFRAME_MS[timeframe]);
      return fetchPrice(context, {
        asset,
        timeframe,
        startDate: args.startDate,
        endDate: args.endDate,
        maxPoints: args.max_points,
        resample,
      });
    }
    const endpoint = requireEndpoint(args.metric, ["ohlcv"]);
    const asset = normalizeAsset(args.asset, endpoint);
    onlyFor("market_type", args.market_type, endpoint);
    requireCoverage(endpoint, asset);
    const symbol = args.symbol?.trim().toUpperCase();
    if (symbol !== undefined && !SYMBOL_PATTERN.test(symbol)) {
      throw new ToolInputError(
        "invalid_arguments",
        `symbol must be an upper-case pair such as ${asset.toUpperCase()}USDT (2–24 letters or digits); got "${args.symbol!.slice(0, 24)}".`,
        {
          parameter: "symbol",
        },
      );
    }
    const timeframe = args.timeframe ?? "1d";
    const resample = resampleArg(args.resample, timeframe, TIMEFRAME_MS[timeframe]);
    return fetchSeries(context, {
      endpoint,
      asset,
      query: {
        startDate: args.startDate,
        endDate: args.endDate,
        timeframe: args.timeframe,
        exchange: args.exchange === undefined ? undefined : venueArg("exchange", args.exchange),
        symbol,
        market_type: args.market_type,
      },
      timeframe,
      timeframeMs: TIMEFRAME_MS[timeframe],
      maxPoints: args.max_points,
      resample,
    });
  },
});
