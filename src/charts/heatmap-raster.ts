// The heatmap PNG's pixels beneath the text: background, the matrix nearest-neighbour into the
// plot, then the scene's candles, ticks, last-price line, cluster marks and colour bar. Only the
// text is left to resvg.
import { colorPosition, rampRgb, VIRIDIS } from "./colormap.js";
import { HEATMAP_CANDLE_DOWN, HEATMAP_CANDLE_UP, type HeatmapScene, LABEL_OPACITY, LAST_DASH, LAST_OPACITY } from "./heatmap-scene.js";
import type { HeatmapView, Theme } from "./model/types.js";
import { quantizedCells } from "./model/view-data.js";
import { type Canvas, fillBox, gradientBox, hexRgb, hLine, type Rgb, strokeBox, vLine } from "./raster.js";

export function paintHeatmap(c: Canvas, view: HeatmapView, S: HeatmapScene, theme: Theme): void {
  paintMatrix(c, view, S, theme);
  const { plot, colorBar } = S.layout;
  const up = hexRgb(HEATMAP_CANDLE_UP);
  const down = hexRgb(HEATMAP_CANDLE_DOWN);
  for (const k of S.candles) {
    fillBox(c, k.wick, k.up ? up : down);
    fillBox(c, k.body, k.up ? up : down);
  }
  const muted = hexRgb(theme.muted);
  for (const t of S.priceTicks) hLine(c, plot.x1, plot.x1 + 4, t.y, muted);
  for (const t of S.timeTicks) vLine(c, t.x, plot.y1, plot.y1 + 4, muted);
  if (S.last) {
    const last = hexRgb(theme.last);
    hLine(c, plot.x0, plot.x1, S.last.y, last, LAST_OPACITY, LAST_DASH);
    fillBox(c, S.last.tag, last, 1, 3);
  }
  for (const m of S.marks) strokeBox(c, m.box, hexRgb(m.color), 1.5);
  for (const l of S.labels) fillBox(c, l.box, [0, 0, 0], LABEL_OPACITY, 3);
  // The stops the SVG's colour bar gives its gradient (cssColor of the same positions).
  const stops: Rgb[] = Array.from({ length: 11 }, (_, i) => rampRgb(1 - i / 10));
  gradientBox(c, { x0: colorBar.x, y0: colorBar.y0, x1: colorBar.x + colorBar.w, y1: colorBar.y1 }, stops);
  for (const t of S.colorTicks) hLine(c, colorBar.x + colorBar.w, colorBar.x + colorBar.w + 3, t.y, muted);
}

/**
 * Colour index (0–255) of each 16-bit cell value q: colorPosition(q / 65535 × zMax, zMax) does
 * not depend on zMax, so one table serves every chart. Built on the first heatmap chart.
 */
let rampOfQ: Uint8Array | undefined;

function rampIndexOfQ(): Uint8Array {
  if (!rampOfQ) {
    rampOfQ = new Uint8Array(65536);
    for (let q = 0; q < 65536; q++) rampOfQ[q] = Math.round(colorPosition(q / 65535, 1) * 255);
  }
  return rampOfQ;
}

/** The background and the matrix in the plot area, as the SVG image would place it (row 0 at the bottom). */
function paintMatrix(c: Canvas, view: HeatmapView, S: HeatmapScene, theme: Theme): void {
  const { width } = c;
  const words = new Uint32Array(c.pixels.buffer, c.pixels.byteOffset, c.width * c.height);
  const bg = hexRgb(theme.background);
  // Little-endian RGBA as one 32-bit word per pixel.
  words.fill(((255 << 24) | (bg[2] << 16) | (bg[1] << 8) | bg[0]) >>> 0);
  const { x0, y0, x1, y1 } = S.layout.plot;
  const pw = x1 - x0;
  const ph = y1 - y0;
  const { rows, cols } = view;
  const n = rows * cols;
  const bytes = quantizedCells(view);
  if (bytes.length < n * 2) throw new Error(`matrix data holds ${Math.floor(bytes.length / 2)} cells, ${n} expected`);
  const colOf = new Int32Array(pw);
  for (let x = 0; x < pw; x++) colOf[x] = Math.min(cols - 1, Math.floor(((x + 0.5) / pw) * cols));
  // Each ramp entry as one word, each cell's colour through it, then one store per pixel.
  const ramp = new Uint32Array(256);
  for (let i = 0; i < 256; i++) ramp[i] = ((255 << 24) | (VIRIDIS[i * 3 + 2]! << 16) | (VIRIDIS[i * 3 + 1]! << 8) | VIRIDIS[i * 3]!) >>> 0;
  const index = rampIndexOfQ();
  const colour = new Uint32Array(n);
  for (let k = 0; k < n; k++) colour[k] = ramp[index[bytes[2 * k]! | (bytes[2 * k + 1]! << 8)]!]!;
  let prevRow = -1;
  for (let y = 0; y < ph; y++) {
    const row = Math.min(rows - 1, Math.floor(((ph - y - 0.5) / ph) * rows));
    const o = (y0 + y) * width + x0;
    // Pixel rows within one band are the same: copy the one above.
    if (row === prevRow) {
      words.copyWithin(o, o - width, o - width + pw);
      continue;
    }
    prevRow = row;
    const rowBase = row * cols;
    for (let x = 0; x < pw; x++) words[o + x] = colour[rowBase + colOf[x]!]!;
  }
}
