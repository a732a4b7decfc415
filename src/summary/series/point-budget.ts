// How many points a default answer shows: up to 120, fewer where each point costs more tokens
// (a time of day beside every value, long values such as 0.0000148 or 79600000000), so the whole
// answer stays within its 1,500-token budget in the text and in structuredContent alike.
import { seriesValueFormatter } from "../format/format.js";

/** Points a default answer shows at most. */
export const DEFAULT_MAX_POINTS = 120;
/** Tokens the points may take (text or JSON, whichever is longer); the statistics take the rest of 1,500. */
export const POINT_TOKENS = 800;
/** Fewer points than this stop showing the shape; the budget gives way first. */
const FLOOR = 40;

/** How a point's time is written: "DD" (daily), "DD HH:MM" (intraday) or "MM" (monthly buckets). */
export type PointLabel = "day" | "minute" | "month";

/** o200k tokens of a short numeric text, estimated: digits in runs of three, every other character one. */
function numberTokens(text: string): number {
  let tokens = 0;
  let run = 0;
  for (const ch of text) {
    if (ch >= "0" && ch <= "9") {
      run++;
      continue;
    }
    tokens += Math.ceil(run / 3) + 1;
    run = 0;
  }
  return tokens + Math.ceil(run / 3);
}

/** Text "\nDD HH:MM value" and JSON ["DD HH:MM",value], around the value. */
const LABEL_TOKENS: Record<PointLabel, { text: number; json: number }> = {
  day: { text: 2, json: 4 },
  minute: { text: 6, json: 8 },
  month: { text: 4, json: 4 },
};
/** A month heading: "\n2025-07:" in the text, ]],"2025-07":[[ in JSON. */
const HEADING_TOKENS = 7;
const MONTH_MS = 30.44 * 86_400_000;

/**
 * The default point count for `values` spanning `spanMs`: the most, up to 120, whose text and JSON
 * fit POINT_TOKENS with their month headings, estimated on an even sample of the values as the
 * answer would write them.
 */
export function defaultPointCount(values: ArrayLike<number>, count: number, label: PointLabel, spanMs: number): number {
  if (count <= FLOOR) return DEFAULT_MAX_POINTS;
  const step = Math.max(1, Math.floor(count / 200));
  const sample: number[] = [];
  for (let i = 0; i < count; i += step) if (Number.isFinite(values[i]!)) sample.push(values[i]!);
  const block = seriesValueFormatter(sample);
  let text = 0;
  let json = 0;
  for (const v of sample) {
    text += 1 + numberTokens(block.format(v));
    json += numberTokens(String(block.value(v)));
  }
  const n = Math.max(1, sample.length);
  const perPoint = Math.max(LABEL_TOKENS[label].text + text / n, LABEL_TOKENS[label].json + json / n);
  // Monthly buckets need no headings; others get one per month that holds a point.
  const months = label === "month" ? 0 : Math.max(1, Math.ceil(spanMs / MONTH_MS) + 1);
  const withHeadings = Math.floor((POINT_TOKENS - Math.min(months, DEFAULT_MAX_POINTS) * HEADING_TOKENS) / perPoint);
  const fit = months >= withHeadings ? Math.floor(POINT_TOKENS / (perPoint + HEADING_TOKENS)) : withHeadings;
  return Math.max(FLOOR, Math.min(DEFAULT_MAX_POINTS, fit));
}
