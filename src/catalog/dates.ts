// Strict parsing of the service's date inputs: date-only or ISO 8601 date-time, impossible
// calendar dates (2025-02-30) rejected rather than rolled over as Date.parse would.

export interface ParsedDate {
  /** UTC epoch milliseconds of the instant written. */
  ms: number;
  /** True for `YYYY-MM-DD`: an end bound then covers the whole day. */
  dateOnly: boolean;
}

// The offset sign may arrive as a space: an unencoded `+` in a query string decodes to one.
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+\- ]\d{2}(?::?\d{2})?)?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The instant a date input names, or undefined when it is malformed or impossible. */
export function parseDateInput(text: string): ParsedDate | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (m[4] === undefined) return { ms: Date.UTC(year, month - 1, day), dateOnly: true };
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  let offsetMin = 0;
  const zone = m[8];
  if (zone !== undefined && zone !== "Z" && zone !== "z") {
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMin * 60_000;
  return { ms, dateOnly: false };
}

/** The UTC day of an instant as written everywhere: `2025-12-31`. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The UTC minute of an instant as answers print it: `2025-12-31 12:00`. */
export function isoMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** Index of the last of the first `count` ascending `times` at or before `t` (binary search), −1 when none. */
export function lastAtOrBefore(times: ArrayLike<number>, t: number, count = times.length): number {
  let lo = 0;
  let hi = count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
