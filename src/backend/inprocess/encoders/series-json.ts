// A series' JSON body from its columns: as the records `[{"time": ISO, "<field>": value}, …]` for a
// reader of the body, or straight to the bytes JSON.stringify gives for them, without building an
// object per point first (on a REST cache miss, stringifying the records was about a quarter of the time).
import type { SeriesColumns, TimeRecord } from "../../types.js";
import { isoTimes } from "./time-format.js";

/** A number as JSON.stringify writes it (non-finite values become null). */
function jsonNumber(x: number): string {
  return Number.isFinite(x) ? String(x) : "null";
}

/** Records of columns made by generateColumns. */
export function recordsFromColumns({ times, values }: SeriesColumns, field: string): TimeRecord[] {
  const isos = isoTimes(times);
  const out: TimeRecord[] = new Array(times.length);
  for (let i = 0; i < times.length; i++) out[i] = { time: isos[i]!, [field]: values[i]! };
  return out;
}

export function seriesJson(columns: SeriesColumns, field: string): Buffer {
  const n = columns.times.length;
  if (n === 0) return Buffer.from("[]");
  const isos = isoTimes(columns.times);
  // ISO times hold no character JSON escapes, so they go between quotes as they are.
  const mid = `",${JSON.stringify(field)}:`;
  const parts: string[] = new Array(n);
  for (let i = 0; i < n; i++) parts[i] = `{"time":"${isos[i]!}${mid}${jsonNumber(columns.values[i]!)}}`;
  return Buffer.from(`[${parts.join(",")}]`);
}
