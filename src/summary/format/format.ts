// Number, percentage, time and duration formatting for the model's view: compact, exact enough to
// act on, never "NaN" or "Infinity".
import { DAY_MS } from "../../catalog/index.js";
import { groupedFixed } from "./grouped.js";

const NA = "n/a";
const SUFFIXES = [
  { scale: 1e12, suffix: "T" },
  { scale: 1e9, suffix: "B" },
  { scale: 1e6, suffix: "M" },
] as const;

// Grouped decimals as en-US writes them, without Intl (grouped.ts: loading ICU's data costs a start).
const GROUPED_2 = { format: (x: number) => groupedFixed(x, 2) };
const GROUPED_0 = { format: (x: number) => groupedFixed(x, 0) };

/**
 * 87747.654 → "87,747.65"; 1.4826e14 → "148.26T"; 2.51e6 → "2.51M"; 0.03741 → "0.0374";
 * 12345 → "12,345"; 3.2e-7 → "3.20e-7"; unit "%" → "+3.21 %", "USD" → "$2.51M", others appended.
 */
export function formatNumber(x: number, unit?: string): string {
  if (!Number.isFinite(x)) return NA;
  if (unit === "%") return formatPercent(x);
  const text = formatPlain(x);
  if (!unit) return text;
  if (unit === "USD") return x < 0 ? `-$${text.slice(1)}` : `$${text}`;
  return `${text} ${unit}`;
}

/** Signed percentage with two decimals: "+3.21 %", "-0.50 %", "0.00 %". */
export function formatPercent(p: number): string {
  if (!Number.isFinite(p)) return NA;
  const body = GROUPED_2.format(Math.abs(p));
  if (body === "0.00") return "0.00 %";
  return `${p > 0 ? "+" : "-"}${body} %`;
}

function formatPlain(x: number): string {
  if (x === 0) return "0";
  const sign = x < 0 ? "-" : "";
  const a = Math.abs(x);
  if (a >= 1e15) return sign + exponent(a);
  if (a >= 1e6) {
    for (const { scale, suffix } of SUFFIXES) {
      if (a >= scale) {
        const scaled = a / scale;
        // 999.999M rounds to "1,000.00M": move up a suffix instead.
        const next = SUFFIXES.find((s) => s.scale === scale * 1e3);
        if (next && scaled >= 999.995) return `${sign}${GROUPED_2.format(a / next.scale)}${next.suffix}`;
        return `${sign}${GROUPED_2.format(scaled)}${suffix}`;
      }
    }
  }
  if (a >= 1) return sign + (Number.isInteger(a) ? GROUPED_0.format(a) : GROUPED_2.format(a));
  if (a >= 1e-4) return sign + String(Number(a.toPrecision(3)));
  return sign + exponent(a);
}

function exponent(a: number): string {
  return a.toExponential(2).replace("e+", "e");
}

/** A price: grouped with 2 decimals from 1 up ("87,747.65"), 4 significant digits below ("0.03741"). */
export function formatPrice(x: number): string {
  if (!Number.isFinite(x)) return NA;
  if (Math.abs(x) >= 1) return GROUPED_2.format(x);
  return x === 0 ? "0" : String(Number(x.toPrecision(4)));
}

/** Prices of levels `step` apart: just enough decimals that adjacent levels never read the same. */
export function levelPriceFormatter(step: number): (x: number) => string {
  if (!(step > 0) || !Number.isFinite(step)) return formatPrice;
  const decimals = Math.min(12, Math.max(0, Math.ceil(-Math.log10(step / 10))));
  return (x) => (Number.isFinite(x) ? groupedFixed(x, decimals) : NA);
}

/** A signed plain number with at most `decimals` decimals and no grouping, e.g. z-scores "+1.24". */
export function formatSigned(x: number, decimals = 2): string {
  if (!Number.isFinite(x)) return NA;
  const text = x.toFixed(decimals);
  return x > 0 && Number(text) !== 0 ? `+${text}` : text.replace(/^-(0\.?0*)$/, "$1");
}

/** "2025-12-28" for daily data, "2025-12-28 14:05" otherwise (UTC). */
export function formatTime(ms: number, daily: boolean): string {
  if (!Number.isFinite(ms)) return NA;
  const iso = new Date(ms).toISOString();
  return daily ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** Whether times of this step read best as dates (daily or coarser, at midnight UTC). */
export function isDaily(timeframeMs: number, sampleMs: number): boolean {
  return timeframeMs >= DAY_MS && Number.isFinite(sampleMs) && sampleMs % DAY_MS === 0;
}

/** ISO time of an epoch-ms value, or null when it is not a valid date. */
export function isoOrNull(ms: number): string | null {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
}

/** "3 d 4 h", "2 h 5 min", "45 min", "30 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return NA;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.round(ms / 1000)} s`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days >= 10) return `${days} d`;
  if (days > 0) return hours ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return mins ? `${hours} h ${mins} min` : `${hours} h`;
  return `${mins} min`;
}

export interface BlockFormat {
  /** "", "M", "B" or "T": the suffix every value of the block carries (each value reads by itself). */
  suffix: string;
  /** The value as text, suffix attached: "79.6B", "106034", "0.1853", "1.482e15". */
  format: (x: number) => string;
  /** The value the text writes, as a raw number in the unit (79.6B → 79600000000). */
  value: (x: number) => number;
}

const SCALE_DIGITS: Readonly<Record<string, number>> = { "": 0, M: 6, B: 9, T: 12 };

/**
 * A formatter for many values of one series: every value written in the series' own unit with a
 * suffix that reads by itself (M, B, T; none below a million), just enough decimals to resolve
 * 1/200 of the series' range (finer than any text chart needs) and at least three significant
 * digits of every value. No value needs a header to mean anything: BTC at $106,034 is "106034",
 * USDT's supply "79.6B", difficulty "89.37T". `value` gives the number the text writes, for
 * structured results that carry the same figures raw.
 */
export function seriesValueFormatter(values: ArrayLike<number>): BlockFormat {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return { suffix: "", format: () => NA, value: (x) => x };
  const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
  // Below a billionth a plain decimal runs longer than an exponent.
  if (magnitude >= 1e15 || (magnitude > 0 && magnitude < 1e-9)) {
    const text = (x: number) => (Number.isFinite(x) ? x.toExponential(3).replace("e+", "e") : NA);
    return { suffix: "", format: text, value: (x) => Number(text(x)) };
  }
  const resolution = hi > lo ? (hi - lo) / 200 : magnitude / 1000;
  const unit = SUFFIXES.find((s) => magnitude >= s.scale);
  const suffix = unit?.suffix ?? "";
  const scale = unit?.scale ?? 1;
  const intDigits = magnitude > 0 ? Math.floor(Math.log10(magnitude / scale)) + 1 : 1;
  const forRange = resolution > 0 ? Math.ceil(-Math.log10(resolution / scale)) : 0;
  let decimals = Math.min(12, Math.max(0, forRange, 3 - intDigits));
  // Fewer decimals when they already write every value exactly (integer counts, round prices).
  for (let d = 0; d < decimals; d++) {
    if (everyExact(values, scale, d)) {
      decimals = d;
      break;
    }
  }
  const digits = decimalsFor(decimals);
  const shift = SCALE_DIGITS[suffix]!;
  return {
    suffix,
    format: (x) => {
      if (!Number.isFinite(x)) return NA;
      const text = (x / scale).toFixed(digits(x / scale)).replace(/^-(0\.?0*)$/, "$1");
      return /^0\.?0*$/.test(text) ? "0" : `${text}${suffix}`;
    },
    value: (x) => (Number.isFinite(x) ? rounded(x, digits(x / scale) - shift) : x),
  };
}

/** x rounded to `places` decimals of the unit; negative places round to tens, hundreds… exactly (79.6B stays 79600000000). */
function rounded(x: number, places: number): number {
  if (places >= 0) return Number(x.toFixed(Math.min(100, places))) + 0;
  const step = 10 ** -places;
  return Math.round(x / step) * step + 0;
}

/**
 * `decimals` resolve the series' range; a value small beside the largest gets more, so that it keeps
 * three significant digits of its own (a $0.35 fee on a page up to $326.74 reads "0.350", not "0").
 * A value the common decimals already write exactly (a count) keeps them.
 */
function decimalsFor(decimals: number): (v: number) => number {
  return (v) => {
    const a = Math.abs(v);
    if (a > 0 && a < 100 && Number(v.toFixed(decimals)) !== v) return Math.min(20, Math.max(decimals, 2 - Math.floor(Math.log10(a))));
    return decimals;
  };
}

function everyExact(values: ArrayLike<number>, scale: number, decimals: number): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]! / scale;
    if (Number.isFinite(v) && Number(v.toFixed(decimals)) !== v) return false;
  }
  return true;
}
