// Number, percentage, time and duration formatting for the model's view: compact, exact enough to
// act on, never "NaN" or "Infinity".
import { DAY_MS } from "../catalog/index.js";
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

/** Scales for a block of values, largest first; K is used only where it makes values integers. */
const BLOCK_SCALES = [...SUFFIXES, { scale: 1e3, suffix: "K" }, { scale: 1, suffix: "" }] as const;

export interface BlockFormat {
  /** "", "K", "M", "B" or "T". */
  suffix: string;
  /** Values are written in units of `per` × the suffix's scale: 1, 10 or 100 (302.5e8 → "303" in units of 100M). */
  per: number;
  format: (x: number) => string;
}

/**
 * A formatter for many values of one series: one common scale and just enough digits to resolve
 * 1/200 of the series' range (finer than any text chart needs), so the shape survives in few
 * tokens. Integers are preferred (3.2e6 → "3200" in K, 2 tokens, not "3.200" in M, 3 tokens),
 * always with at least 3 significant digits of the largest value. With `multiples`, whole numbers
 * are written in units of 10 or 100 of the scale where every value still keeps three digits of its
 * own and 1/200 of the range is still resolved ("303" in units of 100M, 1 token, not "30342" in M).
 * Returns the scale suffix ("" when unscaled), the multiple and the per-value formatter.
 */
export function seriesValueFormatter(values: ArrayLike<number>, opts: { multiples?: boolean } = {}): BlockFormat {
  let lo = Infinity;
  let hi = -Infinity;
  let least = Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if (v !== 0 && Math.abs(v) < least) least = Math.abs(v);
  }
  if (lo > hi) return { suffix: "", per: 1, format: () => NA };
  const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
  if (magnitude >= 1e15 || (magnitude > 0 && magnitude < 1e-4)) {
    return { suffix: "", per: 1, format: (x) => (Number.isFinite(x) ? x.toExponential(4).replace("e+", "e") : NA) };
  }
  const resolution = hi > lo ? (hi - lo) / 200 : magnitude / 1000;
  // Whole numbers only where every value keeps three digits of its own ("10230" in M, not "10" in B).
  const whole = BLOCK_SCALES.find((s) => s.scale <= resolution && least / s.scale >= 100);
  if (whole) {
    const per = (opts.multiples && [100, 10].find((m) => whole.scale * m <= resolution && least / (whole.scale * m) >= 100)) || 1;
    return { suffix: whole.suffix, per, format: fixed(whole.scale * per, 0) };
  }

  const unit = SUFFIXES.find((s) => magnitude >= s.scale);
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
  return { suffix: unit?.suffix ?? "", per: 1, format: fixed(scale, decimals) };
}

/**
 * `decimals` resolve the series' range; a value small beside the largest gets more, so that it keeps
 * three significant digits of its own (a $0.35 fee on a page up to $326.74 reads "0.350", not "0").
 * A value the common decimals already write exactly (a count) keeps them.
 */
function fixed(scale: number, decimals: number): (x: number) => string {
  return (x) => {
    if (!Number.isFinite(x)) return NA;
    const v = x / scale;
    let d = decimals;
    const a = Math.abs(v);
    if (a > 0 && a < 100 && Number(v.toFixed(d)) !== v) d = Math.min(20, Math.max(d, 2 - Math.floor(Math.log10(a))));
    return v.toFixed(d).replace(/^-(0\.?0*)$/, "$1");
  };
}

function everyExact(values: ArrayLike<number>, scale: number, decimals: number): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]! / scale;
    if (Number.isFinite(v) && Number(v.toFixed(decimals)) !== v) return false;
  }
  return true;
}
