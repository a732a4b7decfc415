// Where a line or candle chart's pieces go: the plot area, the axes' scales, the lines as drawn
// (rebased or not), the title and the legend rows. The SVG and the view draw from this layout.
import { priceLabel, valueLabel } from "./format.js";
import { CAPTION_ROW } from "./heatmap-scene.js";
import type { SeriesView } from "./model/types.js";
import { type Linear, linear, padded } from "./scale.js";

export interface PlottedLine {
  label: string;
  unit: string;
  color: string;
  times: number[];
  /** Values as drawn (rebased when the layout says so). */
  shown: number[];
  values: number[];
  axis: "left" | "right";
  /** Per-bucket amounts (flows) drawn as bars from zero; a line otherwise. */
  bars: boolean;
}

export interface SeriesLayout {
  width: number;
  height: number;
  plot: { x0: number; y0: number; x1: number; y1: number };
  x: Linear;
  left: Linear | null;
  right: Linear;
  lines: PlottedLine[];
  rightUnit: string;
  leftUnit: string;
  layout: SeriesView["layout"];
  /** The title (cut to the width) and the legend below it, wrapped onto as many rows as the width needs. */
  title: string;
  legend: Array<{ x: number; y: number; color: string | null; text: string }>;
}

/** Pixels a character of the legend's 11 px text and the title's 14 px bold text take, at most. */
const LEGEND_CHAR = 6.2;
const TITLE_CHAR = 7.8;
const LEGEND_ROW = 14;
const REBASED_NOTE = "rebased: 100 at first common date";

/** Legend entries left to right, a new row when the next would pass the right edge; the rebasing rule last. */
function legendRows(lines: readonly PlottedLine[], layout: SeriesView["layout"], x0: number, x1: number): SeriesLayout["legend"] {
  const out: SeriesLayout["legend"] = [];
  let x = x0;
  let y = 31;
  const place = (width: number) => {
    if (x > x0 && x + width > x1) {
      x = x0;
      y += LEGEND_ROW;
    }
    const at = x;
    x += width + 10;
    return at;
  };
  for (const l of lines) {
    const text = `${l.label}${layout === "twin" ? ` (${l.axis})` : ""}`;
    out.push({ x: place(14 + text.length * LEGEND_CHAR), y, color: l.color, text });
  }
  if (layout === "rebased") out.push({ x: place(REBASED_NOTE.length * LEGEND_CHAR), y, color: null, text: REBASED_NOTE });
  return out;
}

/** Index of the first time every series has reached: the rebasing point. */
function rebaseStart(view: SeriesView): number {
  return Math.max(...view.series.map((s) => s.times.find((_, i) => Number.isFinite(s.values[i]) && s.values[i] !== 0) ?? Infinity));
}

/** The time span and each axis' value range of what is drawn: lines, bars (down to zero) and candles. */
function extents(
  lines: readonly PlottedLine[],
  c: SeriesView["candles"],
): { t0: number; t1: number; range: Record<PlottedLine["axis"], number[]> } {
  let t0 = Infinity,
    t1 = -Infinity;
  const range = { left: [Infinity, -Infinity], right: [Infinity, -Infinity] };
  for (const l of lines) {
    for (let i = 0; i < l.times.length; i++) {
      const v = l.shown[i]!;
      if (!Number.isFinite(v)) continue;
      t0 = Math.min(t0, l.times[i]!);
      t1 = Math.max(t1, l.times[i]!);
      const a = range[l.axis];
      a[0] = Math.min(a[0]!, v);
      a[1] = Math.max(a[1]!, v);
    }
  }
  // Bars stand on zero: their axis includes it.
  for (const l of lines) {
    if (!l.bars) continue;
    range[l.axis][0] = Math.min(range[l.axis][0]!, 0);
    range[l.axis][1] = Math.max(range[l.axis][1]!, 0);
  }
  if (c) {
    for (let i = 0; i < c.times.length; i++) {
      if (c.low[i] == null || c.high[i] == null) continue;
      t0 = Math.min(t0, c.times[i]!);
      t1 = Math.max(t1, c.times[i]!);
      range.right[0] = Math.min(range.right[0]!, c.low[i]!);
      range.right[1] = Math.max(range.right[1]!, c.high[i]!);
    }
  }
  return { t0, t1, range };
}

export function seriesLayout(view: SeriesView, width: number, height: number, palette: string[]): SeriesLayout {
  const twin = view.layout === "twin" && view.series.length >= 2;
  const plot = { x0: twin ? 64 : 10, y0: 38, x1: width - 68, y1: height - CAPTION_ROW - 24 };
  const maxTitle = Math.max(8, Math.floor((width - 20) / TITLE_CHAR));
  const title = view.title.length > maxTitle ? `${view.title.slice(0, maxTitle - 1)}…` : view.title;
  const start = view.layout === "rebased" ? rebaseStart(view) : -Infinity;
  const lines: PlottedLine[] = view.series.map((s, k) => {
    let base = NaN;
    if (view.layout === "rebased") {
      const i = s.times.findIndex((t) => t >= start);
      base = i >= 0 ? s.values[i]! : NaN;
    }
    const shown = view.layout === "rebased" ? s.values.map((v) => (base ? (v / base) * 100 : NaN)) : s.values.slice();
    const bars = s.bars === true && view.layout !== "rebased";
    return {
      label: s.label,
      unit: s.unit,
      color: palette[k % palette.length]!,
      times: s.times,
      shown,
      values: s.values,
      axis: twin && k === 1 ? "left" : "right",
      bars,
    };
  });
  const { t0, t1, range } = extents(lines, view.candles);
  const c = view.candles;
  const rightUnit = view.layout === "rebased" ? "index" : (lines.find((l) => l.axis === "right")?.unit ?? (c ? "USD" : ""));
  // The legend runs from the plot's left edge to the chart's right one; more rows push the plot down.
  const legend = legendRows(c && lines.length === 0 ? [] : lines, view.layout, plot.x0, width - 8);
  plot.y0 += Math.max(0, (legend.at(-1)?.y ?? 31) - 31);
  return {
    title,
    legend,
    width,
    height,
    plot,
    x: linear(Number.isFinite(t0) ? [t0, t1 > t0 ? t1 : t0 + 1] : [0, 1], [plot.x0, plot.x1]),
    left: twin ? linear(padded(range.left[0]!, range.left[1]!), [plot.y1, plot.y0]) : null,
    right: linear(padded(range.right[0]!, range.right[1]!), [plot.y1, plot.y0]),
    lines,
    rightUnit,
    leftUnit: twin ? lines[1]!.unit : "",
    layout: view.layout,
  };
}

/**
 * Axis label for a value on an axis of `unit`: index values plain; USD in full below $10k on the
 * whole axis (prices such as $2,450 or $0.2473), compact above; other units compact.
 */
export function axisValue(v: number, unit: string, step: number, axisMax: number): string {
  if (unit === "index") return v.toFixed(step < 1 ? 1 : 0);
  if (unit === "USD" && axisMax < 1e4) return `$${priceLabel(v, step)}`;
  return valueLabel(v, unit);
}
