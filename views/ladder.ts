// The heatmap's coarse preview: the digest's liquidation clusters as bands on a price axis around
// the last price, each as wide as its notional, labelled with its edges and size.
import { esc, priceLabel, usdCompact } from "../src/charts/format.js";
import { svgDocument } from "../src/charts/heatmap-svg.js";
import type { Theme } from "../src/charts/model/types.js";
import { linear, niceTicks, padded } from "../src/charts/scale.js";
import type { HeatmapPreview } from "./preview.js";

/** Pixels a character of the 11 px labels takes, at most. */
const LABEL_CHAR = 6.4;

export interface LadderOptions {
  width: number;
  height: number;
  theme: Theme;
  caption: string;
}

export function ladderSvg(p: HeatmapPreview, opts: LadderOptions): string {
  const { width, height, theme } = opts;
  const plot = { x0: 10, y0: 34, x1: width - 80, y1: height - 38 };
  const prices = [...p.bands.flatMap((b) => [b.low, b.high]), ...(p.last ? [p.last.price] : [])];
  const [lo, hi] = padded(Math.min(...prices), Math.max(...prices), 0.08);
  const y = linear([lo, hi], [plot.y1, plot.y0]);
  const maxI = Math.max(1, ...p.bands.map((b) => b.intensity));
  const step = (hi - lo) / 50;
  const labels = p.bands.map((b) => `${priceLabel(b.low, step)}–${priceLabel(b.high, step)} · ${usdCompact(b.intensity)}`);
  const longest = Math.max(0, ...labels.map((l) => l.length));
  const parts: string[] = [`<rect width="${width}" height="${height}" fill="${theme.background}"/>`];
  parts.push(`<text x="${plot.x0}" y="20" font-size="14" font-weight="600" fill="${theme.text}">${esc(p.title)}</text>`);
  for (const v of niceTicks(lo, hi, Math.max(3, Math.floor((plot.y1 - plot.y0) / 48)))) {
    const ty = Math.round(y(v) * 10) / 10;
    parts.push(`<line x1="${plot.x0}" x2="${plot.x1}" y1="${ty}" y2="${ty}" stroke="${theme.grid}"/>`);
    parts.push(`<text x="${plot.x1 + 6}" y="${ty + 4}" font-size="11" fill="${theme.muted}">${esc(priceLabel(v, step))}</text>`);
  }
  for (const [i, b] of p.bands.entries()) {
    const top = y(b.high);
    const h = Math.max(3, y(b.low) - top);
    // The bars share what the labels leave of the plot, so no label runs into the price axis.
    const room = Math.max(20, plot.x1 - plot.x0 - longest * LABEL_CHAR - 10);
    const w = Math.max(4, (room * b.intensity) / maxI);
    const color = b.side === "above" ? theme.markAbove : theme.markBelow;
    parts.push(
      `<rect x="${plot.x0}" y="${top.toFixed(1)}" width="${w.toFixed(1)}" height="${h.toFixed(1)}" fill="${color}" fill-opacity="0.75"/>`,
    );
    const label = labels[i]!;
    parts.push(
      `<text x="${(plot.x0 + w + 6).toFixed(1)}" y="${(top + h / 2 + 4).toFixed(1)}" font-size="11" fill="${theme.text}">${esc(label)}</text>`,
    );
  }
  if (p.last) {
    const ly = y(p.last.price).toFixed(1);
    parts.push(`<line x1="${plot.x0}" x2="${plot.x1}" y1="${ly}" y2="${ly}" stroke="${theme.muted}" stroke-dasharray="4 3"/>`);
    parts.push(
      `<text x="${plot.x1 - 4}" y="${Number(ly) - 4}" font-size="11" text-anchor="end" fill="${theme.text}">last ${esc(priceLabel(p.last.price, step))}</text>`,
    );
  }
  if (opts.caption) parts.push(`<text x="${plot.x0}" y="${height - 5}" font-size="10" fill="${theme.muted}">${esc(opts.caption)}</text>`);
  return svgDocument(width, height, theme.font, parts.join(""));
}
