// The model's view of a series digest: a few lines of statistics and a compact points block whose
// size depends on the number of points returned, never on the requested range.
import { formatDuration, formatNumber, formatPercent, formatSigned, formatTime, isDaily, seriesValueFormatter } from "./format.js";
import type { SeriesDigest, TimedValue } from "./series.js";
import { sanitizeText } from "./text.js";

export interface SeriesTextMeta {
  /** Endpoint id, e.g. `lifespan/Lth_mvrv`. */
  metric: string;
  asset: string;
  unit?: string;
  /** Response field, e.g. `lth_mvrv`. */
  field?: string;
  /** Timeframe label, e.g. `1d` or `1m`. */
  timeframe?: string;
  /** The request's other parameters as sent (startDate, endDate, exchange…); undefined ones are left out. */
  query?: Readonly<Record<string, string | number | boolean | null | undefined>>;
}

const LABEL_MAX = 64;

/** Compact plain text for a series digest (≈1,100–1,300 tokens with the default 120 points). */
export function renderSeriesText(meta: SeriesTextMeta, d: SeriesDigest): string {
  const lines = [header(meta)];
  if (!d.first || !d.last || !d.min || !d.max) {
    lines.push(`No data points in the requested range${d.nonFinite ? ` (${d.nonFinite} non-finite values skipped)` : ""}.`);
    return lines.join("\n");
  }
  const unit = meta.unit ? sanitizeText(meta.unit, LABEL_MAX) : "";
  const num = (x: number) => formatNumber(x, unit === "USD" ? "USD" : undefined);
  const daily = isDaily(d.timeframeMs, Date.parse(d.first.time)) && isDaily(d.timeframeMs, Date.parse(d.last.time));
  const at = (p: TimedValue) => `${num(p.value)} (${formatTime(Date.parse(p.time), daily)})`;

  lines.push(
    `${d.count.toLocaleString("en-US")} points, ${formatTime(Date.parse(d.first.time), daily)} → ${formatTime(Date.parse(d.last.time), daily)} UTC` +
      `${d.nonFinite ? `; ${d.nonFinite} non-finite values skipped` : ""}`,
    `first ${at(d.first)}; last ${at(d.last)}; change ${d.changePercent === null ? "n/a (first is 0)" : formatPercent(d.changePercent)}`,
    `min ${at(d.min)}; max ${at(d.max)}`,
    `mean ${num(d.mean ?? NaN)}; stdev ${num(d.stdev ?? NaN)}; last z-score ${d.zScoreLast === null ? "n/a" : formatSigned(d.zScoreLast)}`,
  );
  if (d.maxDrawdown) {
    const { percent, peak, trough } = d.maxDrawdown;
    lines.push(percent < 0 ? `max drawdown ${formatPercent(percent)} (peak ${at(peak)} → trough ${at(trough)})` : "max drawdown none (never fell below a running peak)");
  }
  lines.push(gapLine(d, daily));
  lines.push(...pointsBlock(d, daily, unit));
  return lines.join("\n");
}

function header(meta: SeriesTextMeta): string {
  const details = [
    meta.field && `field ${sanitizeText(meta.field, LABEL_MAX)}`,
    meta.unit && `unit ${sanitizeText(meta.unit, LABEL_MAX)}`,
    meta.timeframe && `timeframe ${sanitizeText(meta.timeframe, 16)}`,
  ].filter(Boolean);
  const query = Object.entries(meta.query ?? {})
    .filter(([, value]) => value !== undefined && value !== null && value !== "")
    .map(([key, value]) => `${sanitizeText(key, 32)}=${sanitizeText(String(value), LABEL_MAX)}`);
  const head = `${sanitizeText(meta.asset, 32)} ${sanitizeText(meta.metric, 96)}`;
  return `${head}${details.length ? ` (${details.join(", ")})` : ""}${query.length ? ` ${query.join(" ")}` : ""}`;
}

function gapLine(d: SeriesDigest, daily: boolean): string {
  if (!(d.timeframeMs > 0)) return "gaps: not checked (no timeframe)";
  if (d.gaps.missingBuckets === 0) return `gaps: none (every ${formatDuration(d.timeframeMs)} bucket present)`;
  const largest = d.gaps.largest.map((g) => `${gapRange(g.from, g.to, daily)} (${g.missing})`).join(", ");
  const skipped = d.nonFinite ? " (skipped values count as missing)" : "";
  return `gaps: ${d.gaps.missingBuckets.toLocaleString("en-US")} missing ${formatDuration(d.timeframeMs)} buckets in ${d.gaps.runs} runs${skipped}; largest ${largest}`;
}

/** "2025-10-29 08:20–08:40" when both ends fall on one day. */
function gapRange(from: string, to: string, daily: boolean): string {
  const a = formatTime(Date.parse(from), daily);
  const b = formatTime(Date.parse(to), daily);
  if (a === b) return a;
  return !daily && a.slice(0, 10) === b.slice(0, 10) ? `${a}–${b.slice(11)}` : `${a}–${b}`;
}

/**
 * Points grouped under month headings ("2025-12:"), one point per line as "DD value" (daily) or
 * "DD HH:MM value": the same cost per point whether the points span a day or years.
 */
function pointsBlock(d: SeriesDigest, daily: boolean, unit: string): string[] {
  const { returned, total, method } = d.sampling;
  const fmt = seriesValueFormatter(d.points.map((p) => p.value));
  const scale = fmt.suffix ? `values in ${fmt.suffix}${unit ? ` ${unit}` : ""}` : unit ? `values in ${unit}` : "values";
  const how = method === "all" ? "all points" : `${returned} of ${total.toLocaleString("en-US")}, LTTB: shape kept with first/last/min/max`;
  const lines = [`points (${how}) as "${daily ? "DD" : "DD HH:MM"} value" under YYYY-MM, UTC, ${scale}:`];
  let month = "";
  for (const p of d.points) {
    const iso = p.time;
    if (iso.slice(0, 7) !== month) {
      month = iso.slice(0, 7);
      lines.push(`${month}:`);
    }
    lines.push(daily ? `${iso.slice(8, 10)} ${fmt.format(p.value)}` : `${iso.slice(8, 10)} ${iso.slice(11, 16)} ${fmt.format(p.value)}`);
  }
  return lines;
}
