// Lines of a series digest's text that depend on the series' nature and on how much of the asked
// range it covers: the statistics block, windows, position of the last value, coverage, emptiness.
import { DAY_MS } from "../../catalog/index.js";
import { formatPercent, formatTime } from "../format/format.js";
import { formatCount } from "../format/grouped.js";
import type { AnswerScale } from "../format/scale.js";
import type { Change } from "./nature.js";
import type { SeriesDigest, TimedValue } from "./series-schema.js";

/** The answer's scale, and how its bucket times read: dates, date-times, or months (monthly buckets). */
export type Fmt = {
  s: AnswerScale;
  daily: boolean;
  monthly?: boolean;
  /** What the values are when other figures of the answer are extremes too ("close"). */ of?: string;
};
/** A bucket's time as the answer writes it. */
export const when = (f: Fmt, iso: string) => (f.monthly ? iso.slice(0, 7) : formatTime(Date.parse(iso), f.daily));
const at = (f: Fmt, p: TimedValue) => `${f.s.stat(p.value)} (${when(f, p.time)})`;
const day = (iso: string | null, daily = true) => (iso === null ? "n/a" : formatTime(Date.parse(iso), daily));

/** A change in the measure its nature calls for: "+3.21 %", "+0.12 pt", "+1.23M". */
export function changeText(c: Change, s: AnswerScale): string {
  if (c.measure === "percent" && c.percent !== null) return formatPercent(c.percent);
  if (c.measure === "points") return `${s.signed(c.absolute)} pt`;
  return s.signed(c.absolute);
}

/** The line's own scale: every value of one line in one scale (see AnswerScale.line). */
const lineOf = (f: Fmt, values: Array<number | null | undefined>): Fmt => ({
  ...f,
  s: f.s.line(values.filter((x): x is number => typeof x === "number")),
});

/** first/last/change, extremes, mean and spread, and drawdown or sign flips, worded for the nature. */
export function statisticsLines(d: SeriesDigest, f: Fmt): string[] {
  const z = `last z-score ${d.zScoreLast === null ? "n/a" : d.zScoreLast.toFixed(2).replace(/^(\d)/, "+$1")}`;
  if (d.nature === "flow" && d.flow) {
    if (d.min!.value === 0 && d.max!.value === 0)
      return [`all ${formatCount(d.count)} buckets are 0: nothing matched these filters (exchange, symbol, market_type) in this range`];
    const sum = lineOf(f, [d.flow.sum]).s;
    const spread = lineOf(f, [d.flow.meanPerBucket, d.stdev]).s;
    const peaks = lineOf(f, [d.flow.peak.value, d.min!.value, d.last!.value]);
    const buckets = d.partialLast ? `${formatCount(d.count - 1)} complete buckets` : `${formatCount(d.count)} buckets`;
    return [
      `sum ${sum.stat(d.flow.sum)} over ${buckets}`,
      `mean ${spread.stat(d.flow.meanPerBucket)} per bucket; stdev ${spread.stat(d.stdev ?? NaN)}; ${z}`,
      `peak bucket ${at(peaks, d.flow.peak)}; smallest ${at(peaks, d.min!)}; last ${d.partialLast ? "complete " : ""}bucket ${at(peaks, d.last!)}`,
    ];
  }
  const c = d.change;
  const ends = lineOf(f, [d.first!.value, d.last!.value, c?.absolute]);
  const s = ends.s;
  const changeWords = !c
    ? "change n/a"
    : d.nature === "signed"
      ? `net change ${s.signed(c.absolute)} (units: the series crosses zero, so no %)`
      : d.nature === "cumulative"
        ? `net change ${s.signed(c.absolute)} (the net flow over the range)`
        : d.nature === "ratio"
          ? `change ${changeText(c, s)}`
          : c.percent === null
            ? `change ${s.signed(c.absolute)} (no %: first is not positive)`
            : `change ${formatPercent(c.percent)} (${s.signed(c.absolute)})`;
  const extremes = lineOf(f, [d.min!.value, d.max!.value]);
  const spread = lineOf(f, [d.mean, d.stdev]).s;
  const lines = [
    `first ${at(ends, d.first!)}; last ${at(ends, d.last!)}; ${changeWords}`,
    f.of
      ? `min ${f.of} ${at(extremes, d.min!)}; max ${f.of} ${at(extremes, d.max!)}`
      : `min ${at(extremes, d.min!)}; max ${at(extremes, d.max!)}`,
    `mean ${spread.stat(d.mean ?? NaN)}; stdev ${spread.stat(d.stdev ?? NaN)}; ${z}`,
  ];
  if (d.maxDrawdown) {
    const { percent, peak, trough } = d.maxDrawdown;
    const dd = lineOf(f, [peak.value, trough.value]);
    lines.push(
      percent < 0
        ? `max drawdown ${formatPercent(percent)} (peak ${at(dd, peak)} → trough ${at(dd, trough)})`
        : "max drawdown none (never fell below a running peak)",
    );
  }
  if (d.signFlips) {
    const { count, last } = d.signFlips;
    lines.push(
      count === 0
        ? `sign flips: none (${d.last!.value >= 0 ? "non-negative" : "negative"} throughout)`
        : `sign flips: ${count}, latest ${when(f, last!.time)} (to ${last!.value > 0 ? "positive" : "negative"})`,
    );
  }
  return lines;
}

/** Trailing windows back from the last point, in the nature's measure; none when the range is too short. */
export function windowsLine(d: SeriesDigest, answer: AnswerScale): string | null {
  if (d.windows.length === 0) return null;
  // YTD is of the last point's year, which need not be the current one (an ended series, an endDate).
  const year = d.last ? d.last.time.slice(0, 4) : "";
  const name = (w: string) => (w === "YTD" ? `YTD ${year}` : w);
  if (d.nature === "flow") {
    const s = answer.line(d.windows.map((w) => w.sum ?? NaN));
    const parts = d.windows.map(
      (w) =>
        `${name(w.window)} ${s.stat(w.sum ?? NaN)}${w.percent === null || w.percent === undefined ? "" : ` (${formatPercent(w.percent)})`}`,
    );
    const complete = d.coverage.partialLastAsOf ? "complete buckets only, " : "";
    return `windows (${complete}sum; % vs the window before): ${parts.join(", ")}`;
  }
  const s = answer.line(d.windows.map((w) => w.change?.absolute ?? NaN));
  const parts = d.windows.map((w) => `${name(w.window)} ${w.change ? changeText(w.change, s) : "n/a"}`);
  return `windows (change to last): ${parts.join(", ")}`;
}

/** Percentile of the last value, distance from the peak, and since when it is this high or low. */
export function positionLine(d: SeriesDigest, f: Fmt): string | null {
  const p = d.position;
  if (!p) return null;
  const pct = `percentile ${Math.round(p.percentile)}`;
  if (d.nature === "flow") return `last ${d.partialLast ? "complete " : ""}bucket at ${pct} of the range's buckets`;
  const high = p.percentile >= 50;
  const since = high
    ? p.lastAtOrAbove === null
      ? "the range's high"
      : `last this high ${when(f, p.lastAtOrAbove)}`
    : p.lastAtOrBelow === null
      ? "the range's low"
      : `last this low ${when(f, p.lastAtOrBelow)}`;
  const fromPeak =
    p.fromPeak.absolute === 0
      ? "at the peak"
      : `${changeText(p.fromPeak, f.s.line([p.fromPeak.absolute]))} from the peak (${when(f, p.fromPeak.peakTime)})`;
  return `last vs range: ${pct}; ${fromPeak}; ${since}`;
}

/** What the data covers of the asked range, where the history ends, a partial last bucket; null when nothing to say. */
export function coverageLine(d: SeriesDigest, f: Fmt): string | null {
  const c = d.coverage;
  const tf = d.timeframeMs;
  const parts: string[] = [];
  const late = c.requestedFrom && c.dataFrom && Date.parse(c.dataFrom) - Date.parse(c.requestedFrom) >= tf;
  const early = c.requestedTo && c.dataTo && !c.partialLastAsOf && Date.parse(c.requestedTo) - Date.parse(c.dataTo) >= 2 * tf;
  if (late)
    parts.push(
      `data from ${day(c.dataFrom, f.daily)}; the range asked starts ${day(c.requestedFrom, f.daily)}${c.historyFrom && c.historyFrom === c.dataFrom ? " (the series starts there)" : ""}`,
    );
  // Without a startDate the range is the service's default: say when the history begins inside it.
  else if (!c.requestedFrom && c.historyFrom && c.historyFrom === c.dataFrom)
    parts.push(`the series starts ${day(c.historyFrom, f.daily)} (no earlier data)`);
  if (early) parts.push(`data ends ${day(c.dataTo, f.daily)}; the range asked ends ${day(c.requestedTo, f.daily)}`);
  if ((late || early) && c.percent !== null) parts.push(`${Math.round(c.percent)} % of the range asked has data`);
  if (c.endedAt) parts.push(`the series ended ${day(c.endedAt, f.daily)} (no data after)`);
  if (c.partialLastAsOf && d.partialLast)
    parts.push(
      `the bucket ${when(f, d.partialLast.time)} is still filling: ${lineOf(f, [d.partialLast.value]).s.stat(d.partialLast.value)} with data up to ${day(c.partialLastAsOf, false)} UTC, left out of every statistic and window`,
    );
  else if (c.partialLastAsOf && d.last)
    parts.push(
      `last bucket (${when(f, d.last.time)}) is partial: data up to ${day(c.partialLastAsOf, false)} UTC, its value is as of then`,
    );
  return parts.length ? `coverage: ${parts.join("; ")}` : null;
}

/** An empty answer: where the series' history lies, when known, and what to ask instead. */
export function emptyLines(d: SeriesDigest): string[] {
  const c = d.coverage;
  const skipped = d.nonFinite ? ` (${d.nonFinite} non-finite values skipped)` : "";
  const lines = [`No data points in the requested range${skipped}.`];
  if (c.historyFrom && c.historyTo) {
    const daily = d.timeframeMs >= DAY_MS;
    const ended = c.endedAt ? ` (it ended ${day(c.endedAt, daily)})` : "";
    lines.push(
      `The series has data from ${day(c.historyFrom, daily)} to ${day(c.historyTo, daily)}${ended}: ask startDate/endDate within that span.`,
    );
  } else lines.push("Widen the range, or see list_assets for what this metric covers.");
  return lines;
}
