// get_metrics_variation: every metric of one asset at a glance, largest 24h move first.
import { z } from "zod";
import { VARIATION_ID } from "../catalog/index.js";
import { ServiceError, type VariationRecord } from "../backend/types.js";
import { compactVariation, compactVariationSchema, renderVariationText, sourceField, variationTable } from "../summary/index.js";
import { variationResourceUri } from "../resources/uris.js";
import { defineTool } from "./define-tool.js";
import { normalizeAsset, requireCoverage, requireEndpoint } from "./coverage.js";
import { assetParam } from "./params.js";
import { credits, creditsSchema, footer } from "./series-common.js";

const output = compactVariationSchema.extend({ credits: creditsSchema, resource: z.string().describe("the raw records as JSON (reading it is a new, charged request)"), ...sourceField });

export const getMetricsVariation = defineTool({
  name: "get_metrics_variation",
  title: "Metrics variation",
  description:
    "One asset's metrics: last value, 24h change, 7-day sparkline, trend.",
  endpoint: VARIATION_ID,
  input: z.object({ asset: assetParam }).strict(),
  example: { asset: "sol" },
  output,
  async handle(args, context) {
    const endpoint = requireEndpoint(VARIATION_ID);
    const asset = normalizeAsset(args.asset, endpoint);
    requireCoverage(endpoint, asset);
    const { body, usage } = await context.backend.fetch({ endpoint: VARIATION_ID, asset, query: {} }, context.call);
    if (!Array.isArray(body)) throw new ServiceError(502, "upstream_invalid_response", "metrics-variation returned no array", { endpoint: VARIATION_ID });
    const rows = variationTable(body as VariationRecord[], asset);
    const resource = variationResourceUri(asset);
    const text = `${renderVariationText(asset, rows)}\n${footer(usage)}. Raw records (JSON): ${resource}`;
    return { text, structured: { ...compactVariation(asset, rows), credits: credits(usage), resource } };
  },
});
