// The model's view of a series digest: a few lines of statistics and a compact points block whose
// size depends on the number of points returned, never on the requested range.
import { formatDuration, formatPercent, formatSigned, formatTime, isDaily } from "../format/format.js";
import { formatCount } from "../format/grouped.js";
import { type AnswerScale, answerScale } from "../format/scale.js";
import { sanitizeText } from "../format/text.js";
import { coverageLine, emptyLines, type Fmt, positionLine, statisticsLines, when, windowsLine } from "./series-facts.js";
import type { SeriesDigest } from "./series-schema.js";

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
  /** How to read a value (the catalog's meaning), a line under the header. */
  meaning?: string;
}

const LABEL_MAX = 64;

/** Compact plain text for a series digest (≈1,100–1,400 tokens with the default 120 points). */
export function renderSeriesText(meta: SeriesTextMeta, d: SeriesDigest): string {
  const lines = [header(meta, d)];
  if (meta.meaning) lines.push(`meaning: ${sanitizeText(meta.meaning, 400)}${logChangeNote(meta.unit, d)}`);
  if (!d.first || !d.last || !d.min || !d.max) {
    lines.push(...emptyLines(d));
    return lines.join("\n");
  }
  const unit = meta.unit ? sanitizeText(meta.unit, LABEL_MAX) : "";
  const daily = isDaily(d.timeframeMs, Date.parse(d.first.time)) && isDaily(d.timeframeMs, Date.parse(d.last.time));
  // The points block picks the scale (it holds first, last, min and max); the statistics share it.
  const s = answerScale(
    d.points.map((p) => p.value),
    { usd: unit === "USD" },
  );
  // A price answer also gives the candles' high and low: its extremes say they are of closes.
  const f: Fmt = { s, daily, ...(meta.field === "close" && { of: "close" }) };
  const r = d.resample;
  const what = r
    ? `${formatCount(d.count)} points, statistics from ${d.partialLast ? "the complete ones" : "all of them"}; the points shown are ${formatCount(d.sampling.total)} ` +
      `${r.period === "1w" ? "weekly buckets (UTC weeks from Monday, dated by their first day" : "monthly buckets (UTC calendar months"}; ` +
      `each ${r.rule === "sum" ? "the sum of its points" : "its last point's value"})`
    : `${formatCount(d.count)} points`;
  const partial =
    r && (r.partialFirst || r.partialLast)
      ? `; ${[r.partialFirst && "first", r.partialLast && "last"].filter(Boolean).join(" and ")} bucket partial`
      : "";
  lines.push(
    // The points' span: a bucket still filling is among the points, though in no statistic.
    `${what}, ${when(f, d.first.time)} → ${when(f, (d.partialLast ?? d.last).time)} UTC${partial}` +
      `${d.nonFinite ? `; ${d.nonFinite} non-finite values skipped` : ""}`,
  );
  const coverage = coverageLine(d, f);
  if (coverage) lines.push(coverage);
  lines.push(...statisticsLines(d, f));
  // A flow of nothing but zeros has no windows or position worth a line.
  const nothing = d.nature === "flow" && d.min.value === 0 && d.max.value === 0;
  if (!nothing) for (const line of [windowsLine(d, s), positionLine(d, f)]) if (line) lines.push(line);
  lines.push(gapLine(d, daily));
  // Calendar buckets are dated by their first day.
  lines.push(...pointsBlock(d, daily || r !== undefined, unit, s));
  return lines.join("\n");
}

/** A log change read as a percentage too: "last 0.333 = +39.53 %". */
function logChangeNote(unit: string | undefined, d: SeriesDigest): string {
  if (!unit?.startsWith("log change") || !d.last) return "";
  return `; last ${formatSigned(d.last.value, 3)} = ${formatPercent((Math.exp(d.last.value) - 1) * 100)}`;
}

const NATURE_NOTE: Partial<Record<SeriesDigest["nature"], string>> = {
  flow: "amount per bucket",
  signed: "crosses zero",
  cumulative: "running total",
};

function header(meta: SeriesTextMeta, d: SeriesDigest): string {
  const details = [
    meta.field && `field ${sanitizeText(meta.field, LABEL_MAX)}`,
    NATURE_NOTE[d.nature],
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
  if (d.gaps.missingBuckets === 0) return `gaps: none between the first and last point`;
  const largest = d.gaps.largest.map((g) => `${gapRange(g.from, g.to, daily)} (${g.missing})`).join(", ");
  const skipped = d.nonFinite ? " (skipped values count as missing)" : "";
  return `gaps: ${formatCount(d.gaps.missingBuckets)} missing ${formatDuration(d.timeframeMs)} buckets in ${d.gaps.runs} runs${skipped}; largest ${largest}`;
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
function pointsBlock(d: SeriesDigest, daily: boolean, unit: string, s: AnswerScale): string[] {
  const { returned, total, method } = d.sampling;
  const fmt = { format: s.point };
  // Each value carries its own suffix (M, B, T): the header names only the unit.
  const scale = unit ? `values in ${unit}` : "values";
  const how = method === "all" ? "all points" : `${returned} of ${formatCount(total)}, LTTB: shape kept with first/last/min/max`;
  // Monthly buckets need no day: one "YYYY-MM value" line each.
  if (d.resample?.period === "1M")
    return [`points (${how}) as "YYYY-MM value", ${scale}:`, ...d.points.map((p) => `${p.time.slice(0, 7)} ${s.point(p.value)}`)];
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
