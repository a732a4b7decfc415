// Completion of resource-template and prompt arguments: only values that will work, prefix-filtered;
// one completion/complete handler answers at most 100 with the total and whether there are more.
import type { CompleteResult, McpServer } from "@modelcontextprotocol/server";

import { ASSET_NAMES, coverage, type Endpoint, endpointById, ENDPOINTS, KNOWN_ASSETS, normalizeName } from "../catalog/index.js";

/** The protocol's cap on values per completion response. */
export const MAX_COMPLETIONS = 100;

/** Every matching value (the handler caps the answer and reports the total). */
export type Completer = (value: string, args?: Record<string, string>) => string[];
/** Argument name → completer, per prompt name or per resource-template URI. */
export type CompleterTable = Readonly<Record<string, Readonly<Record<string, Completer>>>>;

function byPrefix(values: readonly string[], prefix: string): string[] {
  const p = prefix.trim().toLowerCase();
  return values.filter((v) => v.toLowerCase().startsWith(p));
}

export function completionResult(values: readonly string[]): CompleteResult {
  return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
}

/**
 * Replaces the SDK's completion handler (which fails on names it does not know) with one that
 * answers an unknown prompt, template or argument with no values: completion is only a hint, and
 * clients (the official conformance suite among them) probe with names a server need not have.
 */
export function installCompletions(server: McpServer, prompts: CompleterTable, templates: CompleterTable): void {
  server.server.setRequestHandler("completion/complete", (request) => {
    const { ref, argument, context } = request.params;
    const table = ref.type === "ref/prompt" ? prompts[ref.name] : ref.type === "ref/resource" ? templates[ref.uri] : undefined;
    const completer = table && Object.hasOwn(table, argument.name) ? table[argument.name] : undefined;
    return completionResult(completer ? completer(argument.value, context?.arguments) : []);
  });
}

/**
 * Assets the endpoint covers whose ticker starts with the prefix, then those whose name or alias
 * does ("bitc" → btc, "ether" → eth); the open set (and no endpoint) offers every known ticker.
 */
export function completeAssetFor(endpoint: Endpoint | undefined, prefix: string): string[] {
  const pool = (endpoint && coverage(endpoint)) ?? KNOWN_ASSETS;
  const byTicker = byPrefix(pool, prefix);
  const q = normalizeName(prefix);
  if (!q) return byTicker;
  const seen = new Set(byTicker);
  const byName = pool.filter((t) => !seen.has(t) && (ASSET_NAMES.get(t) ?? []).some((n) => normalizeName(n).startsWith(q)));
  return [...byTicker, ...byName];
}

/** Assets the endpoint named by group/segment covers; every known ticker until both are known. */
export function completeSeriesAsset(prefix: string, args: Record<string, string> | undefined): string[] {
  return completeAssetFor(args?.group && args?.segment ? endpointById(`${args.group}/${args.segment}`) : undefined, prefix);
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
