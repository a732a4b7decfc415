// How much of the asked range the data covers, where the series' whole history begins and ends,
// and whether the last bucket is still filling: facts that keep a digest from being read as more
// complete than it is.
import { z } from "zod";

import { parseDateInput } from "../../catalog/dates.js";

export const coverageSchema = z.object({
  requestedFrom: z.string().nullable(),
  requestedTo: z.string().nullable(),
  dataFrom: z.string().nullable(),
  dataTo: z.string().nullable(),
  /** Share of the asked range's buckets between the first and last data point, 0–100; null without both bounds. */
  percent: z.number().nullable(),
  historyFrom: z.string().nullable(),
  historyTo: z.string().nullable(),
  /** The series' last bucket when it stopped before "now" (no data after), else null. */
  endedAt: z.string().nullable(),
  /** "Now" when the last bucket runs past it (the bucket holds only what happened so far), else null. */
  partialLastAsOf: z.string().nullable(),
});
export type Coverage = z.infer<typeof coverageSchema>;

export interface CoverageInput {
  /** First and last data points (epoch ms), NaN when there are none. */
  dataFromMs: number;
  dataToMs: number;
  timeframeMs: number;
  /** The asked bounds (epoch ms), when the request named them or "now" is known. */
  requestedFromMs?: number;
  requestedToMs?: number;
  extent?: { firstMs: number; lastMs: number };
  asOfMs?: number;
  /** Length of the last bucket when it differs from the timeframe (calendar months). */
  lastBucketMs?: number;
}

const iso = (ms: number | undefined) =>
  ms !== undefined && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;

export function coverageOf(c: CoverageInput): Coverage {
  const tf = c.timeframeMs > 0 ? c.timeframeMs : 0;
  const hasData = Number.isFinite(c.dataFromMs) && Number.isFinite(c.dataToMs);
  const from = c.requestedFromMs;
  // A request without an end runs to "now".
  const to = c.requestedToMs ?? c.asOfMs;
  let percent: number | null = null;
  if (from !== undefined && to !== undefined && to >= from && tf > 0) {
    const asked = Math.floor((to - from) / tf) + 1;
    const covered = hasData ? Math.floor((Math.min(c.dataToMs, to) - Math.max(c.dataFromMs, from)) / tf) + 1 : 0;
    percent = Math.max(0, Math.min(100, (covered / asked) * 100));
  }
  const lastBucket = c.lastBucketMs ?? tf;
  // Ended: the history's last bucket closed a full bucket or more before "now".
  const endedAt = c.extent && c.asOfMs !== undefined && c.extent.lastMs + 2 * tf <= c.asOfMs ? iso(c.extent.lastMs) : null;
  const partial = hasData && c.asOfMs !== undefined && tf > 0 && c.dataToMs + lastBucket > c.asOfMs && c.dataToMs <= c.asOfMs;
  return {
    requestedFrom: iso(from),
    requestedTo: iso(to),
    dataFrom: hasData ? iso(c.dataFromMs) : null,
    dataTo: hasData ? iso(c.dataToMs) : null,
    percent,
    historyFrom: iso(c.extent?.firstMs),
    historyTo: iso(c.extent?.lastMs),
    endedAt,
    partialLastAsOf: partial ? iso(c.asOfMs) : null,
  };
}

/** Start of a date argument as the service reads it (date-only = midnight UTC), or undefined. */
export function parseDateArg(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  return parseDateInput(raw.trim())?.ms;
}
