// rank_assets' reads: what they would cost, refused whole before the first when the key's credits
// or rate window cannot cover them; then the first read alone (a bad key or plan fails there, once),
// the rest fanned out a few at a time with progress and cancellation. A failed read of one asset
// leaves that asset out with its reason; a read the backend already knows would find nothing
// (history starting inside the window) is not made.
import { type BackendContext, type BackendRequest, type BackendResult, ServiceError, type Usage } from "../backend/types.js";
import { type Endpoint, PRICE } from "../catalog/index.js";
import { seriesFromRecords } from "../summary/index.js";
import type { Columns } from "../summary/rank/rank.js";
import type { Exclusion } from "../summary/rank/rank-text.js";
import type { ToolContext } from "./define-tool.js";
import { candlesOf } from "./price-digest.js";
import type { RankPlan } from "./rank-args.js";

/** Reads in flight at once: bounded so a 50-asset rank never floods the service or its rate window. */
export const RANK_CONCURRENCY = 4;

/** Refusals that would repeat for every asset: the first read's is the answer, not an exclusion. */
const WHOLE_CALL = new Set([
  "unauthorized",
  "conflicting_credentials",
  "metric_not_allowed",
  "invalid_parameter",
  "credits_exhausted",
  "rate_limited",
]);

export interface AssetRead {
  asset: string;
  columns: Columns;
  /** The service's "now" for this answer: a bucket closing after it is partial. */
  asOfMs: number;
}

export interface Reads {
  reads: AssetRead[];
  excluded: Exclusion[];
  usage: Usage;
  /** Reads made (cached answers included). */
  made: number;
}

/**
 * One asset's read: from a little before the window (and the window before it, for a flow's change)
 * to now, given the service's "now" (`anchorMs`); without it, the service's default latest buckets.
 */
function requestOf(plan: RankPlan, asset: string, byChange: boolean, anchorMs?: number): BackendRequest {
  const query: Record<string, string> = plan.endpoint.kind === "ohlcv" ? { timeframe: plan.timeframe } : {};
  if (anchorMs !== undefined) {
    const tf = plan.timeframeMs;
    // Two buckets of margin: the last complete one ends up to a bucket before now, and its reference a window before that.
    query.startDate = new Date(Math.floor((anchorMs - reachMs(plan, byChange)) / tf) * tf - 2 * tf).toISOString();
  }
  return { endpoint: plan.endpoint.id, asset, query };
}

function columnsOf(result: BackendResult, endpoint: Endpoint): Columns {
  if (endpoint === PRICE) {
    const c = candlesOf(result);
    return { times: c.times, values: c.close };
  }
  if (result.kind === "series" && result.columns) return result.columns;
  if (!Array.isArray(result.body))
    throw new ServiceError(502, "upstream_invalid_response", `${endpoint.id} returned no record array`, { endpoint: endpoint.id });
  return seriesFromRecords(result.body as never, endpoint.field);
}

/** The span a window needs before the last bucket: a flow's change compares it with the window before. */
function reachMs(plan: RankPlan, byChange: boolean): number {
  return plan.endpoint.nature === "flow" && byChange ? 2 * plan.windowMs : plan.windowMs;
}

/**
 * Assets whose history, as the backend knows it without a read, cannot fill the window ending at
 * the latest possible bucket: left out unread (the real service cannot tell, so it reads them).
 */
function unreadable(context: ToolContext, plan: RankPlan, byChange: boolean): { excluded: Exclusion[]; anchorMs?: number } {
  const out: Exclusion[] = [];
  let anchorMs: number | undefined;
  for (const asset of plan.universe.assets) {
    const span = context.backend.span?.(requestOf(plan, asset, byChange));
    if (!span) continue;
    anchorMs ??= span.endMs;
    if (span.history === null) out.push({ asset, reason: "no_data" });
    else if (span.history.firstMs > span.endMs - reachMs(plan, byChange)) out.push({ asset, reason: "listed_too_late" });
  }
  return { excluded: out, ...(anchorMs !== undefined && { anchorMs }) };
}

/** Refuses, before any read, a rank the key cannot pay for or its rate window cannot admit, naming one that fits. */
async function requireAffordable(context: ToolContext, assets: readonly string[], requests: readonly BackendRequest[]): Promise<void> {
  if (!context.backend.quote) return;
  const quote = await context.backend.quote(requests, context.call);
  const total = quote.costs.reduce((s, c) => s + c, 0);
  const left = quote.creditsRemaining;
  const rate = quote.rate;
  const creditsShort = left !== undefined && total > left;
  const rateShort = rate !== undefined && assets.length > rate.remaining;
  if (!creditsShort && !rateShort) return;
  // The largest head of the universe (market-cap order) both the balance and the window admit.
  let fits = 0;
  let spent = 0;
  for (const cost of quote.costs) {
    if ((left !== undefined && spent + cost > left) || (rate !== undefined && fits + 1 > rate.remaining)) break;
    spent += cost;
    fits++;
  }
  const cost = `This rank reads ${assets.length} series costing ${total} credit${total === 1 ? "" : "s"}`;
  const smaller =
    fits >= 2
      ? ` A rank that fits now: assets=${JSON.stringify(assets.slice(0, fits))}.`
      : rateShort
        ? ` Ask again in ${rate!.resetS} s, when the window has room.`
        : " Wait for the balance to be renewed, or use another key.";
  if (rateShort) {
    throw new ServiceError(
      429,
      "rate_limited",
      `${cost}; the key's rate window admits ${rate!.remaining} more request${rate!.remaining === 1 ? "" : "s"} now (${rate!.resetS} s until it frees one). Nothing was read or charged.${smaller}`,
      { retryAfterS: rate!.resetS, complete: true, ...(left !== undefined && { creditsRemaining: left }) },
    );
  }
  throw new ServiceError(402, "credits_exhausted", `${cost}; the key has ${left} left. Nothing was read or charged.${smaller}`, {
    creditsRemaining: left!,
    complete: true,
  });
}

export async function readUniverse(context: ToolContext, plan: RankPlan, byChange: boolean): Promise<Reads> {
  const { excluded: skipped, anchorMs } = unreadable(context, plan, byChange);
  let anchor = anchorMs;
  const skip = new Set(skipped.map((e) => e.asset));
  const assets = plan.universe.assets.filter((a) => !skip.has(a));
  const excluded: Exclusion[] = [...plan.notCovered.map((asset) => ({ asset, reason: "not_covered" as const })), ...skipped];
  if (assets.length === 0) return { reads: [], excluded, usage: { charged: 0 }, made: 0 };
  await requireAffordable(
    context,
    assets,
    assets.map((a) => requestOf(plan, a, byChange, anchor)),
  );
  const { signal, onProgress } = context.call;
  // Window-by-window progress of one read would interleave with the rank's: the rank reports its own.
  const call: BackendContext = { ...context.call, onProgress: undefined };
  const reads: AssetRead[] = [];
  const failed = new Map<string, ServiceError>();
  let charged = 0;
  let creditsRemaining: number | undefined;
  let done = 0;
  const readOne = async (asset: string, first: boolean) => {
    try {
      const result = await context.backend.fetch(requestOf(plan, asset, byChange, anchor), call);
      charged += result.usage.charged;
      const left = result.usage.creditsRemaining;
      // Reads finish out of order: the lowest balance reported is the latest.
      if (left !== undefined) creditsRemaining = creditsRemaining === undefined ? left : Math.min(creditsRemaining, left);
      const asOfMs = result.asOfMs ?? result.receivedMs ?? Date.now();
      reads.push({ asset, columns: columnsOf(result, plan.endpoint), asOfMs });
      // Without the backend's span, the first answer's "now" bounds the other reads' range.
      anchor ??= asOfMs;
    } catch (error) {
      signal?.throwIfAborted();
      if (!(error instanceof ServiceError) || (first && WHOLE_CALL.has(error.code))) throw error;
      failed.set(asset, error);
    }
    onProgress?.({ done: ++done, total: assets.length, message: `${asset} read` });
  };
  await readOne(assets[0]!, true);
  let next = 1;
  const worker = async () => {
    while (next < assets.length) {
      signal?.throwIfAborted();
      await readOne(assets[next++]!, false);
    }
  };
  await Promise.all(Array.from({ length: Math.min(RANK_CONCURRENCY, assets.length - 1) }, worker));
  // Every read refused alike is the call's answer, not fifty exclusions.
  if (reads.length === 0 && failed.size > 0) throw failed.values().next().value!;
  for (const asset of assets) {
    const error = failed.get(asset);
    if (error) excluded.push({ asset, reason: "read_failed", detail: error.code });
  }
  // Rows in market-cap (or given) order whatever order the reads finished in.
  const order = new Map(plan.universe.assets.map((a, i) => [a, i]));
  reads.sort((a, b) => order.get(a.asset)! - order.get(b.asset)!);
  const usage: Usage = creditsRemaining === undefined ? { charged } : { charged, creditsRemaining };
  return { reads, excluded, usage, made: assets.length };
}
