// rank_assets: one metric over up to 50 assets, ranked by its change or value over a window, with
// what was left out and why. "What moved today" is the default: price, 24h change, highest first.
import { z } from "zod";

import { ToolInputError } from "../mcp/errors.js";
import {
  type Candidate,
  type Columns,
  completeCount,
  lastComplete,
  measure,
  measureOf,
  RANK_BY,
  rankCandidates,
} from "../summary/rank/rank.js";
import { compactRank, type Exclusion, quantityKey, type RankDigest, rankDigestSchema, renderRankText } from "../summary/rank/rank-text.js";
import { defineTool } from "./define-tool.js";
import { tickerList } from "./params.js";
import { planRank, RANK_WINDOWS } from "./rank-args.js";
import { readUniverse } from "./rank-reads.js";
import { credits, creditsSchema, footer } from "./series-common.js";

const output = rankDigestSchema.extend({ reads: z.number().int(), credits: creditsSchema });

/** The columns' leading `n` points (typed arrays are viewed, not copied). */
function head(c: Columns, n: number): Columns {
  const cut = (a: ArrayLike<number>) => ("subarray" in a ? (a as Float64Array).subarray(0, n) : Array.prototype.slice.call(a, 0, n));
  return { times: cut(c.times), values: cut(c.values) };
}

export const rankAssets = defineTool({
  name: "rank_assets",
  title: "Rank assets",
  description: "Rank up to 50 assets by a metric's change or value over a window (default: price, 24h change, 50 largest).",
  input: z
    .object({
      metric: z.string().max(64).default("price").describe("price or a get_series/get_ohlcv id"),
      by: z.enum(RANK_BY).default("change"),
      window: z.enum(RANK_WINDOWS).default("24h"),
      order: z.enum(["desc", "asc"]).default("desc"),
      limit: z.number().int().min(1).max(25).default(10),
      assets: tickerList(40, 64),
      above: z.number().optional().describe("keep quantity > this (% for change)"),
      below: z.number().optional(),
    })
    .strict(),
  example: { metric: "exchange_flow/exchange_reserve", window: "30d", order: "asc" },
  output,
  async handle(args, context) {
    const plan = planRank(args);
    const byChange = args.by === "change";
    const { reads, excluded, usage, made } = await readUniverse(context, plan, byChange);
    const spec = { by: args.by, nature: plan.endpoint.nature, timeframeMs: plan.timeframeMs, windowMs: plan.windowMs };
    const out: Exclusion[] = [...excluded];
    // Every row ends at one bucket: the latest complete one any asset has; a bucket still open is never ranked.
    const complete = reads.map((r) => ({ ...r, columns: head(r.columns, completeCount(r.columns.times, plan.timeframeMs, r.asOfMs)) }));
    const endMs = commonEnd(complete, plan, made, usage.charged);
    const candidates: Candidate[] = [];
    // The window as instants: from the reference bucket's close (stocks) or the first summed bucket's start (flows).
    let fromMs = endMs - plan.windowMs + plan.timeframeMs;
    for (const r of complete) {
      const m = measure(r.columns, spec, endMs);
      if (m.ok) {
        candidates.push({ asset: r.asset, quantity: m.quantity, value: m.value });
        if (plan.endpoint.nature !== "flow") fromMs = Math.min(fromMs, m.fromMs + plan.timeframeMs);
      } else out.push({ asset: r.asset, reason: m.reason });
    }
    const measured = measureOf(spec);
    const { matched, rows } = rankCandidates(candidates, {
      order: args.order,
      limit: args.limit,
      above: args.above,
      below: args.below,
      key: quantityKey(measured),
    });
    const order = new Map(plan.universe.assets.concat(plan.notCovered).map((a, i) => [a, i]));
    out.sort((a, b) => order.get(a.asset)! - order.get(b.asset)!);
    const digest: RankDigest = {
      metric: plan.endpoint.id,
      unit: plan.endpoint.unit ?? "",
      by: args.by,
      measure: measured,
      window: plan.window,
      timeframe: plan.timeframe,
      order: args.order,
      fromMs,
      asOfMs: endMs + plan.timeframeMs,
      universe: { kind: plan.universe.kind, size: plan.universe.assets.length + plan.notCovered.length },
      ranked: candidates.length,
      matched,
      rows,
      excluded: out,
      above: args.above,
      below: args.below,
      flow: plan.endpoint.nature === "flow",
    };
    const text = [renderRankText(digest), `${footer(usage)} (${made} read${made === 1 ? "" : "s"})`].join("\n");
    return { text, structured: { ...compactRank(digest), reads: made, credits: credits(usage) } };
  },
});

/**
 * The bucket every row ends at: the latest complete one any asset has. Refused when none has one:
 * free when nothing was read, else saying what the reads cost.
 */
function commonEnd(
  complete: ReadonlyArray<{ columns: Columns }>,
  plan: ReturnType<typeof planRank>,
  made: number,
  charged: number,
): number {
  const ends = complete.map((r) => lastComplete(r.columns, plan.timeframeMs, Infinity)).filter((t): t is number => t !== undefined);
  if (ends.length === 0 && made === 0) {
    throw new ToolInputError(
      "invalid_parameter",
      `No asset of the universe has ${plan.endpoint.id} data over the last ${plan.window}; nothing was read or charged. Try a shorter window or other assets.`,
      { parameter: "window" },
    );
  }
  if (ends.length === 0) {
    throw new ToolInputError(
      "invalid_parameter",
      `None of the ${made} ${plan.endpoint.id} reads had a complete ${plan.timeframe} bucket; ${charged} credits charged for them. Try a longer window or other assets.`,
      { parameter: "window", charged },
    );
  }
  return Math.max(...ends);
}
