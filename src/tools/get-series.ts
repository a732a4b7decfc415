// get_series: one of the 24 daily metric series for one asset, digested to a bounded size.
import { z } from "zod";

import { DAY_MS, ENDPOINTS, SERIES_IDS } from "../catalog/index.js";
import { normalizeAsset, requireCoverage, requireEndpoint } from "../mcp/lookup.js";
import { defineTool } from "./define-tool.js";
import { assetParam, chartParam, endDateParam, maxPointsParam, startDateParam } from "./params.js";
import { entityArg, fetchSeries, onlyFor, resampleArg, resampleParam, seriesOutput } from "./series-common.js";

const ENTITY_METRICS = ENDPOINTS.filter((e) => e.kind === "series" && e.params.includes("entity_name")).map((e) => e.id);

export const getSeries = defineTool({
  name: "get_series",
  title: "Daily metric series",
  description: "Digest of one asset's daily metric; the answer states its unit.",
  input: z
    .object({
      metric: z.enum(SERIES_IDS),
      asset: assetParam,
      startDate: startDateParam,
      endDate: endDateParam,
      entity_name: z
        .string()
        .max(64)
        .optional()
        .describe(`Venue id or all. Only for metric ${ENTITY_METRICS.map((id) => id.split("/")[1]).join(" or ")}`),
      max_points: maxPointsParam,
      resample: resampleParam,
      chart: chartParam,
    })
    .strict(),
  example: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-01-01", max_points: 30 },
  output: seriesOutput,
  view: "chart",
  async handle(args, context) {
    const endpoint = requireEndpoint(args.metric, ["series"]);
    const asset = normalizeAsset(args.asset, endpoint);
    onlyFor("entity_name", args.entity_name, endpoint);
    requireCoverage(endpoint, asset);
    const resample = resampleArg(args.resample, "1d", DAY_MS);
    return fetchSeries(context, {
      endpoint,
      asset,
      query: { startDate: args.startDate, endDate: args.endDate, entity_name: entityArg(args.entity_name) },
      timeframe: "1d",
      timeframeMs: DAY_MS,
      maxPoints: args.max_points,
      resample,
    });
  },
});
