// rank_assets' answer: the structured shape (rows as compact tuples, exclusions by reason) and the
// text a model reads, both from one RankDigest, so the two never disagree.
import { z } from "zod";

import { isoDay, isoMinute } from "../../catalog/dates.js";
import { num, timeField, when } from "../format/compact.js";
import { formatNumber, formatPrice } from "../format/format.js";
import { displayUnit } from "../format/scale.js";
import type { ExclusionReason, RankedRow, RankMeasure } from "./rank.js";

/** Names listed per exclusion reason; the count says how many more there were. */
export const NAMES_PER_REASON = 12;

export const EXCLUSION_TEXT: Record<ExclusionReason, string> = {
  not_covered: "not covered by the metric",
  listed_too_late: "history starts inside the window",
  no_data: "no value at the window's end",
  undefined_change: "change undefined (starts at or below 0)",
  read_failed: "read failed",
};

export const rankDigestSchema = z.object({
  metric: z.string(),
  unit: z.string().describe("of value; native units are each asset's own coin"),
  by: z.enum(["change", "value"]),
  measure: z.enum(["percent", "points", "units", "total", "value"]).describe("what quantity is"),
  window: z.string(),
  timeframe: z.string().describe("bucket size read"),
  order: z.enum(["desc", "asc"]),
  from: timeField.describe("window start (reference bucket, or first bucket summed)"),
  asOf: timeField.describe("close of the last complete bucket ranked"),
  universe: z.object({ kind: z.enum(["market_cap", "given"]), size: z.number().int() }),
  ranked: z.number().int().describe("assets with a quantity"),
  matched: z.number().int().describe("of those, within above/below"),
  rows: z.array(z.tuple([z.number().int(), z.string(), z.number(), z.number()])).describe("[rank, asset, quantity, value]"),
  tied: z.array(z.string()).optional().describe("assets sharing a rank (market-cap order)"),
  excluded: z
    .array(z.object({ reason: z.string(), count: z.number().int(), assets: z.array(z.string()), detail: z.string().optional() }))
    .optional(),
});
export type RankDigestOut = z.infer<typeof rankDigestSchema>;

export interface Exclusion {
  asset: string;
  reason: ExclusionReason;
  /** A failed read's error code. */
  detail?: string;
}

export interface RankDigest {
  metric: string;
  unit: string;
  by: "change" | "value";
  measure: RankMeasure;
  window: string;
  timeframe: string;
  order: "desc" | "asc";
  fromMs: number;
  asOfMs: number;
  universe: { kind: "market_cap" | "given"; size: number };
  ranked: number;
  matched: number;
  rows: RankedRow[];
  excluded: Exclusion[];
  above?: number | undefined;
  below?: number | undefined;
  /** The metric is a flow: its value is the window's total. */
  flow: boolean;
}

/** The quantity as printed (and as ties are judged): 2 decimals for % and points, the value's own form otherwise. */
export function quantityKey(measure: RankMeasure): (q: number) => string {
  if (measure === "percent") return (q) => q.toFixed(2);
  // Ratios sit near 1: three significant digits tell their changes apart where two decimals would not.
  return measure === "points" ? (q) => String(Number(q.toPrecision(3))) : (q) => String(num(q));
}

function formatQuantity(q: number, measure: RankMeasure, unit: string, asset: string): string {
  const body = quantityKey(measure)(q);
  if (measure === "percent") return `${q > 0 && body !== "0.00" ? "+" : ""}${body}%`;
  if (measure === "points") return `${q > 0 ? "+" : ""}${body}`;
  return formatValue(q, unit, asset, measure === "units");
}

function formatValue(x: number, unit: string, asset: string, signed = false): string {
  const sign = signed && x > 0 ? "+" : "";
  if (unit === "USD" && Math.abs(x) < 1e6) return `${x < 0 ? "-" : sign}$${formatPrice(Math.abs(x))}`;
  // A ratio's unit says nothing a value does not: left off.
  const shown = unit === "ratio" ? "" : displayUnit(unit, asset);
  return sign + formatNumber(x, shown === "USD" ? "USD" : undefined) + (shown && shown !== "USD" ? ` ${shown}` : "");
}

function at(ms: number): string {
  return ms % 86_400_000 === 0 ? isoDay(ms) : isoMinute(ms);
}

function groups(excluded: readonly Exclusion[]): Array<{ reason: ExclusionReason; detail?: string; assets: string[] }> {
  const out = new Map<string, { reason: ExclusionReason; detail?: string; assets: string[] }>();
  for (const e of excluded) {
    const k = `${e.reason}:${e.detail ?? ""}`;
    const g = out.get(k) ?? { reason: e.reason, ...(e.detail !== undefined && { detail: e.detail }), assets: [] };
    g.assets.push(e.asset);
    out.set(k, g);
  }
  return [...out.values()];
}

export function compactRank(d: RankDigest): RankDigestOut {
  const tied = d.rows.filter((r) => r.tie).map((r) => r.asset);
  const excluded = groups(d.excluded).map((g) => ({
    reason: g.reason,
    count: g.assets.length,
    assets: g.assets.slice(0, NAMES_PER_REASON),
    ...(g.detail !== undefined && { detail: g.detail }),
  }));
  return {
    metric: d.metric,
    unit: d.unit,
    by: d.by,
    measure: d.measure,
    window: d.window,
    timeframe: d.timeframe,
    order: d.order,
    from: when(new Date(d.fromMs).toISOString()),
    asOf: when(new Date(d.asOfMs).toISOString()),
    universe: d.universe,
    ranked: d.ranked,
    matched: d.matched,
    rows: d.rows.map((r) => [r.rank, r.asset, num(r.quantity), num(r.value)]),
    ...(tied.length > 0 && { tied }),
    ...(excluded.length > 0 && { excluded }),
  };
}

const QUANTITY_NAME: Record<RankMeasure, string> = { percent: "change", points: "change", units: "change", total: "total", value: "value" };

export function renderRankText(d: RankDigest): string {
  const universe = d.universe.kind === "market_cap" ? `the ${d.universe.size} largest by market cap it covers` : `${d.universe.size} given`;
  const range = [d.above !== undefined && `above ${d.above}`, d.below !== undefined && `below ${d.below}`].filter(Boolean).join(" and ");
  const shown = d.rows.length < d.matched ? `top ${d.rows.length} of ${d.matched}` : `all ${d.rows.length}`;
  const unit = d.unit === "native units" ? "each asset's own coin" : d.unit;
  const ranked = d.by === "change" && d.measure === "percent" ? "% change" : QUANTITY_NAME[d.measure];
  const lines = [
    `${d.metric} (${unit}) ranked by ${d.window} ${ranked}, ${d.order === "desc" ? "highest" : "lowest"} first: ${shown}${range ? ` ${range} (of ${d.ranked} ranked)` : " ranked"}; universe: ${universe}.`,
    `Window ${at(d.fromMs)} → ${at(d.asOfMs)} UTC: ${d.timeframe} buckets, complete only${d.flow ? "" : "; closes compared"}.`,
  ];
  // Beside a change, the figure it is a change of: the latest price or value, or a flow's window total.
  const valueName = d.by === "value" ? "" : d.measure === "percent" && d.flow ? " total" : d.metric === "price" ? " price" : " value";
  lines.push(`rank asset ${QUANTITY_NAME[d.measure]}${valueName}`);
  for (const r of d.rows) {
    const q = formatQuantity(r.quantity, d.measure, d.unit, r.asset);
    const v = d.by === "change" ? ` ${formatValue(r.value, d.unit, r.asset)}` : "";
    lines.push(`${r.tie ? "=" : ""}${r.rank} ${r.asset} ${q}${v}`);
  }
  if (d.rows.length === 0) lines.push(`(none${range ? ` ${range}` : ""})`);
  if (d.rows.some((r) => r.tie)) lines.push("= ties: the same figure as printed; market cap orders them.");
  const out = groups(d.excluded);
  if (out.length) {
    const parts = out.map((g) => {
      const names =
        g.assets.slice(0, NAMES_PER_REASON).join(", ") +
        (g.assets.length > NAMES_PER_REASON ? ` +${g.assets.length - NAMES_PER_REASON} more` : "");
      return `${EXCLUSION_TEXT[g.reason]}${g.detail ? ` (${g.detail})` : ""}: ${names}`;
    });
    lines.push(`Left out ${d.excluded.length} (no value imputed): ${parts.join("; ")}.`);
  }
  return lines.join("\n");
}
