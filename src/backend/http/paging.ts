// Splits a dated request wider than the per-response cap into consecutive windows, and merges
// the windows' records back into one ascending, duplicate-free series. Pure functions.
import { parseDateInput } from "../../catalog/dates.js";
import { DAY_MS, type Endpoint, isTimeframe, MAX_RECORDS, TIMEFRAME_MS } from "../../catalog/index.js";
import type { TimeRecord } from "../types.js";

export interface DateWindow {
  startDate: string;
  /** Undefined on the last window when the caller gave no endDate: the upstream's "now" applies. */
  endDate: string | undefined;
}

/**
 * UTC milliseconds of a date bound (NaN when malformed); a date-only end bound covers its whole
 * day (inclusive). Read as the service reads it: a date-time without an offset is UTC, where
 * Date.parse would take the machine's time zone and misplace the windows.
 */
export function parseBound(value: string, end: boolean): number {
  const parsed = parseDateInput(value);
  if (!parsed) return NaN;
  return end && parsed.dateOnly ? parsed.ms + DAY_MS - 1 : parsed.ms;
}

/** Bucket length of a records request; an unknown OHLCV timeframe means daily, as upstream does. */
export function bucketMs(endpoint: Endpoint, query: Readonly<Record<string, string | undefined>>): number {
  const timeframe = query.timeframe;
  if (endpoint.kind === "ohlcv" && timeframe !== undefined && isTimeframe(timeframe)) return TIMEFRAME_MS[timeframe];
  return DAY_MS;
}

/**
 * Windows covering [startDate, endDate], each holding at most `perWindow` buckets, or null when one
 * request suffices (no startDate, unparsable dates, or a range within the cap). Inner boundaries
 * are ISO instants; the outer ones keep the caller's strings so the union is exactly the range asked.
 */
export function planWindows(
  endpoint: Endpoint,
  query: Readonly<Record<string, string | undefined>>,
  nowMs: number,
  perWindow: number = MAX_RECORDS,
): DateWindow[] | null {
  if (endpoint.kind !== "ohlcv" && endpoint.kind !== "series") return null;
  const { startDate, endDate } = query;
  if (!startDate) return null;
  const startMs = parseBound(startDate, false);
  const endMs = endDate ? parseBound(endDate, true) : nowMs;
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs < startMs) return null;
  const span = perWindow * bucketMs(endpoint, query);
  const count = Math.ceil((endMs - startMs + 1) / span);
  if (count <= 1) return null;
  const windows: DateWindow[] = [];
  for (let k = 0; k < count; k++) {
    windows.push({
      startDate: k === 0 ? startDate : new Date(startMs + k * span).toISOString(),
      endDate: k === count - 1 ? endDate : new Date(startMs + (k + 1) * span - 1).toISOString(),
    });
  }
  return windows;
}

/** Same-shaped ISO strings order like their instants; other shapes are parsed. */
function later(a: string, b: string): boolean {
  return a.length === b.length && a.endsWith("Z") && b.endsWith("Z") ? a > b : Date.parse(a) > Date.parse(b);
}

/** Records in ascending time order; already-sorted input (the upstream's promise) is returned as is. */
export function ascending(records: TimeRecord[]): TimeRecord[] {
  for (let i = 1; i < records.length; i++) {
    if (later(records[i - 1]!.time, records[i]!.time)) {
      return records.slice().sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
    }
  }
  return records;
}

/** Concatenates consecutive windows, dropping records not strictly after the last one kept. */
export function mergeWindows(windows: readonly TimeRecord[][]): TimeRecord[] {
  const out: TimeRecord[] = [];
  let last: string | undefined;
  for (const records of windows) {
    for (const record of records) {
      if (last === undefined || later(record.time, last)) {
        out.push(record);
        last = record.time;
      }
    }
  }
  return out;
}
