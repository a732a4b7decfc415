// get_liquidation_heatmap: where liquidations cluster above and below the last price, digested from
// the service's price × time matrix (optionally re-binned to at most 24 × 24).
import { z } from "zod";

import { ServiceError } from "../backend/types.js";
import { releaseCells } from "../catalog/heatmap-typed.js";
import { allowedLookbacks, HEATMAP_ID, LOOKBACKS, SCOPES, TIMEFRAMES, VENUES } from "../catalog/index.js";
import { heatmapResourceUri } from "../catalog/uris.js";
import { heatmapView } from "../charts/model/view-data.js";
import { viewField } from "../charts/model/view-schema.js";
import { ToolInputError } from "../mcp/errors.js";
import { normalizeAsset, requireCoverage, requireEndpoint } from "../mcp/lookup.js";
import {
  compactHeatmapDigest,
  compactHeatmapDigestSchema,
  DEFAULT_TOP_K,
  digestHeatmap,
  MAX_TOP_K,
  renderHeatmapText,
} from "../summary/index.js";
import { defineTool } from "./define-tool.js";
import { assetParam, chartParam, venueParam } from "./params.js";
import { credits, creditsSchema, definedOnly, footer, timeframeArg, venueArg } from "./series-common.js";

const output = z.object({
  asset: z.string(),
  digest: compactHeatmapDigestSchema,
  credits: creditsSchema,
  resource: z.string().describe("the full matrix as JSON (reading it is a new, charged request)"),
  ...viewField,
});

/** What the view offers to switch to: every timeframe with the lookbacks it accepts. */
const CHOICES = {
  timeframes: [...TIMEFRAMES],
  lookbacks: Object.fromEntries(TIMEFRAMES.map((tf) => [tf, allowedLookbacks(tf)])),
  exchanges: [...VENUES],
};

export const getLiquidationHeatmap = defineTool({
  name: "get_liquidation_heatmap",
  title: "Liquidation heatmap",
  description: "Liquidation clusters near the last price, ±1–10 % sums, imbalance, top-trader L/S.",
  endpoint: HEATMAP_ID,
  view: "heatmap",
  input: z
    .object({
      asset: assetParam,
      // Described by reference: the nine values are get_ohlcv's, and tools/list has no tokens to spare.
      timeframe: z.string().max(8).optional().describe("As get_ohlcv; default 6h"),
      lookback: z.enum(LOOKBACKS).optional(),
      scope: z.enum(SCOPES).optional(),
      exchange: venueParam,
      top_k: z.number().int().min(1).max(MAX_TOP_K).optional().describe(`Per side, default ${DEFAULT_TOP_K}`),
      include_matrix: z.boolean().optional().describe("Add ≤24×24 matrix"),
      chart: chartParam,
    })
    .strict(),
  example: { asset: "btc", timeframe: "1h", lookback: "90d", include_matrix: true },
  output,
  async handle(args, context) {
    const endpoint = requireEndpoint(HEATMAP_ID);
    const asset = normalizeAsset(args.asset, endpoint);
    requireCoverage(endpoint, asset);
    const exchange = args.exchange === undefined ? undefined : venueArg("exchange", args.exchange);
    const scope = args.scope ?? (exchange ? "exchange" : undefined);
    if (scope === "exchange" && !exchange) {
      throw new ToolInputError(
        "invalid_arguments",
        "scope=exchange needs exchange (a venue id such as binance); or drop scope for all venues.",
        { parameter: "exchange" },
      );
    }
    if (scope === "all" && exchange) {
      throw new ToolInputError(
        "invalid_arguments",
        `exchange only applies with scope=exchange; drop scope (it is implied) or drop exchange for all venues.`,
        { parameter: "scope" },
      );
    }
    const timeframe = timeframeArg(args.timeframe);
    if (timeframe && args.lookback && !allowedLookbacks(timeframe).includes(args.lookback)) {
      throw new ToolInputError(
        "invalid_arguments",
        `lookback ${args.lookback} is too long for timeframe ${timeframe}; accepted: ${allowedLookbacks(timeframe).join(", ")} (or a coarser timeframe).`,
        { parameter: "lookback", suggestions: allowedLookbacks(timeframe) },
      );
    }
    const query = { timeframe: args.timeframe, lookback: args.lookback, scope, exchange };
    const result = await context.backend.fetch({ endpoint: HEATMAP_ID, asset, query }, context.call);
    const { usage } = result;
    // Backends hand the typed form on; reading `body` would build the JSON objects it spares.
    if (result.kind !== "heatmap")
      throw new ServiceError(502, "upstream_invalid_response", "the heatmap endpoint returned no heatmap", { endpoint: HEATMAP_ID });
    const heatmap = result.heatmap;
    const digest = digestHeatmap(heatmap, { topK: args.top_k, includeMatrix: args.include_matrix === true });
    const sent = definedOnly(query);
    const resource = heatmapResourceUri(asset, sent);
    const text = [renderHeatmapText({ asset, ...sent }, digest), footer(usage, undefined) + `. Full matrix (JSON): ${resource}`].join("\n");
    const view = context.wantView ? heatmapView(heatmap, digest, { choices: CHOICES }) : undefined;
    // The digest and the view hold their own numbers: the matrix is read no more.
    releaseCells(heatmap);
    return { text, structured: { asset, digest: compactHeatmapDigest(digest), credits: credits(usage), resource }, view };
  },
});
