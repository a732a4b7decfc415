// Fast ISO 8601 formatting of bucket starts: a date prefix per day plus a table of the 1,440
// minute suffixes (Date#toISOString is the bottleneck when formatting 500k records).
import { DAY_MS } from "../../../catalog/index.js";

const MINUTE_SUFFIX: string[] = Array.from({ length: 1440 }, (_, m) => {
  const hh = String(Math.floor(m / 60)).padStart(2, "0");
  const mm = String(m % 60).padStart(2, "0");
  return `T${hh}:${mm}:00.000Z`;
});

let cachedDay = NaN;
let cachedPrefix = "";

/** `2025-01-01T00:00:00.000Z` for a UTC ms instant. */
export function isoOf(ms: number): string {
  if (ms % 60_000 !== 0) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedPrefix = new Date(day * DAY_MS).toISOString().slice(0, 10);
  }
  return cachedPrefix + MINUTE_SUFFIX[(ms - day * DAY_MS) / 60_000]!;
}

/** ISO strings of ascending minute-aligned instants (bucket starts), formatted day by day. */
export function isoTimes(times: Float64Array): string[] {
  const out: string[] = new Array(times.length);
  let dayStart = -Infinity;
  let prefix = "";
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (t % 60_000 !== 0) {
      out[i] = new Date(t).toISOString();
      continue;
    }
    if (t >= dayStart + DAY_MS || t < dayStart) {
      dayStart = Math.floor(t / DAY_MS) * DAY_MS;
      prefix = new Date(dayStart).toISOString().slice(0, 10);
    }
    out[i] = prefix + MINUTE_SUFFIX[(t - dayStart) / 60_000]!;
  }
  return out;
}
