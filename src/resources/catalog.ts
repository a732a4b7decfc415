// The catalog resource: every endpoint, asset set and venue as one JSON document for clients and
// scripts that want the whole picture rather than list_assets' drill-down.
import {
  ASSET_PATTERN,
  ASSET_SETS,
  CANONICAL_LOOKBACK,
  creditCostRule,
  DATE_FORMAT_HINT,
  DEFAULT_BUCKETS,
  ENDPOINTS,
  LOOKBACKS,
  MARKET_TYPES,
  MAX_RECORDS,
  PARAM_DESCRIPTIONS,
  SCOPES,
  TIMEFRAMES,
  VENUES,
} from "../catalog/index.js";
import { CATALOG_URI, HEATMAP_TEMPLATE, SERIES_TEMPLATE, VARIATION_TEMPLATE } from "../catalog/uris.js";
import { TOOL_OF_KIND } from "../mcp/lookup.js";

export function catalogDocument(outputSchemas: Record<string, unknown>): Record<string, unknown> {
  return {
    spec_version: "0.3.0",
    endpoints: ENDPOINTS.map((e) => ({
      id: e.id,
      kind: e.kind,
      tool: TOOL_OF_KIND[e.kind],
      group: e.group,
      segment: e.segment,
      ...(e.field && { field: e.field }),
      unit: e.unit,
      purpose: e.purpose,
      params: e.params,
      asset_set: e.assetSet,
      credit_cost: creditCostRule(e),
    })),
    asset_sets: Object.fromEntries(
      Object.values(ASSET_SETS).map((s) => [
        s.id,
        s.members ? { label: s.label, size: s.members.length, members: s.members } : { label: s.label, pattern: ASSET_PATTERN.source },
      ]),
    ),
    venues: VENUES,
    params: {
      descriptions: PARAM_DESCRIPTIONS,
      date_format: DATE_FORMAT_HINT,
      timeframes: TIMEFRAMES,
      lookbacks: LOOKBACKS,
      canonical_lookback: CANONICAL_LOOKBACK,
      market_types: MARKET_TYPES,
      scopes: SCOPES,
      default_buckets_without_startDate: DEFAULT_BUCKETS,
      max_records_per_response: MAX_RECORDS,
    },
    resources: { catalog: CATALOG_URI, series_csv: SERIES_TEMPLATE, heatmap_json: HEATMAP_TEMPLATE, variation_json: VARIATION_TEMPLATE },
    // tools/list advertises output schemas as plain objects (token budget); here they are in full.
    output_schemas: outputSchemas,
  };
}
