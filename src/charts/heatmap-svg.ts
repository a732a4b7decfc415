// The liquidation heatmap as SVG: the price × time matrix (an image supplied by the caller), the
// candles over it, the last price, the nearest and largest clusters, price and time axes and a
// colour bar in USD. Used for the PNG and by the view, which adds hover on top.
import { colorPosition, cssColor } from "./colormap.js";
import { esc, priceLabel, timeLabel, usdCompact } from "./format.js";
import { linear, niceTicks, timeTicks, type Linear } from "./scale.js";
import type { ColumnCandles, HeatmapView, Theme } from "./types.js";

export interface HeatmapLayout {
  width: number;
  height: number;
  plot: { x0: number; y0: number; x1: number; y1: number };
  /** Price → y pixel. */
  y: Linear;
  /** Time (epoch ms) → x pixel. */
  x: Linear;
  colorBar: { x: number; y0: number; y1: number; w: number };
}

export function heatmapLayout(view: HeatmapView, width: number, height: number): HeatmapLayout {
  const plot = { x0: 8, y0: 34, x1: width - 132, y1: height - 24 };
  const lo = view.priceLow - view.priceStep / 2;
  const hi = view.priceLow + (view.rows - 1) * view.priceStep + view.priceStep / 2;
  const t0 = view.times[0] ?? 0;
  const t1 = (view.times[view.cols - 1] ?? t0) + view.columnMs;
  return {
    width,
    height,
    plot,
    y: linear([lo, hi], [plot.y1, plot.y0]),
    x: linear([t0, t1], [plot.x0, plot.x1]),
    colorBar: { x: width - 58, y0: plot.y0, y1: plot.y1, w: 10 },
  };
}

export interface HeatmapSvgOptions {
  width: number;
  height: number;
  theme: Theme;
  /**
   * The matrix as an image (data: URI), rows × cols pixels, lowest price at the bottom; null when
   * the caller paints the background and the matrix itself beneath a transparent SVG.
   */
  imageHref: string | null;
}

export function heatmapSvg(view: HeatmapView, opts: HeatmapSvgOptions): string {
  const { theme } = opts;
  const L = heatmapLayout(view, opts.width, opts.height);
  const { plot } = L;
  const parts: string[] = [];
  if (opts.imageHref !== null) parts.push(`<rect width="${L.width}" height="${L.height}" fill="${theme.background}"/>`);
  const where = view.scope === "exchange" ? view.exchange : "all venues";
  parts.push(
    `<text x="${plot.x0}" y="20" font-size="14" font-weight="600" fill="${theme.text}">${esc(view.asset.toUpperCase())} liquidation heatmap` +
      `<tspan font-weight="400" fill="${theme.muted}"> · ${esc(view.timeframe)} · ${esc(view.lookback)} · ${esc(where)}</tspan></text>`,
  );
  if (view.last) {
    parts.push(`<text x="${plot.x1}" y="20" font-size="12" text-anchor="end" fill="${theme.muted}">last <tspan fill="${theme.text}" font-weight="600">${priceLabel(view.last.price, view.priceStep / 10)}</tspan></text>`);
  }
  const pw = plot.x1 - plot.x0;
  const ph = plot.y1 - plot.y0;
  if (opts.imageHref !== null) {
    parts.push(
      `<image x="${plot.x0}" y="${plot.y0}" width="${pw}" height="${ph}" preserveAspectRatio="none" image-rendering="optimizeSpeed" style="image-rendering:pixelated" href="${opts.imageHref}"/>`,
    );
  }
  // White and red read over every part of the colour ramp; viridis' greens would hide green candles.
  parts.push(candlesSvg(view.candles, view.times, view.columnMs, L, { ...theme, up: "#f4f4f5", down: "#ff4d5e" }, Math.max(1, Math.floor(pw / 5))));
  parts.push(priceAxis(view, L, theme));
  parts.push(timeAxis(view, L, theme));
  if (view.last) {
    const y = L.y(view.last.price);
    if (y >= plot.y0 && y <= plot.y1) {
      parts.push(`<line x1="${plot.x0}" x2="${plot.x1}" y1="${r(y)}" y2="${r(y)}" stroke="${theme.last}" stroke-width="1" stroke-dasharray="4 3" stroke-opacity="0.9"/>`);
      const label = priceLabel(view.last.price, view.priceStep / 10);
      parts.push(`<rect x="${plot.x1 + 2}" y="${r(y - 8)}" width="${label.length * 6.4 + 8}" height="16" rx="3" fill="${theme.last}"/>`);
      parts.push(`<text x="${plot.x1 + 6}" y="${r(y + 4)}" font-size="11" font-weight="600" fill="#111">${label}</text>`);
    }
  }
  parts.push(marksSvg(view, L, theme));
  parts.push(colorBarSvg(view, L, theme));
  return svgDocument(L.width, L.height, theme.font, parts.join(""));
}

export function svgDocument(width: number, height: number, font: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" xml:space="preserve" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${esc(font)}">${body}</svg>`;
}

const r = (v: number) => Math.round(v * 10) / 10;

function priceAxis(view: HeatmapView, L: HeatmapLayout, theme: Theme): string {
  const [lo, hi] = L.y.domain;
  const out: string[] = [];
  for (const p of niceTicks(lo, hi, Math.max(3, Math.floor((L.plot.y1 - L.plot.y0) / 48)))) {
    const y = r(L.y(p));
    out.push(`<line x1="${L.plot.x1}" x2="${L.plot.x1 + 4}" y1="${y}" y2="${y}" stroke="${theme.muted}"/>`);
    out.push(`<text x="${L.plot.x1 + 7}" y="${r(y + 4)}" font-size="11" fill="${theme.muted}">${priceLabel(p, view.priceStep)}</text>`);
  }
  return out.join("");
}

function timeAxis(view: HeatmapView, L: HeatmapLayout, theme: Theme): string {
  const [t0, t1] = L.x.domain;
  const out: string[] = [];
  const ticks = timeTicks(t0, t1, Math.max(2, Math.floor((L.plot.x1 - L.plot.x0) / 110)));
  for (const t of ticks) {
    const x = r(L.x(t));
    out.push(`<line x1="${x}" x2="${x}" y1="${L.plot.y1}" y2="${L.plot.y1 + 4}" stroke="${theme.muted}"/>`);
    const anchor = x < L.plot.x0 + 30 ? "start" : x > L.plot.x1 - 30 ? "end" : "middle";
    out.push(`<text x="${x}" y="${L.plot.y1 + 16}" font-size="11" text-anchor="${anchor}" fill="${theme.muted}">${esc(timeLabel(t, t1 - t0))}</text>`);
  }
  return out.join("");
}

/** Candles re-bucketed to at most `buckets` so each stays readable (≥ ~4 px wide). */
export function bucketCandles(c: ColumnCandles, n: number, buckets: number): Array<{ from: number; to: number; o: number; h: number; l: number; c: number } | null> {
  const k = Math.max(1, Math.ceil(n / Math.max(1, buckets)));
  const out: Array<{ from: number; to: number; o: number; h: number; l: number; c: number } | null> = [];
  for (let s = 0; s < n; s += k) {
    let o = NaN, h = -Infinity, l = Infinity, cl = NaN;
    for (let j = s; j < Math.min(n, s + k); j++) {
      const oj = c.open[j], hj = c.high[j], lj = c.low[j], cj = c.close[j];
      if (oj == null || hj == null || lj == null || cj == null) continue;
      if (Number.isNaN(o)) o = oj;
      h = Math.max(h, hj);
      l = Math.min(l, lj);
      cl = cj;
    }
    out.push(Number.isNaN(o) ? null : { from: s, to: Math.min(n, s + k), o, h, l, c: cl });
  }
  return out;
}

function candlesSvg(c: ColumnCandles, times: number[], columnMs: number, L: HeatmapLayout, theme: Theme, buckets: number): string {
  const n = times.length;
  const up: string[] = [];
  const down: string[] = [];
  // Fills only (a 1-px rectangle for the wick): stroking hundreds of subpaths was most of the
  // rasteriser's time for a heatmap chart.
  for (const b of bucketCandles(c, n, buckets)) {
    if (!b) continue;
    const xa = L.x(times[b.from]!);
    const xb = L.x(times[b.to - 1]! + columnMs);
    const mid = (xa + xb) / 2;
    const bw = Math.max(1, (xb - xa) * 0.62);
    const top = L.y(Math.max(b.o, b.c));
    const bottom = L.y(Math.min(b.o, b.c));
    const yh = L.y(b.h);
    const path = `M${r(mid - 0.5)} ${r(yh)}h1V${r(L.y(b.l))}h-1zM${r(mid - bw / 2)} ${r(top)}h${r(bw)}v${r(Math.max(1, bottom - top))}h${r(-bw)}z`;
    (b.c >= b.o ? up : down).push(path);
  }
  return `<path d="${up.join("")}" fill="${theme.up}"/><path d="${down.join("")}" fill="${theme.down}"/>`;
}

function marksSvg(view: HeatmapView, L: HeatmapLayout, theme: Theme): string {
  const out: string[] = [];
  const labels: Array<{ y: number; text: string; color: string }> = [];
  const seen = new Set<string>();
  for (const m of view.marks) {
    const key = `${m.side}:${m.low}:${m.high}`;
    const color = m.side === "above" ? theme.markAbove : theme.markBelow;
    const yTop = L.y(m.high + view.priceStep / 2);
    const yBottom = L.y(m.low - view.priceStep / 2);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(`<rect x="${L.plot.x1 - 10}" y="${r(yTop)}" width="10" height="${r(Math.max(2, yBottom - yTop))}" fill="none" stroke="${color}" stroke-width="1.5"/>`);
      const kinds = view.marks.filter((o) => `${o.side}:${o.low}:${o.high}` === key).map((o) => o.kind).join(" & ");
      const band = m.low === m.high ? priceLabel(m.low, view.priceStep) : `${priceLabel(m.low, view.priceStep)}–${priceLabel(m.high, view.priceStep)}`;
      labels.push({ y: (yTop + yBottom) / 2, text: `${kinds} ${m.side === "above" ? "▲" : "▼"} ${band} · ${usdCompact(m.intensity)}`, color });
    }
  }
  // Keep labels 15 px apart, in price order, inside the plot.
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) labels[i]!.y = Math.max(labels[i]!.y, labels[i - 1]!.y + 15);
  const overflow = (labels.at(-1)?.y ?? 0) - (L.plot.y1 - 8);
  if (overflow > 0) for (const l of labels) l.y -= overflow;
  for (const l of labels) {
    const w = l.text.length * 6 + 10;
    const x = L.plot.x1 - 14 - w;
    out.push(`<rect x="${r(x)}" y="${r(l.y - 8)}" width="${r(w)}" height="16" rx="3" fill="#000" fill-opacity="0.62"/>`);
    out.push(`<text x="${r(x + 5)}" y="${r(l.y + 4)}" font-size="11" fill="${l.color}">${esc(l.text)}</text>`);
  }
  return out.join("");
}

function colorBarSvg(view: HeatmapView, L: HeatmapLayout, theme: Theme): string {
  const { x, y0, y1, w } = L.colorBar;
  const stops = Array.from({ length: 11 }, (_, i) => `<stop offset="${i / 10}" stop-color="${cssColor(1 - i / 10)}"/>`).join("");
  const out = [
    `<defs><linearGradient id="cbar" x1="0" x2="0" y1="0" y2="1">${stops}</linearGradient></defs>`,
    `<rect x="${x}" y="${y0}" width="${w}" height="${y1 - y0}" fill="url(#cbar)"/>`,
    `<text x="${x}" y="${y0 - 8}" font-size="10" fill="${theme.muted}">USD</text>`,
  ];
  if (view.zMax > 0) {
    const ticks = niceTicks(0, view.zMax, 5).filter((v) => v > 0);
    for (const v of [...ticks.filter((t) => colorPosition(t, view.zMax) > 0.12)]) {
      const y = r(y1 - colorPosition(v, view.zMax) * (y1 - y0));
      out.push(`<line x1="${x + w}" x2="${x + w + 3}" y1="${y}" y2="${y}" stroke="${theme.muted}"/>`);
      out.push(`<text x="${x + w + 5}" y="${r(y + 4)}" font-size="10" fill="${theme.muted}">${usdCompact(v)}</text>`);
    }
  }
  return out.join("");
}
