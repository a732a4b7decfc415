// compare: one metric over 2–8 assets, or 2–4 metrics of one asset, aligned on one time grid with
// changes, ranks, correlation, lead/lag and co-sampled points.
import { z } from "zod";

import { type BackendResult, ServiceError, type TimeRecord, type Usage } from "../backend/types.js";
import { isoMinute } from "../catalog/dates.js";
import { PRICE, type Timeframe, TIMEFRAME_MS } from "../catalog/index.js";
import { seriesLine, seriesView } from "../charts/model/view-data.js";
import { viewField } from "../charts/model/view-schema.js";
import { ToolInputError } from "../mcp/errors.js";
import { requireInHistory } from "../mcp/lookup.js";
import {
  compactCompareDigest,
  compactCompareDigestSchema,
  type CompareMember,
  digestCompare,
  displayUnit,
  MAX_POINTS_LIMIT,
  MIN_POINTS,
  renderCompareText,
  seriesFromRecords,
} from "../summary/index.js";
import { checkEntitlements, type Member, resolveMembers } from "./compare-args.js";
import { defineTool, type ToolContext } from "./define-tool.js";
import { chartParam, endDateParam, startDateParam, tickerList } from "./params.js";
import { candlesOf } from "./price-digest.js";
import { credits, creditsSchema, definedOnly, footer, timeframeArg } from "./series-common.js";

const output = z.object({
  mode: z.enum(["assets", "metrics"]),
  timeframe: z.string(),
  query: z.record(z.string(), z.string()).optional().describe("the dates sent, when any"),
  notes: z.array(z.string()).optional(),
  digest: compactCompareDigestSchema,
  credits: creditsSchema,
  ...viewField,
});

export const compare = defineTool({
  name: "compare",
  title: "Compare series",
  description: "metric + 2–8 assets or asset + 2–4 metrics (price ok), aligned: change, rank, correlation, lead/lag.",
  input: z
    .object({
      metric: z.string().max(64).optional(),
      assets: tickerList(40),
      asset: z.string().max(40).optional(),
      metrics: tickerList(64),
      startDate: startDateParam,
      endDate: endDateParam,
      timeframe: z.string().max(8).optional().describe("As get_ohlcv"),
      // Default 160 / members (12–60), unlike the other tools: the answer says how many it returned.
      max_points: z.number().int().min(MIN_POINTS).max(MAX_POINTS_LIMIT).optional(),
      chart: chartParam,
    })
    .strict(),
  example: { metric: "price", assets: ["btc", "eth", "sol"], startDate: "2025-06-01" },
  output,
  view: "chart",
  async handle(args, context) {
    const { mode, members } = resolveMembers(args);
    const { timeframe, notes } = gridTimeframe(members, args.timeframe);
    checkEntitlements(members, context.backend.entitlements?.(context.call));
    const query = definedOnly({ startDate: args.startDate, endDate: args.endDate });
    // A member whose history the range misses is refused before anything is charged.
    for (const m of members)
      requireInHistory(
        context.backend,
        { endpoint: m.endpoint.id, asset: m.asset, query: m.endpoint.kind === "ohlcv" ? { ...query, timeframe } : query },
        TIMEFRAME_MS[timeframe],
      );
    // The first member alone: a bad date or range fails there, before the others are charged.
    const first = await fetchMember(context, members[0]!, query, timeframe);
    const rest = await Promise.all(members.slice(1).map((m) => fetchMember(context, m, query, timeframe)));
    const fetched = [first, ...rest];
    const digest = digestCompare(
      fetched.map((f) => f.member),
      { timeframeMs: TIMEFRAME_MS[timeframe], maxPoints: args.max_points },
    );
    const asOf = fetched.find((f) => f.asOfMs !== undefined)?.asOfMs;
    const lastEnd = digest.grid.last === null ? undefined : Date.parse(digest.grid.last) + TIMEFRAME_MS[timeframe];
    if (asOf !== undefined && lastEnd !== undefined && lastEnd > asOf) {
      notes.push(`The last bucket had not closed: it ends ${isoMinute(lastEnd)} UTC; data as of ${isoMinute(asOf)} UTC.`);
    }
    const usage = totalUsage(fetched.map((f) => f.usage));
    const { title, chartTitle } = titles(mode, members, fetched, timeframe);
    const text = [renderCompareText({ title, query, notes }, digest), footer(usage)].join("\n");
    const view = context.wantView
      ? seriesView(
          chartTitle,
          fetched.map((f) =>
            seriesLine(f.member.label, f.member.unit, f.member.times, f.member.values, undefined, f.member.nature === "flow"),
          ),
        )
      : undefined;
    return {
      text,
      structured: {
        mode,
        timeframe,
        ...(Object.keys(query).length > 0 && { query }),
        ...(notes.length > 0 && { notes }),
        digest: compactCompareDigest(digest),
        credits: credits(usage),
      },
      view,
    };
  },
});

/**
 * The grid's timeframe: a daily series sets it to 1d (intraday members are then asked for daily
 * buckets too, and the raise is noted); else the one asked, or 1d. A timeframe is refused where no
 * member has one.
 */
function gridTimeframe(members: readonly Member[], asked: string | undefined): { timeframe: Timeframe; notes: string[] } {
  timeframeArg(asked);
  if (asked !== undefined && !members.some((m) => m.endpoint.kind === "ohlcv")) {
    throw new ToolInputError(
      "invalid_arguments",
      "timeframe applies only to OHLCV metrics and price; daily series have no other timeframe. Remove timeframe.",
      { parameter: "timeframe" },
    );
  }
  const daily = members.find((m) => m.endpoint.kind === "series");
  const timeframe: Timeframe = daily ? "1d" : ((asked as Timeframe | undefined) ?? "1d");
  const notes = daily && asked !== undefined && asked !== "1d" ? [`timeframe ${asked} raised to 1d: ${daily.endpoint.id} is daily.`] : [];
  return { timeframe, notes };
}

/** The answer's title, and the chart's, which says what is drawn in words and units. */
function titles(
  mode: "assets" | "metrics",
  members: readonly Member[],
  fetched: ReadonlyArray<{ member: { unit: string; label: string } }>,
  timeframe: Timeframe,
): { title: string; chartTitle: string } {
  const units = [...new Set(fetched.map((f) => f.member.unit))].join(", ");
  const first = members[0]!;
  if (mode === "assets") {
    const assets = members.map((m) => m.asset).join(", ");
    const what = first.endpoint === PRICE ? "Price" : capital(first.endpoint.purpose.replace(/native units/g, "coins"));
    return {
      title: `${first.endpoint.id} (${units}, timeframe ${timeframe}) of ${assets}`,
      chartTitle: `${what} (${units}) · ${timeframe} · ${assets}`,
    };
  }
  return {
    title: `${first.asset}: ${members.map((m) => m.endpoint.id).join(", ")} (timeframe ${timeframe})`,
    chartTitle: `${first.asset.toUpperCase()} · ${fetched.map((f) => `${f.member.label} (${f.member.unit})`).join(", ")} · ${timeframe}`,
  };
}

async function fetchMember(
  context: ToolContext,
  m: Member,
  query: Record<string, string>,
  timeframe: Timeframe,
): Promise<{ member: CompareMember; usage: Usage; asOfMs?: number }> {
  const q = m.endpoint.kind === "ohlcv" ? { ...query, timeframe } : query;
  const result = await context.backend.fetch({ endpoint: m.endpoint.id, asset: m.asset, query: q }, context.call);
  const { times, values } = columnsOf(result, m);
  const nature = m.endpoint === PRICE ? "price" : m.endpoint.nature;
  // "native units" are each asset's own coin: BTC for btc, ETH for eth.
  const member: CompareMember = {
    label: m.label,
    metric: m.endpoint.id,
    asset: m.asset,
    unit: displayUnit(m.endpoint.unit, m.asset),
    nature,
    times,
    values,
  };
  return { member, usage: result.usage, ...(result.asOfMs !== undefined && { asOfMs: result.asOfMs }) };
}

function columnsOf(result: BackendResult, m: Member): { times: ArrayLike<number>; values: ArrayLike<number> } {
  if (m.endpoint === PRICE) {
    const c = candlesOf(result);
    return { times: c.times, values: c.close };
  }
  if (result.kind === "series" && result.columns) return result.columns;
  if (!Array.isArray(result.body))
    throw new ServiceError(502, "upstream_invalid_response", `${m.endpoint.id} returned no record array`, { endpoint: m.endpoint.id });
  return seriesFromRecords(result.body as TimeRecord[], m.endpoint.field);
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function totalUsage(all: readonly Usage[]): Usage {
  const charged = all.reduce((s, u) => s + u.charged, 0);
  const left = all.map((u) => u.creditsRemaining).filter((x): x is number => x !== undefined);
  return left.length ? { charged, creditsRemaining: Math.min(...left) } : { charged };
}
