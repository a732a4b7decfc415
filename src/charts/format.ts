// Axis and label formatting shared by the PNG renderer and the views (no Intl data beyond en-US).

/** $91.2k, $1.25M, $120M, $3.4B: compact USD with three significant digits. */
export function usdCompact(v: number): string {
  if (!Number.isFinite(v)) return "–";
  const a = Math.abs(v);
  const sign = v < 0 ? "−" : "";
  const units: Array<[number, string]> = [
    [1e12, "T"],
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "k"],
  ];
  for (const [size, suffix] of units) if (a >= size) return `${sign}$${sig3(a / size)}${suffix}`;
  return `${sign}$${sig3(a)}`;
}

/** A number in compact form without a currency sign (for counts and non-USD units). */
export function numCompact(v: number): string {
  if (!Number.isFinite(v)) return "–";
  const a = Math.abs(v);
  const sign = v < 0 ? "−" : "";
  const units: Array<[number, string]> = [
    [1e12, "T"],
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "k"],
  ];
  for (const [size, suffix] of units) if (a >= size) return `${sign}${sig3(a / size)}${suffix}`;
  return a >= 1 || a === 0 ? `${sign}${sig3(a)}` : `${sign}${a.toPrecision(3)}`;
}

function sig3(a: number): string {
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  const text = a.toFixed(digits);
  return digits > 0 ? text.replace(/\.?0+$/, "") : text;
}

/** One formatter per number of decimals: toLocaleString builds a new one on every call. */
const PRICE_FORMATS: Intl.NumberFormat[] = [];

/** A price with the precision its step needs: 87,412 or 0.2473. */
export function priceLabel(v: number, step: number): string {
  if (!Number.isFinite(v)) return "–";
  const decimals = step >= 1 || step <= 0 ? 0 : Math.min(8, Math.ceil(-Math.log10(step)) + 1);
  const format = (PRICE_FORMATS[decimals] ??= new Intl.NumberFormat("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }));
  return format.format(v);
}

/** A value in its unit: USD compact for "USD", else compact with the unit after it. */
export function valueLabel(v: number, unit: string): string {
  if (unit === "USD") return usdCompact(v);
  const text = numCompact(v);
  return unit && unit !== "count" && unit !== "ratio" && unit !== "" ? `${text} ${unit}` : text;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A UTC time with the detail a span of `spanMs` needs: "2025", "Dec 28", "Dec 28 14:00"; with
 * `year`, the day carries its year ("Dec 28 2024"), as the first tick and each new year's do.
 */
export function timeLabel(t: number, spanMs: number, year = false): string {
  const d = new Date(t);
  if (!Number.isFinite(d.getTime())) return "–";
  const day = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}${year ? ` ${d.getUTCFullYear()}` : ""}`;
  if (spanMs > 3 * 365 * 86_400_000) return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  if (spanMs > 4 * 86_400_000) return day;
  return `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/**
 * Labels for an axis's time ticks: the first tick and the first of each new year carry the year,
 * so a range that spans or leaves the current year never reads as this year's.
 */
export function timeTickLabels(ticks: readonly number[], spanMs: number): string[] {
  return ticks.map((t, i) => timeLabel(t, spanMs, i === 0 || new Date(t).getUTCFullYear() !== new Date(ticks[i - 1]!).getUTCFullYear()));
}

/** Full UTC timestamp for tooltips: "2025-12-28 14:00 UTC". */
export function timeFull(t: number): string {
  const d = new Date(t);
  if (!Number.isFinite(d.getTime())) return "–";
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** Escapes text for SVG/HTML. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
