// get_series: one of the 24 daily metric series for one asset, digested to a bounded size.
import { z } from "zod";
import { DAY_MS, ENDPOINTS, SERIES_IDS } from "../catalog/index.js";
import { defineTool } from "./define-tool.js";
import { metricsByUnit } from "./metric-list.js";
import { normalizeAsset, requireCoverage, requireEndpoint } from "./coverage.js";
import { assetParam, endDateParam, maxPointsParam, startDateParam } from "./params.js";
import { entityArg, fetchSeries, onlyFor, seriesOutput } from "./series-common.js";

const ENTITY_METRICS = ENDPOINTS.filter((e) => e.kind === "series" && e.params.includes("entity_name")).map((e) => e.id);

export const getSeries = defineTool({
  name: "get_series",
  title: "Daily metric series",
  description:
    `Digest of one asset's daily metric. Units: ${metricsByUnit()}.`,
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
        .describe(`Venue id or all. Only used when metric is ${ENTITY_METRICS.map((id) => id.split("/")[1]).join(" or ")}`),
      max_points: maxPointsParam,
    })
    .strict(),
  output: seriesOutput,
  async handle(args, context) {
    const endpoint = requireEndpoint(args.metric, ["series"]);
    const asset = normalizeAsset(args.asset);
    onlyFor("entity_name", args.entity_name, endpoint);
    requireCoverage(endpoint, asset);
    return fetchSeries(context, {
      endpoint,
      asset,
      query: { startDate: args.startDate, endDate: args.endDate, entity_name: entityArg(args.entity_name) },
      timeframe: "1d",
      timeframeMs: DAY_MS,
      maxPoints: args.max_points,
    });
  },
});
