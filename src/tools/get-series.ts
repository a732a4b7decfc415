// get_series: one of the 24 daily metric series for one asset, digested to a bounded size.
import { z } from "zod";
import { DAY_MS, ENDPOINTS, SERIES_IDS } from "../catalog/index.js";
import { defineTool } from "./define-tool.js";
import { normalizeAsset, requireCoverage, requireEndpoint } from "./coverage.js";
import { assetParam, endDateParam, maxPointsParam, startDateParam } from "./params.js";
import { entityArg, fetchSeries, onlyFor, seriesOutput } from "./series-common.js";

const SHORT_UNITS: Record<string, string> = { "native units": "native", "USD per TH/s per day": "USD/TH/s/day", addresses: "count" };

/** "market/ metcalfe_ratio (ratio), …" per group: the ids with units, grouped to save tokens. */
function metricList(): string {
  const series = ENDPOINTS.filter((e) => e.kind === "series");
  const groups = [...new Set(series.map((e) => e.group))];
  return groups
    .map((g) => `${g}/ ${series.filter((e) => e.group === g).map((e) => `${e.segment} (${SHORT_UNITS[e.unit] ?? e.unit})`).join(", ")}`)
    .join("; ");
}

const ENTITY_METRICS = ENDPOINTS.filter((e) => e.kind === "series" && e.params.includes("entity_name")).map((e) => e.id);

export const getSeries = defineTool({
  name: "get_series",
  title: "Get a daily metric series",
  description:
    "One daily on-chain/market metric for one asset, as a digest: first/last/min/max with dates, mean, stdev, change %, " +
    "max drawdown, last z-score, gaps, plus up to max_points points. Coverage differs per metric (list_assets metric=<id>). " +
    `Metrics (unit): ${metricList()}.`,
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
        .describe(`Exchange venue id or all (default). Only used when metric is ${ENTITY_METRICS.join(" or ")}`),
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
