// Metrics-variation table: every metric's latest value, 24h change, 7-day sparkline and trend,
// largest 24h movers first.
import { z } from "zod";
import { ENDPOINTS } from "../catalog/index.js";
import type { VariationRecord } from "../catalog/responses.js";
import { formatNumber, formatPercent } from "./format.js";
import { sparkline, TREND_RULE, TRENDS, trendLabel } from "./sparkline.js";
import { sanitizeText } from "./text.js";

const NAME_MAX = 80;
const LABEL_MAX = 64;

export const variationRowSchema = z.object({
  position: z.number(),
  name: z.string(),
  collection: z.string(),
  field: z.string(),
  metric: z.string().nullable().describe("catalog endpoint id of this metric (for get_series / get_ohlcv), when known"),
  unit: z.string().nullable(),
  lastValue: z.number().nullable(),
  lastValueText: z.string(),
  change24hPercent: z.number().nullable(),
  sparkline: z.string().describe("7 daily values as ▁▂▃▄▅▆▇█ (min → ▁, max → █; constant → ▄; missing → space)"),
  trend: z.enum(TRENDS).describe(TREND_RULE),
  values7d: z.array(z.number().nullable()),
});
export type VariationRow = z.infer<typeof variationRowSchema>;
export const variationTableSchema = z.array(variationRowSchema);

/** Structured result of a metrics-variation call: the asset and its rows. */
export const variationDigestSchema = z.object({ asset: z.string(), count: z.number().int(), rows: variationTableSchema });
export type VariationDigest = z.infer<typeof variationDigestSchema>;

const byGroupField = new Map(ENDPOINTS.filter((e) => e.field).map((e) => [`${e.group}/${e.field.toLowerCase()}`, e]));

const finite = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/** Rows sorted by |24h change| descending (missing changes last, then by position). */
export function variationTable(records: readonly VariationRecord[]): VariationRow[] {
  const rows = records.map((r): VariationRow => {
    const collection = sanitizeText(r.collection, LABEL_MAX);
    const field = sanitizeText(r.field, LABEL_MAX);
    const endpoint = byGroupField.get(`${collection}/${field.toLowerCase()}`);
    const unit = endpoint?.unit || null;
    const lastValue = finite(r.last_value);
    const values7d = (Array.isArray(r.sparkline_7d) ? r.sparkline_7d : []).slice(-7).map(finite);
    return {
      position: finite(r.position) ?? 0,
      name: sanitizeText(r.name, NAME_MAX),
      collection,
      field,
      metric: endpoint?.id ?? null,
      unit,
      lastValue,
      lastValueText: lastValue === null ? "n/a" : formatNumber(lastValue, unit === "USD" ? "USD" : undefined),
      change24hPercent: finite(r.variation_24h_percent),
      sparkline: sparkline(values7d),
      trend: trendLabel(values7d),
      values7d,
    };
  });
  return rows.sort((a, b) => {
    const ma = a.change24hPercent === null ? -1 : Math.abs(a.change24hPercent);
    const mb = b.change24hPercent === null ? -1 : Math.abs(b.change24hPercent);
    return mb - ma || a.position - b.position;
  });
}

/** One line per metric: 24h change | sparkline | trend | last value | metric (and its name when it adds something). */
export function renderVariationText(asset: string, rows: readonly VariationRow[]): string {
  const who = sanitizeText(asset, 32);
  if (rows.length === 0) return `Metrics variation for ${who}: no metrics reported.`;
  const lines = [
    `Metrics variation for ${who}: ${rows.length} metrics, largest 24h move first. Sparkline = last 7 daily values (▁ min, █ max); ${TREND_RULE}.`,
    "24h | 7d | trend | last | metric",
  ];
  for (const r of rows) {
    const id = r.metric ?? `${r.collection}/${r.field}`;
    const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
    const named = r.name && plain(r.name) !== plain(id.split("/").pop() ?? "") && plain(r.name) !== plain(r.field) ? ` "${r.name}"` : "";
    const change = r.change24hPercent === null ? "n/a" : formatPercent(r.change24hPercent);
    lines.push(`${change} | ${r.sparkline} | ${r.trend} | ${r.lastValueText} | ${id}${named}`);
  }
  return lines.join("\n");
}
