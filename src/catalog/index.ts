// The catalog: the single source of truth for endpoints, asset sets, venues and parameters.
import { ASSET_SETS, assetInSet, KNOWN_ASSETS } from "./assets.js";
import { type Endpoint, ENDPOINTS } from "./endpoints.js";
import { groupThousands } from "./params.js";
import { PRICE, PRICE_ID } from "./price-endpoint.js";

export * from "./assets.js";
export { missingConcepts, type MissingConcept } from "./definitions.js";
export * from "./endpoints.js";
export * from "./params.js";
export * from "./price-endpoint.js";
export * from "./names.js";
export * from "./market-caps.js";
export * from "./venues.js";

const byId = new Map(ENDPOINTS.map((e) => [e.id, e]));

export function endpointById(id: string): Endpoint | undefined {
  return byId.get(id);
}

export const SERIES_IDS = ENDPOINTS.filter((e) => e.kind === "series").map((e) => e.id) as [string, ...string[]];
export const OHLCV_IDS = ENDPOINTS.filter((e) => e.kind === "ohlcv").map((e) => e.id) as [string, ...string[]];
export const VARIATION_ID = "derivatives/metrics-variation";
export const HEATMAP_ID = "liquidation_levels/heatmap";

/** A catalog endpoint or the price, by id: what a series-like tool may be asked for. */
export function metricById(id: string): Endpoint | undefined {
  return id === PRICE_ID ? PRICE : byId.get(id);
}

/** Endpoints a key reaches through another one's entitlement (their row's gate): price, through the heatmap. */
export const GATED: readonly Endpoint[] = [PRICE];

/** The endpoint id a key restricted to some metrics must hold to call `endpoint`: its row's gate, or itself. */
export function gateOf(endpoint: Endpoint): string {
  return endpoint.gate ?? endpoint.id;
}

/** What a refusal adds after naming the gate of an endpoint reached through it: " (price is read from <gate>)". */
export function readThrough(endpoint: Endpoint, gate: string = gateOf(endpoint)): string {
  return endpoint.gate === undefined ? "" : ` (${endpoint.id} is read from ${gate})`;
}

export function covers(endpoint: Endpoint, asset: string): boolean {
  return assetInSet(endpoint.assetSet, asset);
}

/** Members of the endpoint's asset set, or null for the open set. */
export function coverage(endpoint: Endpoint): readonly string[] | null {
  return ASSET_SETS[endpoint.assetSet].members;
}

/** Endpoints that carry data for an asset, in catalog order. */
export function endpointsForAsset(asset: string): Endpoint[] {
  return ENDPOINTS.filter((e) => covers(e, asset));
}

/** Service path of an endpoint for an asset (the heatmap takes its asset as a query parameter). */
export function pathOf(endpoint: Endpoint, asset: string): string {
  return endpoint.kind === "heatmap" ? `/${endpoint.id}` : `/${asset}/${endpoint.id}`;
}

/** Records a series or OHLCV response holds per extra credit. */
export const RECORDS_PER_CREDIT = 10_000;

/**
 * Credit cost of a successful response (the spec publishes none; these are our documented
 * defaults): series and OHLCV 1 + 1 per 10,000 records, metrics-variation 2, heatmap 5.
 */
export function creditCost(endpoint: Endpoint, records = 0): number {
  switch (endpoint.kind) {
    case "variation":
      return 2;
    case "heatmap":
      return 5;
    default:
      return 1 + Math.floor(records / RECORDS_PER_CREDIT);
  }
}

/** The cost rule of an endpoint as a client would read it: a number, or the per-records rule. */
export function creditCostRule(endpoint: Endpoint): number | string {
  return endpoint.kind === "series" || endpoint.kind === "ohlcv"
    ? `1 + 1 per ${groupThousands(RECORDS_PER_CREDIT)} records`
    : creditCost(endpoint);
}

/** Assets most alike to a mistyped one, closest first (for did-you-mean hints). */
export function nearestAssets(input: string, pool: readonly string[] = KNOWN_ASSETS, limit = 3): string[] {
  return nearest(input, pool, limit);
}

/** Endpoint ids most alike to a mistyped one, closest first. */
export function nearestEndpoints(input: string, pool: readonly string[] = ENDPOINTS.map((e) => e.id), limit = 3): string[] {
  return nearest(input, pool, limit);
}

function nearest(input: string, pool: readonly string[], limit: number): string[] {
  const needle = input.toLowerCase();
  return pool
    .map((candidate) => ({ candidate, d: editDistance(needle, candidate.toLowerCase()) }))
    .filter(({ candidate, d }) => d <= Math.max(2, Math.ceil(candidate.length / 3)) || candidate.toLowerCase().includes(needle))
    .sort((a, b) => a.d - b.d || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

/** Levenshtein distance, O(|a|·|b|) with one row; inputs are capped by callers' schemas. */
export function editDistance(a: string, b: string): number {
  if (a.length > 256 || b.length > 256) return Math.abs(a.length - b.length) + 256;
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}
