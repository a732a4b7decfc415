// Metrics-variation table: every metric's latest value, 24h change in the measure its nature
// calls for, 7-day sparkline and trend, largest 24h % movers first.
import { z } from "zod";

import { isoDay } from "../../catalog/dates.js";
import { DAY_MS, ENDPOINTS } from "../../catalog/index.js";
import type { VariationRecord } from "../../catalog/responses.js";
import { formatNumber, formatPercent } from "../format/format.js";
import { displayUnit } from "../format/scale.js";
import { sanitizeText } from "../format/text.js";
import { type ChangeMeasure, changeOf } from "../series/nature.js";
import { FLAT_RANGE_SHARE, sparkline, TREND_RULE, trendLabel, TRENDS } from "./sparkline.js";

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
  change24hPercent: z
    .number()
    .nullable()
    .describe("the service's 24h % change, where a percentage means something (not for ratios or series that cross zero)"),
  change24h: z
    .object({ absolute: z.number(), measure: z.enum(["points", "units"]) })
    .nullable()
    .describe("ratios and series that cross zero: the last daily value minus the one before, in points or units"),
  sparkline: z.string().describe("7 daily values as ▁▂▃▄▅▆▇█, bars spanning at least 1 % of the level (constant → ▄; missing → space)"),
  trend: z.enum(TRENDS).describe(TREND_RULE),
  values7d: z.array(z.number().nullable()),
  lastDate: z.string().nullable().describe("day (YYYY-MM-DD) of lastValue, when the service dates it"),
  ended: z.boolean().describe("the series ended before the day the others describe: no 24h change"),
});
export type VariationRow = z.infer<typeof variationRowSchema>;
export const variationTableSchema = z.array(variationRowSchema);

/** The asset's daily close on the day described, beside the metrics. */
export const variationPriceSchema = z.object({
  lastValue: z.number(),
  change24hPercent: z.number().nullable(),
  values7d: z.array(z.number()),
  sparkline: z.string(),
  trend: z.enum(TRENDS),
});

/** Structured result of a metrics-variation call: the asset, the day described, its price and its rows. */
export const variationDigestSchema = z.object({
  asset: z.string(),
  day: z.string().nullable().describe("the UTC day the last values describe; 24h is this day against the one before"),
  count: z.number().int(),
  price: variationPriceSchema
    .nullable()
    .describe("daily close (USD) of the asset's reference market on that day, when the backend gives it"),
  rows: variationTableSchema,
});
export type VariationDigest = z.infer<typeof variationDigestSchema>;

const byGroupField = new Map(ENDPOINTS.filter((e) => e.field).map((e) => [`${e.group}/${e.field.toLowerCase()}`, e]));

const finite = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/** Bars span at least this share of the level, so a series the trend rule calls flat never draws full height. */
const SPARK_MIN_SPAN = 2 * FLAT_RANGE_SHARE;
export const SPARK_RULE = `Sparkline = last 7 daily values, bars spanning at least ${SPARK_MIN_SPAN * 100} % of the level`;

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
/** The YYYY-MM-DD of a `last_date` given as a date or a date-time; null otherwise. */
const dateOf = (x: unknown): string | null => (typeof x === "string" && /^\d{4}-\d{2}-\d{2}(T|$)/.test(x) ? x.slice(0, 10) : null);

/**
 * The day the last values describe: the latest `last_date` of the records, else the last whole UTC
 * day before the service's "now" (the service serves a day once it has ended), else null.
 */
export function describedDay(records: readonly VariationRecord[], asOfMs?: number): string | null {
  let day = "";
  for (const r of records) {
    const d = dateOf(r.last_date);
    if (d && d > day) day = d;
  }
  if (day) return day;
  return asOfMs !== undefined && Number.isFinite(asOfMs) ? isoDay(Math.floor(asOfMs / DAY_MS) * DAY_MS - DAY_MS) : null;
}

/** Live rows with a % change first, by |24h %| descending (missing last), then rows in points or units, then ended rows, in position order. */
export function variationTable(
  records: readonly VariationRecord[],
  asset = "",
  day: string | null = describedDay(records),
): VariationRow[] {
  const rows = records.map((r): VariationRow => {
    const collection = sanitizeText(r.collection, LABEL_MAX);
    const field = sanitizeText(r.field, LABEL_MAX);
    const endpoint = byGroupField.get(`${collection}/${field.toLowerCase()}`);
    const unit = endpoint?.unit || null;
    const lastValue = finite(r.last_value);
    const values7d = (Array.isArray(r.sparkline_7d) ? r.sparkline_7d : []).slice(-7).map(finite);
    const lastDate = dateOf(r.last_date);
    const ended = day !== null && lastDate !== null && lastDate < day;
    const measure: ChangeMeasure = endpoint ? changeOf(endpoint.nature, 1, 1).measure : "percent";
    const [before, last] = [values7d.at(-2), values7d.at(-1)];
    const change24h =
      !ended && measure !== "percent" && typeof before === "number" && typeof last === "number"
        ? { absolute: last - before + 0, measure }
        : null;
    return {
      position: finite(r.position) ?? 0,
      // The service's own "(series ended …)" note: the ended section says it with the date.
      name: sanitizeText(r.name, NAME_MAX).replace(/ \(series ended [^)]*\)$/, ""),
      collection,
      field,
      metric: endpoint?.id ?? null,
      unit,
      lastValue,
      lastValueText:
        lastValue === null
          ? "n/a"
          : unit?.startsWith("log change")
            ? `${formatNumber(lastValue)} (${formatPercent((Math.exp(lastValue) - 1) * 100)} in 365 d)`
            : valueText(lastValue, unit, asset),
      change24hPercent: !ended && measure === "percent" ? finite(r.variation_24h_percent) : null,
      change24h,
      sparkline: sparkline(values7d, SPARK_MIN_SPAN),
      trend: trendLabel(values7d),
      values7d,
      lastDate,
      ended,
    };
  });
  const rank = (r: VariationRow) => (r.ended ? 2 : r.change24h ? 1 : 0);
  return rows.sort((a, b) => {
    if (rank(a) !== rank(b)) return rank(a) - rank(b);
    const ma = a.change24hPercent === null ? -1 : Math.abs(a.change24hPercent);
    const mb = b.change24hPercent === null ? -1 : Math.abs(b.change24hPercent);
    return (rank(a) === 0 ? mb - ma : 0) || a.position - b.position;
  });
}

/** The asset's daily closes of the described days (up to seven, ending on `day`), as a price row. */
export function variationPrice(
  times: ArrayLike<number>,
  closes: ArrayLike<number>,
  day: string | null,
): z.infer<typeof variationPriceSchema> | null {
  const values: number[] = [];
  let lastTime = NaN;
  for (let i = 0; i < Math.min(times.length, closes.length); i++) {
    if (!Number.isFinite(closes[i]!) || (day !== null && isoDay(times[i]!) > day)) continue;
    values.push(closes[i]!);
    lastTime = times[i]!;
  }
  if (values.length === 0 || (day !== null && isoDay(lastTime) !== day)) return null;
  const week = values.slice(-7);
  const prev = week.at(-2);
  const last = week.at(-1)!;
  return {
    lastValue: last,
    change24hPercent: prev === undefined || prev === 0 ? null : (last / prev - 1) * 100,
    values7d: week,
    sparkline: sparkline(week, SPARK_MIN_SPAN),
    trend: trendLabel(week),
  };
}

/** Quantities without a unit: a ratio, a difficulty, a log change. */
const DIMENSIONLESS = (unit: string) => unit === "ratio" || unit === "difficulty" || unit.startsWith("log change");

/** A value with its unit: money with "$", the coin by its ticker, any other unit (trades, addresses) after the number. */
function valueText(x: number, unit: string | null, asset: string): string {
  if (unit === "USD") return formatNumber(x, "USD");
  if (unit?.startsWith("USD per ")) return `${formatNumber(x, "USD")} ${unit.slice(4)}`;
  const shown = unit && DIMENSIONLESS(unit) ? "" : displayUnit(unit ?? undefined, asset);
  return shown ? formatNumber(x, shown) : formatNumber(x);
}

function changeText(r: VariationRow, asset: string): string {
  if (r.change24h) {
    const { absolute, measure } = r.change24h;
    if (measure === "points") return `${absolute > 0 ? "+" : ""}${formatNumber(absolute)} pt`;
    const text = valueText(absolute, r.unit, asset);
    return absolute > 0 ? `+${text}` : text;
  }
  return r.change24hPercent === null ? "n/a" : formatPercent(r.change24hPercent);
}

const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** One line per metric: 24h change | sparkline | trend | last value | metric (and its name when it adds something). */
export function renderVariationText(
  asset: string,
  rows: readonly VariationRow[],
  day: string | null = null,
  price: z.infer<typeof variationPriceSchema> | null = null,
): string {
  const who = sanitizeText(asset, 32);
  if (rows.length === 0) return `Metrics variation for ${who}: no metrics reported.`;
  const live = rows.filter((r) => !r.ended);
  const ended = rows.filter((r) => r.ended);
  const named = (iso: string) => `${WEEKDAYS[new Date(`${iso}T00:00:00Z`).getUTCDay()]} ${iso}`;
  // The weekday too: a Saturday's volume against a Friday's is not a crash.
  const when = day
    ? `on ${named(day)} UTC (last values are that day's; 24h: vs ${named(isoDay(Date.parse(day) - DAY_MS))})`
    : "(undated by the service: its latest values)";
  const lines = [
    `Metrics variation for ${who} ${when}: ${live.length} metrics by |24h %|; ratios (change in points) and zero-crossing series (in units) last. ${SPARK_RULE}; ${TREND_RULE}.`,
    "24h | 7d | trend | last | metric",
  ];
  if (price)
    lines.push(
      `${price.change24hPercent === null ? "n/a" : formatPercent(price.change24hPercent)} | ${price.sparkline} | ${price.trend} | ${formatNumber(price.lastValue, "USD")} | price (daily close)`,
    );
  else lines.push("n/a | | | not in this summary | price (get_ohlcv metric=price has it)");
  for (const r of live) {
    const id = r.metric ?? `${r.collection}/${r.field}`;
    const label = r.name && plain(r.name) !== plain(id.split("/").pop() ?? "") && plain(r.name) !== plain(r.field) ? ` "${r.name}"` : "";
    lines.push(`${changeText(r, asset)} | ${r.sparkline} | ${r.trend} | ${r.lastValueText} | ${id}${label}`);
  }
  if (ended.length) {
    lines.push(
      `ended series (no 24h change): ${ended.map((r) => `${r.metric ?? `${r.collection}/${r.field}`} ended ${r.lastDate}, last ${r.lastValueText}`).join("; ")}`,
    );
  }
  return lines.join("\n");
}
