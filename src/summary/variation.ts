// Metrics-variation table: every metric's latest value, 24h change in the measure its nature
// calls for, 7-day sparkline and trend, largest 24h % movers first.
import { z } from "zod";
import { ENDPOINTS } from "../catalog/index.js";
import type { VariationRecord } from "../catalog/responses.js";
import { formatNumber, formatPercent } from "./format.js";
import { changeOf, type ChangeMeasure } from "./nature.js";
import { displayUnit } from "./scale.js";
import { FLAT_RANGE_SHARE, sparkline, TREND_RULE, TRENDS, trendLabel } from "./sparkline.js";
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
  change24hPercent: z.number().nullable().describe("the service's 24h % change, where a percentage means something (not for ratios or series that cross zero)"),
  change24h: z
    .object({ absolute: z.number(), measure: z.enum(["points", "units"]) })
    .nullable()
    .describe("ratios and series that cross zero: the last daily value minus the one before, in points or units"),
  sparkline: z.string().describe("7 daily values as ▁▂▃▄▅▆▇█, bars spanning at least 1 % of the level (constant → ▄; missing → space)"),
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

/** Bars span at least this share of the level, so a series the trend rule calls flat never draws full height. */
const SPARK_MIN_SPAN = 2 * FLAT_RANGE_SHARE;
export const SPARK_RULE = `Sparkline = last 7 daily values, bars spanning at least ${SPARK_MIN_SPAN * 100} % of the level`;

/** Rows with a % change first, by |24h %| descending (missing last), then rows measured in points or units, in position order. */
export function variationTable(records: readonly VariationRecord[], asset = ""): VariationRow[] {
  const rows = records.map((r): VariationRow => {
    const collection = sanitizeText(r.collection, LABEL_MAX);
    const field = sanitizeText(r.field, LABEL_MAX);
    const endpoint = byGroupField.get(`${collection}/${field.toLowerCase()}`);
    const unit = endpoint?.unit || null;
    const lastValue = finite(r.last_value);
    const values7d = (Array.isArray(r.sparkline_7d) ? r.sparkline_7d : []).slice(-7).map(finite);
    const measure: ChangeMeasure = endpoint ? changeOf(endpoint.nature, 1, 1).measure : "percent";
    const [before, last] = [values7d.at(-2), values7d.at(-1)];
    const change24h = measure !== "percent" && typeof before === "number" && typeof last === "number" ? { absolute: last - before + 0, measure } : null;
    return {
      position: finite(r.position) ?? 0,
      name: sanitizeText(r.name, NAME_MAX),
      collection,
      field,
      metric: endpoint?.id ?? null,
      unit,
      lastValue,
      lastValueText: lastValue === null ? "n/a" : valueText(lastValue, unit, asset),
      change24hPercent: measure === "percent" ? finite(r.variation_24h_percent) : null,
      change24h,
      sparkline: sparkline(values7d, SPARK_MIN_SPAN),
      trend: trendLabel(values7d),
      values7d,
    };
  });
  return rows.sort((a, b) => {
    const pa = a.change24h ? 1 : 0;
    const pb = b.change24h ? 1 : 0;
    if (pa !== pb) return pa - pb;
    const ma = a.change24hPercent === null ? -1 : Math.abs(a.change24hPercent);
    const mb = b.change24hPercent === null ? -1 : Math.abs(b.change24hPercent);
    return (pa ? 0 : mb - ma) || a.position - b.position;
  });
}

/** A value with its unit where the unit is money or the coin ("$25.12B", "549,252.84 BTC"). */
function valueText(x: number, unit: string | null, asset: string): string {
  if (unit === "USD") return formatNumber(x, "USD");
  const shown = displayUnit(unit ?? undefined, asset);
  return asset && shown === asset.toUpperCase() ? formatNumber(x, shown) : formatNumber(x);
}

function changeText(r: VariationRow, asset: string): string {
  if (r.change24h) {
    const { absolute, measure } = r.change24h;
    const text = valueText(absolute, r.unit, asset);
    const signed = absolute > 0 ? `+${text}` : text;
    return measure === "points" ? `${signed} pt` : signed;
  }
  return r.change24hPercent === null ? "n/a" : formatPercent(r.change24hPercent);
}

/** One line per metric: 24h change | sparkline | trend | last value | metric (and its name when it adds something). */
export function renderVariationText(asset: string, rows: readonly VariationRow[]): string {
  const who = sanitizeText(asset, 32);
  if (rows.length === 0) return `Metrics variation for ${who}: no metrics reported.`;
  const lines = [
    `Metrics variation for ${who}: ${rows.length} metrics, largest 24h % move first; ratios (change in points) and series that cross zero (change in units) last. ${SPARK_RULE}; ${TREND_RULE}.`,
    "24h | 7d | trend | last | metric",
  ];
  for (const r of rows) {
    const id = r.metric ?? `${r.collection}/${r.field}`;
    const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
    const named = r.name && plain(r.name) !== plain(id.split("/").pop() ?? "") && plain(r.name) !== plain(r.field) ? ` "${r.name}"` : "";
    const change = changeText(r, asset);
    lines.push(`${change} | ${r.sparkline} | ${r.trend} | ${r.lastValueText} | ${id}${named}`);
  }
  return lines.join("\n");
}
