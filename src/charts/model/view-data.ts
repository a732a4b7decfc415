// Builds what the views and PNGs draw from a tool's data: the heatmap re-binned to a size a browser
// paints at once (cells as 16-bit fractions of the largest), candles per column, and series
// downsampled with LTTB. Pure functions of the service's answer and the digest.
import type { TypedHeatmap } from "../../backend/types.js";
import { byTime, typedHeatmap } from "../../catalog/heatmap-typed.js";
import type { Heatmap } from "../../catalog/responses.js";
import type { HeatmapDigest } from "../../summary/heatmap/heatmap-schema.js";
import type { CandleInput } from "../../summary/series/candles.js";
import { lttb } from "../../summary/series/lttb.js";
import type { ColumnCandles, HeatmapMark, HeatmapView, SeriesLine, SeriesView } from "./types.js";

/** A view needs no more: ~400 columns and ~200 price bands fill an 800-pixel chart. */
export const VIEW_MAX_COLS = 400;
export const VIEW_MAX_ROWS = 200;
export const VIEW_MAX_POINTS = 1_000;
/** Candles stay readable (≥ ~2 px each) at about 600 across a wide view. */
export const VIEW_MAX_CANDLES = 600;

export const CELL_RULE = "sum over the band's price levels, mean over the column's time steps (USD notional)";

export interface HeatmapViewOptions {
  choices: HeatmapView["choices"];
  maxCols?: number;
  maxRows?: number;
}

export function heatmapView(input: TypedHeatmap | Heatmap, digest: HeatmapDigest, opts: HeatmapViewOptions): HeatmapView | null {
  const h = typedHeatmap(input);
  const rows = h.levels.length;
  const cols = h.times.length;
  if (rows < 1 || cols < 1) return null;
  const rowK = Math.ceil(rows / (opts.maxRows ?? VIEW_MAX_ROWS));
  const colK = Math.ceil(cols / (opts.maxCols ?? VIEW_MAX_COLS));
  const R = Math.ceil(rows / rowK);
  const C = Math.ceil(cols / colK);
  const { cells, zMax } = binnedMeans(h, rowK, colK);
  const bytes = quantized(cells, zMax);
  const times = h.times;
  const step = rows >= 2 ? h.levels[1]! - h.levels[0]! : 1;
  const colTimes = Array.from({ length: C }, (_, c) => times[c * colK]!);
  const baseMs = cols >= 2 ? times[1]! - times[0]! : 0;
  const anchor =
    digest.anchor.price !== null && digest.anchor.time !== null
      ? { price: digest.anchor.price, time: Date.parse(digest.anchor.time) }
      : null;
  const view: HeatmapView = {
    kind: "heatmap",
    asset: h.asset,
    timeframe: h.timeframe,
    lookback: h.lookback,
    scope: h.scope,
    exchange: h.exchange,
    rows: R,
    cols: C,
    // Centre of the first band: a level is the bin from its price up one step, so a band of rowK
    // levels runs from the first level's price up rowK steps.
    priceLow: h.levels[0]! + (Math.min(rowK, rows) * step) / 2,
    priceStep: step * rowK,
    times: colTimes,
    columnMs: baseMs * colK,
    zMax,
    z: "",
    cellRule: CELL_RULE,
    candles: columnCandles(h.candles, colTimes, baseMs * colK),
    last: anchor && Number.isFinite(anchor.time) ? anchor : null,
    marks: marks(digest),
    choices: opts.choices,
  };
  // The base64 is for clients that draw the view (and for outside readers); a PNG drawn here reads
  // the bytes. So it is encoded when first read: a chart-only call never pays for it.
  Object.defineProperty(view, "z", {
    enumerable: true,
    configurable: true,
    get() {
      const z = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
      Object.defineProperty(view, "z", { value: z, enumerable: true, writable: true, configurable: true });
      return z;
    },
  });
  QUANTIZED.set(view, bytes);
  return view;
}

/**
 * The matrix in rowK × colK bins: each bin sums its price levels and averages its time columns.
 * Returns the bins row-major, and the largest.
 */
function binnedMeans(h: TypedHeatmap, rowK: number, colK: number): { cells: Float64Array; zMax: number } {
  const rows = h.levels.length;
  const cols = h.times.length;
  const R = Math.ceil(rows / rowK);
  const C = Math.ceil(cols / colK);
  const cells = new Float64Array(R * C);
  const src = h.cells;
  for (let i = 0; i < rows; i++) {
    const base = Math.floor(i / rowK) * C;
    const from = i * cols;
    // Typed cells are intensities already: nothing negative, null or infinite to skip. One
    // column bin at a time, summed in a local: a store per bin, not per cell.
    for (let c = 0; c < C; c++) {
      const end = from + Math.min(cols, (c + 1) * colK);
      let sum = 0;
      for (let j = from + c * colK; j < end; j++) sum += src[j]!;
      cells[base + c]! += sum;
    }
  }
  let zMax = 0;
  for (let c = 0; c < C; c++) {
    const width = Math.min(cols, (c + 1) * colK) - c * colK;
    for (let r = 0; r < R; r++) {
      const v = (cells[r * C + c]! /= width);
      if (v > zMax) zMax = v;
    }
  }
  return { cells, zMax };
}

/** Each bin as a 16-bit little-endian fraction of the largest. */
function quantized(cells: Float64Array, zMax: number): Uint8Array {
  const bytes = new Uint8Array(cells.length * 2);
  for (let k = 0; k < cells.length; k++) {
    const q = zMax > 0 ? Math.round((cells[k]! / zMax) * 65535) : 0;
    bytes[2 * k] = q & 255;
    bytes[2 * k + 1] = q >> 8;
  }
  return bytes;
}

/** The bytes behind the views built in this process: a PNG of one reads them, not their base64. */
const QUANTIZED = new WeakMap<HeatmapView, Uint8Array>();

/** Little-endian uint16 cells of a heatmap view (its `z` decoded). */
export function quantizedCells(view: HeatmapView): Uint8Array {
  return QUANTIZED.get(view) ?? Buffer.from(view.z, "base64");
}

/** The service's candles placed into the view's columns (OHLC of the candles inside each). */
function columnCandles(df: TypedHeatmap["candles"], colTimes: number[], colMs: number): ColumnCandles {
  const C = colTimes.length;
  const out: ColumnCandles = {
    open: new Array(C).fill(null),
    high: new Array(C).fill(null),
    low: new Array(C).fill(null),
    close: new Array(C).fill(null),
  };
  const t0 = colTimes[0] ?? 0;
  const order = byTime(df.times, [df.open, df.high, df.low, df.close]);
  for (const i of order) {
    const t = df.times[i]!;
    const k = colMs > 0 ? Math.floor((t - t0) / colMs) : 0;
    if (k < 0 || k >= C) continue;
    if (out.open[k] === null) out.open[k] = df.open[i]!;
    out.high[k] = Math.max(out.high[k] ?? -Infinity, df.high[i]!);
    out.low[k] = Math.min(out.low[k] ?? Infinity, df.low[i]!);
    out.close[k] = df.close[i]!;
  }
  return out;
}

function marks(digest: HeatmapDigest): HeatmapMark[] {
  const out: HeatmapMark[] = [];
  for (const side of ["above", "below"] as const) {
    const s = digest.latest?.[side];
    if (!s) continue;
    for (const kind of ["nearest", "largest"] as const) {
      const c = s[kind];
      if (c) out.push({ kind, side, low: c.low, high: c.high, intensity: c.intensity, distancePercent: c.distanceEdgePercent });
    }
  }
  return out;
}

/**
 * A chart title a reader can take in: the asset, what the metric measures (the catalog's purpose,
 * "native units" named as the asset's coin) and its unit, then the timeframe and venue.
 */
export function metricTitle(asset: string, purpose: string, unit: string, timeframe: string, venue?: string): string {
  const coin = asset.toUpperCase();
  const what = purpose.replace(/native units/g, coin);
  const label = what.charAt(0).toUpperCase() + what.slice(1);
  const shown = unit && !label.includes(`in ${unit}`) ? ` (${unit})` : "";
  return `${coin} · ${label}${shown} · ${timeframe}${venue ? ` · ${venue}` : ""}`;
}

/** One series line, LTTB-downsampled to at most `maxPoints`, non-finite points dropped; `bars` for per-bucket amounts. */
export function seriesLine(
  label: string,
  unit: string,
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  maxPoints = VIEW_MAX_POINTS,
  bars = false,
): SeriesLine {
  const t: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < Math.min(times.length, values.length); i++) {
    if (Number.isFinite(values[i]!) && Number.isFinite(times[i]!)) {
      t.push(times[i]!);
      v.push(values[i]!);
    }
  }
  const style = bars ? { bars: true } : {};
  if (t.length <= maxPoints) return { label, unit, times: t, values: v, ...style };
  const keep = lttb(t, v, maxPoints);
  return { label, unit, times: keep.map((i) => t[i]!), values: keep.map((i) => v[i]!), ...style };
}

/** A series view, or null when nothing in it can be drawn (an empty range). */
export function seriesView(title: string, series: SeriesLine[], candles?: SeriesView["candles"]): SeriesView | null {
  const drawable = series.filter((s) => s.times.length > 0);
  const hasCandles = candles !== undefined && candles.times.length > 0;
  if (drawable.length === 0 && !hasCandles) return null;
  const units = new Set(drawable.map((s) => s.unit));
  const layout: SeriesView["layout"] = drawable.length <= 1 ? "single" : units.size === 2 && drawable.length === 2 ? "twin" : "rebased";
  return { kind: "series", title, series: drawable, ...(hasCandles ? { candles } : {}), layout };
}

/** Candles merged k at a time (first open, highest high, lowest low, last close) to at most `max`. */
export function viewCandles(c: CandleInput, max = VIEW_MAX_CANDLES): NonNullable<SeriesView["candles"]> {
  const n = Math.min(c.times.length, c.open.length, c.high.length, c.low.length, c.close.length);
  const k = Math.max(1, Math.ceil(n / max));
  const out: NonNullable<SeriesView["candles"]> = { times: [], open: [], high: [], low: [], close: [] };
  for (let s = 0; s < n; s += k) {
    let o = NaN,
      h = -Infinity,
      l = Infinity,
      cl = NaN;
    for (let j = s; j < Math.min(n, s + k); j++) {
      if (![c.open[j]!, c.high[j]!, c.low[j]!, c.close[j]!].every(Number.isFinite)) continue;
      if (Number.isNaN(o)) o = c.open[j]!;
      h = Math.max(h, c.high[j]!);
      l = Math.min(l, c.low[j]!);
      cl = c.close[j]!;
    }
    if (Number.isNaN(o)) continue;
    out.times.push(c.times[s]!);
    out.open.push(o);
    out.high.push(h);
    out.low.push(l);
    out.close.push(cl);
  }
  return out;
}
