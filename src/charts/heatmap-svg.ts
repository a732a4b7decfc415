// The liquidation heatmap as SVG: the price × time matrix (an image supplied by the caller), the
// candles over it, the last price, the nearest and largest clusters, price and time axes and a
// colour bar in USD, as the scene places them. Used by the view, which adds hover on top.
import { cssColor } from "./colormap.js";
import { esc } from "./format.js";
import {
  HEATMAP_CANDLE_DOWN,
  HEATMAP_CANDLE_UP,
  heatmapScene,
  heatmapTexts,
  LABEL_OPACITY,
  LAST_DASH,
  LAST_OPACITY,
} from "./heatmap-scene.js";
import type { HeatmapView, Theme } from "./model/types.js";

export interface HeatmapSvgOptions {
  width: number;
  height: number;
  theme: Theme;
  /**
   * The matrix as an image (data: URI), rows × cols pixels, lowest price at the bottom; null when
   * the caller paints the background and the matrix itself beneath a transparent SVG.
   */
  imageHref: string | null;
  /** Where the figures come from, drawn in the last row (charts/model/caption.ts). */
  caption?: string;
}

export function heatmapSvg(view: HeatmapView, opts: HeatmapSvgOptions): string {
  const { theme } = opts;
  const S = heatmapScene(view, opts.width, opts.height, theme);
  const T = heatmapTexts(view, S, theme, opts.caption);
  const L = S.layout;
  const { plot } = L;
  const svg = (texts: Array<{ svg: string }>) => texts.map((t) => t.svg).join("");
  const parts: string[] = [];
  if (opts.imageHref !== null) parts.push(`<rect width="${L.width}" height="${L.height}" fill="${theme.background}"/>`);
  parts.push(svg(T.title));
  const pw = plot.x1 - plot.x0;
  const ph = plot.y1 - plot.y0;
  if (opts.imageHref !== null) {
    parts.push(
      `<image x="${plot.x0}" y="${plot.y0}" width="${pw}" height="${ph}" preserveAspectRatio="none" image-rendering="optimizeSpeed" style="image-rendering:pixelated" href="${opts.imageHref}"/>`,
    );
  }
  const up: string[] = [];
  const down: string[] = [];
  for (const c of S.candles) {
    const { wick: w, body: b } = c;
    (c.up ? up : down).push(`M${w.x0} ${w.y0}h1V${w.y1}h-1zM${b.x0} ${b.y0}h${r(b.x1 - b.x0)}v${r(b.y1 - b.y0)}h${r(b.x0 - b.x1)}z`);
  }
  parts.push(`<path d="${up.join("")}" fill="${HEATMAP_CANDLE_UP}"/><path d="${down.join("")}" fill="${HEATMAP_CANDLE_DOWN}"/>`);
  for (const t of S.priceTicks) parts.push(`<line x1="${plot.x1}" x2="${plot.x1 + 4}" y1="${t.y}" y2="${t.y}" stroke="${theme.muted}"/>`);
  parts.push(svg(T.price));
  for (const t of S.timeTicks) parts.push(`<line x1="${t.x}" x2="${t.x}" y1="${plot.y1}" y2="${plot.y1 + 4}" stroke="${theme.muted}"/>`);
  parts.push(svg(T.time));
  if (S.last) {
    const { y, tag } = S.last;
    parts.push(
      `<line x1="${plot.x0}" x2="${plot.x1}" y1="${y}" y2="${y}" stroke="${theme.last}" stroke-width="1" stroke-dasharray="${LAST_DASH.join(" ")}" stroke-opacity="${LAST_OPACITY}"/>`,
    );
    parts.push(`<rect x="${tag.x0}" y="${tag.y0}" width="${r(tag.x1 - tag.x0)}" height="16" rx="3" fill="${theme.last}"/>`);
    parts.push(svg(T.last));
  }
  for (const m of S.marks) {
    parts.push(
      `<rect x="${m.box.x0}" y="${m.box.y0}" width="10" height="${r(m.box.y1 - m.box.y0)}" fill="none" stroke="${m.color}" stroke-width="1.5"/>`,
    );
  }
  for (const [i, l] of S.labels.entries()) {
    parts.push(
      `<rect x="${l.box.x0}" y="${l.box.y0}" width="${r(l.box.x1 - l.box.x0)}" height="16" rx="3" fill="#000" fill-opacity="${LABEL_OPACITY}"/>`,
    );
    parts.push(T.labels[i]!.svg);
  }
  const { x, y0, y1, w } = L.colorBar;
  const stops = Array.from({ length: 11 }, (_, i) => `<stop offset="${i / 10}" stop-color="${cssColor(1 - i / 10)}"/>`).join("");
  parts.push(`<defs><linearGradient id="cbar" x1="0" x2="0" y1="0" y2="1">${stops}</linearGradient></defs>`);
  parts.push(`<rect x="${x}" y="${y0}" width="${w}" height="${y1 - y0}" fill="url(#cbar)"/>`);
  for (const t of S.colorTicks) parts.push(`<line x1="${x + w}" x2="${x + w + 3}" y1="${t.y}" y2="${t.y}" stroke="${theme.muted}"/>`);
  parts.push(svg(T.colorBar));
  parts.push(svg(T.caption));
  return svgDocument(L.width, L.height, theme.font, parts.join(""));
}

export function svgDocument(width: number, height: number, font: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" xml:space="preserve" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${esc(font)}">${body}</svg>`;
}

const r = (v: number) => Math.round(v * 10) / 10;
