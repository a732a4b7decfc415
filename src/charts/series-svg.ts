// Line and candle charts as SVG: one series, several rebased to 100, or two units on twin axes.
// Used for the PNG and by the view, which adds hover on top.
import { esc, priceLabel, timeTickLabels, valueLabel } from "./format.js";
import { bucketCandles, CAPTION_ROW } from "./heatmap-scene.js";
import { svgDocument } from "./heatmap-svg.js";
import { linear, niceTicks, padded, timeTicks, type Linear } from "./scale.js";
import type { SeriesView, Theme } from "./model/types.js";

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

export interface SeriesSvgOptions {
  width: number;
  height: number;
  theme: Theme;
  /** Where the figures come from, drawn in the last row (charts/model/caption.ts). */
  caption?: string;
}

export function seriesSvg(view: SeriesView, opts: SeriesSvgOptions): string {
  const { theme } = opts;
  const L = seriesLayout(view, opts.width, opts.height, theme.palette);
  const { plot } = L;
  const parts: string[] = [`<rect width="${L.width}" height="${L.height}" fill="${theme.background}"/>`];
  parts.push(`<text x="${plot.x0}" y="18" font-size="14" font-weight="600" fill="${theme.text}">${esc(L.title)}</text>`);
  // Legend below the title: colour and label of each line, and the rebasing rule when it applies.
  for (const item of L.legend) {
    if (item.color === null) parts.push(`<text x="${item.x}" y="${item.y}" font-size="11" fill="${theme.muted}">${esc(item.text)}</text>`);
    else {
      parts.push(`<rect x="${item.x}" y="${item.y - 5}" width="10" height="3" fill="${item.color}"/>`);
      parts.push(`<text x="${item.x + 14}" y="${item.y}" font-size="11" fill="${theme.muted}">${esc(item.text)}</text>`);
    }
  }
  parts.push(axes(L, theme));
  if (view.candles) parts.push(candles(view.candles, L, theme));
  for (const l of L.lines) parts.push(linePath(l, L));
  if (opts.caption) parts.push(`<text x="${plot.x0}" y="${L.height - 5}" font-size="10" fill="${theme.muted}">${esc(opts.caption)}</text>`);
  return svgDocument(L.width, L.height, theme.font, parts.join(""));
}

const r = (v: number) => Math.round(v * 10) / 10;

function axes(L: SeriesLayout, theme: Theme): string {
  const out: string[] = [];
  const { plot } = L;
  const yTicks = (scale: Linear) => niceTicks(scale.domain[0], scale.domain[1], Math.max(3, Math.floor((plot.y1 - plot.y0) / 50)));
  const right = yTicks(L.right);
  const step = right.length > 1 ? right[1]! - right[0]! : 1;
  for (const v of right) {
    const y = r(L.right(v));
    out.push(`<line x1="${plot.x0}" x2="${plot.x1}" y1="${y}" y2="${y}" stroke="${theme.grid}"/>`);
    out.push(
      `<text x="${plot.x1 + 6}" y="${r(y + 4)}" font-size="11" fill="${theme.muted}">${esc(axisValue(v, L.rightUnit, step, Math.max(...right.map(Math.abs))))}</text>`,
    );
  }
  if (L.left) {
    const left = yTicks(L.left);
    const lstep = left.length > 1 ? left[1]! - left[0]! : 1;
    for (const v of left) {
      const y = r(L.left(v));
      out.push(
        `<text x="${plot.x0 - 6}" y="${r(y + 4)}" font-size="11" text-anchor="end" fill="${L.lines[1]!.color}">${esc(axisValue(v, L.leftUnit, lstep, Math.max(...left.map(Math.abs))))}</text>`,
      );
    }
  }
  const [t0, t1] = L.x.domain;
  const ticks = timeTicks(t0, t1, Math.max(4, Math.floor((plot.x1 - plot.x0) / 110)));
  const labels = timeTickLabels(ticks, t1 - t0);
  ticks.forEach((t, k) => {
    const x = r(L.x(t));
    out.push(`<line x1="${x}" x2="${x}" y1="${plot.y0}" y2="${plot.y1}" stroke="${theme.grid}"/>`);
    const anchor = x < plot.x0 + 30 ? "start" : x > plot.x1 - 30 ? "end" : "middle";
    out.push(`<text x="${x}" y="${plot.y1 + 16}" font-size="11" text-anchor="${anchor}" fill="${theme.muted}">${esc(labels[k]!)}</text>`);
  });
  out.push(`<line x1="${plot.x0}" x2="${plot.x1}" y1="${plot.y1}" y2="${plot.y1}" stroke="${theme.muted}" stroke-opacity="0.6"/>`);
  return out.join("");
}

function linePath(l: PlottedLine, L: SeriesLayout): string {
  const y = l.axis === "left" && L.left ? L.left : L.right;
  if (l.bars) return barsPath(l, L, y);
  let d = "";
  let pen = false;
  for (let i = 0; i < l.times.length; i++) {
    const v = l.shown[i]!;
    if (!Number.isFinite(v)) {
      pen = false;
      continue;
    }
    d += `${pen ? "L" : "M"}${r(L.x(l.times[i]!))} ${r(y(v))}`;
    pen = true;
  }
  return `<path d="${d}" fill="none" stroke="${l.color}" stroke-width="1.6" stroke-linejoin="bevel"/>`;
}

/** One bar per bucket from zero to its value, as wide as the buckets' spacing allows. */
function barsPath(l: PlottedLine, L: SeriesLayout, y: Linear): string {
  const n = l.times.length;
  const spacing = n > 1 ? Math.abs(L.x(l.times[n - 1]!) - L.x(l.times[0]!)) / (n - 1) : 8;
  const w = Math.max(0.6, Math.min(14, spacing * 0.8));
  const zero = r(y(0));
  let d = "";
  for (let i = 0; i < n; i++) {
    const v = l.shown[i]!;
    if (!Number.isFinite(v)) continue;
    d += `M${r(L.x(l.times[i]!) - w / 2)} ${zero}V${r(y(v))}h${r(w)}V${zero}z`;
  }
  return `<path d="${d}" fill="${l.color}" fill-opacity="0.85"/>`;
}

function candles(c: NonNullable<SeriesView["candles"]>, L: SeriesLayout, theme: Theme): string {
  const n = c.times.length;
  const up: string[] = [];
  const down: string[] = [];
  const width = L.plot.x1 - L.plot.x0;
  const spacing = n > 1 ? (L.x(c.times[n - 1]!) - L.x(c.times[0]!)) / (n - 1) : width;
  const buckets = bucketCandles(c, n, Math.floor(width / 5));
  for (const b of buckets) {
    if (!b) continue;
    const xa = L.x(c.times[b.from]!) - spacing / 2;
    const xb = L.x(c.times[b.to - 1]!) + spacing / 2;
    const mid = r((xa + xb) / 2);
    const bw = Math.max(1, Math.min(14, (xb - xa) * 0.65));
    const top = L.right(Math.max(b.o, b.c));
    const bottom = L.right(Math.min(b.o, b.c));
    (b.c >= b.o ? up : down).push(
      `M${mid} ${r(L.right(b.h))}V${r(L.right(b.l))}M${r(mid - bw / 2)} ${r(top)}h${r(bw)}v${r(Math.max(1, bottom - top))}h${r(-bw)}z`,
    );
  }
  return `<path d="${up.join("")}" fill="${theme.up}" stroke="${theme.up}"/><path d="${down.join("")}" fill="${theme.down}" stroke="${theme.down}"/>`;
}
