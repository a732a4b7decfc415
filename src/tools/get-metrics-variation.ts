// get_metrics_variation: every metric of one asset at a glance, largest 24h move first.
import { z } from "zod";

import { ServiceError } from "../backend/types.js";
import { VARIATION_ID } from "../catalog/index.js";
import { variationResourceUri } from "../catalog/uris.js";
import { normalizeAsset, requireCoverage, requireEndpoint } from "../mcp/lookup.js";
import {
  compactVariation,
  compactVariationSchema,
  describedDay,
  renderVariationText,
  variationPrice,
  variationTable,
} from "../summary/index.js";
import { defineTool } from "./define-tool.js";
import { assetParam } from "./params.js";
import { credits, creditsSchema, footer } from "./series-common.js";

const output = compactVariationSchema.extend({
  credits: creditsSchema,
  resource: z.string().describe("the raw records as JSON (reading it is a new, charged request)"),
});

export const getMetricsVariation = defineTool({
  name: "get_metrics_variation",
  title: "Metrics variation",
  description: "One asset's metrics: last value, 24h change, 7-day sparkline, trend.",
  endpoint: VARIATION_ID,
  input: z.object({ asset: assetParam }).strict(),
  example: { asset: "sol" },
  output,
  async handle(args, context) {
    const endpoint = requireEndpoint(VARIATION_ID);
    const asset = normalizeAsset(args.asset, endpoint);
    requireCoverage(endpoint, asset);
    const result = await context.backend.fetch({ endpoint: VARIATION_ID, asset, query: {} }, context.call);
    if (result.kind !== "variation" || !Array.isArray(result.body))
      throw new ServiceError(502, "upstream_invalid_response", "metrics-variation returned no array", { endpoint: VARIATION_ID });
    const { body: records, usage, candles, asOfMs } = result;
    const day = describedDay(records, asOfMs);
    const rows = variationTable(records, asset, day);
    // The daily closes come beside the summary when the backend has them, at no extra request.
    const price = candles ? variationPrice(candles.times, candles.close, day) : null;
    const resource = variationResourceUri(asset);
    const text = `${renderVariationText(asset, rows, day, price)}\n${footer(usage)}. Raw records (JSON): ${resource}`;
    return { text, structured: { ...compactVariation(asset, rows, day, price), credits: credits(usage), resource } };
  },
});
