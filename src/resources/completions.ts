// Completion callbacks for resource-template and prompt arguments: only values that will work,
// prefix-filtered, at most 100 (the protocol's cap per response).
import { ASSET_SETS, coverage, endpointById, ENDPOINTS, KNOWN_ASSETS, type AssetSetId } from "../catalog/index.js";

export const MAX_COMPLETIONS = 100;

function byPrefix(values: readonly string[], prefix: string): string[] {
  const p = prefix.trim().toLowerCase();
  const out: string[] = [];
  for (const v of values) {
    if (v.toLowerCase().startsWith(p)) out.push(v);
    if (out.length === MAX_COMPLETIONS) break;
  }
  return out;
}

/** Assets of a set; the open set offers every known ticker. */
export function completeAssetIn(setId: AssetSetId, prefix: string): string[] {
  return byPrefix(ASSET_SETS[setId].members ?? KNOWN_ASSETS, prefix);
}

/** Assets the endpoint named by group/segment covers; every known ticker until both are known. */
export function completeSeriesAsset(prefix: string, args: Record<string, string> | undefined): string[] {
  const endpoint = args?.group && args?.segment ? endpointById(`${args.group}/${args.segment}`) : undefined;
  return byPrefix((endpoint && coverage(endpoint)) ?? KNOWN_ASSETS, prefix);
}

const SERIES_LIKE = ENDPOINTS.filter((e) => e.kind === "series" || e.kind === "ohlcv");

export function completeGroup(prefix: string): string[] {
  return byPrefix([...new Set(SERIES_LIKE.map((e) => e.group))], prefix);
}

/** Segments of the chosen group (all when none is chosen), narrowed to those covering the chosen asset. */
export function completeSegment(prefix: string, args: Record<string, string> | undefined): string[] {
  const asset = args?.asset?.toLowerCase();
  const fits = SERIES_LIKE.filter((e) => (!args?.group || e.group === args.group) && (!asset || (coverage(e)?.includes(asset) ?? true)));
  return byPrefix([...new Set(fits.map((e) => e.segment))], prefix);
}
