// Line and candle charts as SVG: one series, several rebased to 100, or two units on twin axes.
// Used for the PNG and by the view, which adds hover on top.
import { esc, timeTickLabels } from "./format.js";
import { bucketCandles } from "./heatmap-scene.js";
import { svgDocument } from "./heatmap-svg.js";
import type { SeriesView, Theme } from "./model/types.js";
import { type Linear, niceTicks, timeTicks } from "./scale.js";
import { axisValue, type PlottedLine, type SeriesLayout, seriesLayout } from "./series-layout.js";

export { axisValue, seriesLayout, type PlottedLine, type SeriesLayout } from "./series-layout.js";

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
