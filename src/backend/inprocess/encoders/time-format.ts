// Fast ISO 8601 formatting of bucket starts: a date prefix per day plus a table of the 1,440
// minute suffixes (Date#toISOString is the bottleneck when formatting 500k records).
import { DAY_MS } from "../../../catalog/index.js";

const MINUTE_SUFFIX: string[] = Array.from({ length: 1440 }, (_, m) => {
  const hh = String(Math.floor(m / 60)).padStart(2, "0");
  const mm = String(m % 60).padStart(2, "0");
  return `T${hh}:${mm}:00.000Z`;
});

/**
 * `2025-01-01` for a day number (days since 1970-01-01), by H. Hinnant's civil-from-days: a daily
 * series starts a new day at every point, and Date#toISOString cost 5× more per point.
 */
export function datePrefix(day: number): string {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  // Years 0–9999 print as four digits like toISOString; others are outside any series here.
  if (y < 0 || y > 9999) return new Date(day * DAY_MS).toISOString().slice(0, -14);
  return `${y < 1000 ? String(y).padStart(4, "0") : y}-${m < 10 ? "0" : ""}${m}-${d < 10 ? "0" : ""}${d}`;
}

let cachedDay = NaN;
let cachedPrefix = "";

/** `2025-01-01T00:00:00.000Z` for a UTC ms instant. */
export function isoOf(ms: number): string {
  if (ms % 60_000 !== 0) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedPrefix = datePrefix(day);
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
      const day = Math.floor(t / DAY_MS);
      dayStart = day * DAY_MS;
      prefix = datePrefix(day);
    }
    out[i] = prefix + MINUTE_SUFFIX[(t - dayStart) / 60_000]!;
  }
  return out;
}
