// When a venue with a session trades: CME's crypto futures run Sunday 17:00 to Friday 16:00
// Chicago time with a daily halt from 16:00 to 17:00, and close on New Year's Day, Good Friday
// and Christmas. Each asset's CME contract has its launch day. Every other venue trades 24/7.
import { DAY_MS, HOUR_MS } from "../../../catalog/index.js";
import { dayOf } from "./levels.js";

/** CME launch of each asset's futures. */
export const CME_LAUNCH: Readonly<Record<string, number>> = {
  btc: dayOf("2017-12-18"),
  eth: dayOf("2021-02-08"),
  sol: dayOf("2025-03-17"),
  xrp: dayOf("2025-05-19"),
};

/** Day (since epoch) of the n-th weekday (0 = Sunday) of a month, UTC. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  const first = Math.floor(Date.UTC(year, month, 1) / DAY_MS);
  const firstWeekday = (first + 4) % 7;
  return first + ((weekday - firstWeekday + 7) % 7) + 7 * (n - 1);
}

/** Chicago's offset from UTC in hours at an instant (US daylight saving from 2007 on). */
function chicagoOffset(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const start = nthWeekday(year, 2, 0, 2) * DAY_MS + 8 * HOUR_MS; // 02:00 CST = 08:00 UTC
  const end = nthWeekday(year, 10, 0, 1) * DAY_MS + 7 * HOUR_MS; // 02:00 CDT = 07:00 UTC
  return ms >= start && ms < end ? -5 : -6;
}

/** Easter Sunday (Gregorian, anonymous algorithm) as a day number. */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Math.floor(Date.UTC(year, month - 1, day) / DAY_MS);
}

/** Whether the CME session is open during the hour starting at `hourMs` (UTC, hour-aligned). */
export function cmeSessionOpen(hourMs: number): boolean {
  const local = hourMs + chicagoOffset(hourMs) * HOUR_MS;
  const localDay = Math.floor(local / DAY_MS);
  const hour = Math.floor((local - localDay * DAY_MS) / HOUR_MS);
  const weekday = (localDay + 4) % 7; // 0 = Sunday
  if (weekday === 6) return false;
  if (weekday === 0 && hour < 17) return false;
  if (weekday === 5 && hour >= 16) return false;
  if (hour === 16) return false;
  // A holiday closes its trade date: the evening session before it belongs to it, the evening
  // session of the holiday to the next day.
  const tradeDay = hour >= 17 ? localDay + 1 : localDay;
  const year = new Date(tradeDay * DAY_MS).getUTCFullYear();
  return (
    tradeDay !== Math.floor(Date.UTC(year, 0, 1) / DAY_MS) &&
    tradeDay !== easter(year) - 2 &&
    tradeDay !== Math.floor(Date.UTC(year, 11, 25) / DAY_MS)
  );
}

/** Whether the asset's CME contract trades in the hour starting at `hourMs`. */
export function cmeOpen(asset: string, hourMs: number): boolean {
  const launch = CME_LAUNCH[asset];
  return launch !== undefined && hourMs >= launch * DAY_MS && cmeSessionOpen(hourMs);
}
