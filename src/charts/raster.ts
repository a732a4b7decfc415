// Painting a chart's flat shapes straight into RGBA pixels: axis-aligned rectangles (filled,
// outlined, rounded) anti-aliased by the exact share of each pixel they cover, which is what a
// vector rasteriser gives such shapes, at a fraction of the cost of sending them through one.
import type { Box } from "./text-atlas.js";

export type Rgb = readonly [number, number, number];

export interface Canvas {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, opaque. */
  pixels: Uint8Array;
}

export function hexRgb(color: string): Rgb {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (!m) return [255, 255, 255];
  const n = parseInt(m[1]!, 16);
  return [n >> 16, (n >> 8) & 255, n & 255];
}

/** How much of the pixel span [p, p + 1) lies inside [a, b). */
function overlap(a: number, b: number, p: number): number {
  return Math.max(0, Math.min(b, p + 1) - Math.max(a, p));
}

function blend(c: Canvas, x: number, y: number, color: Rgb, alpha: number): void {
  const i = (y * c.width + x) * 4;
  const px = c.pixels;
  const keep = 1 - alpha;
  px[i] = Math.round(px[i]! * keep + color[0] * alpha);
  px[i + 1] = Math.round(px[i + 1]! * keep + color[1] * alpha);
  px[i + 2] = Math.round(px[i + 2]! * keep + color[2] * alpha);
}

/** Fills the box at `opacity`; `radius` rounds its corners. */
export function fillBox(c: Canvas, b: Box, color: Rgb, opacity = 1, radius = 0): void {
  const xs = Math.max(0, Math.floor(b.x0));
  const xe = Math.min(c.width, Math.ceil(b.x1));
  const ys = Math.max(0, Math.floor(b.y0));
  const ye = Math.min(c.height, Math.ceil(b.y1));
  for (let y = ys; y < ye; y++) {
    const cy = overlap(b.y0, b.y1, y);
    for (let x = xs; x < xe; x++) {
      let a = cy * overlap(b.x0, b.x1, x) * opacity;
      if (radius > 0) a *= cornerCoverage(b, radius, x + 0.5, y + 0.5);
      if (a > 0) blend(c, x, y, color, Math.min(1, a));
    }
  }
}

/** Share of a pixel centred at (px, py) inside the box's rounded corner (1 away from the corners). */
function cornerCoverage(b: Box, radius: number, px: number, py: number): number {
  const cx = px < b.x0 + radius ? b.x0 + radius : px > b.x1 - radius ? b.x1 - radius : px;
  const cy = py < b.y0 + radius ? b.y0 + radius : py > b.y1 - radius ? b.y1 - radius : py;
  if (cx === px || cy === py) return 1;
  const d = Math.hypot(px - cx, py - cy);
  return Math.max(0, Math.min(1, radius - d + 0.5));
}

/** Outlines the box with a stroke of `width` centred on its edges (as SVG strokes a rect). */
export function strokeBox(c: Canvas, b: Box, color: Rgb, width: number): void {
  const h = width / 2;
  const outer = { x0: b.x0 - h, y0: b.y0 - h, x1: b.x1 + h, y1: b.y1 + h };
  const inner = { x0: b.x0 + h, y0: b.y0 + h, x1: b.x1 - h, y1: b.y1 - h };
  const hollow = inner.x1 > inner.x0 && inner.y1 > inner.y0;
  const xs = Math.max(0, Math.floor(outer.x0));
  const xe = Math.min(c.width, Math.ceil(outer.x1));
  const ys = Math.max(0, Math.floor(outer.y0));
  const ye = Math.min(c.height, Math.ceil(outer.y1));
  for (let y = ys; y < ye; y++) {
    for (let x = xs; x < xe; x++) {
      let a = overlap(outer.x0, outer.x1, x) * overlap(outer.y0, outer.y1, y);
      if (hollow) a -= overlap(inner.x0, inner.x1, x) * overlap(inner.y0, inner.y1, y);
      if (a > 0) blend(c, x, y, color, Math.min(1, a));
    }
  }
}

/** A 1-px horizontal line from x0 to x1 centred on y, dashed `[on, off]` from x0 when given. */
export function hLine(c: Canvas, x0: number, x1: number, y: number, color: Rgb, opacity = 1, dash?: readonly [number, number]): void {
  const step = dash ? dash[0] + dash[1] : x1 - x0;
  const on = dash ? dash[0] : x1 - x0;
  for (let s = x0; s < x1; s += step) fillBox(c, { x0: s, y0: y - 0.5, x1: Math.min(x1, s + on), y1: y + 0.5 }, color, opacity);
}

/** A 1-px vertical line from y0 to y1 centred on x. */
export function vLine(c: Canvas, x: number, y0: number, y1: number, color: Rgb): void {
  fillBox(c, { x0: x - 0.5, y0, x1: x + 0.5, y1 }, color);
}

/**
 * A vertical gradient through evenly spaced colour stops (first at the top), interpolated in sRGB
 * per pixel row as SVG's linearGradient is.
 */
export function gradientBox(c: Canvas, b: Box, stops: readonly Rgb[]): void {
  const n = stops.length - 1;
  for (let y = Math.max(0, Math.floor(b.y0)); y < Math.min(c.height, Math.ceil(b.y1)); y++) {
    const t = Math.max(0, Math.min(1, (y + 0.5 - b.y0) / (b.y1 - b.y0))) * n;
    const k = Math.min(n - 1, Math.floor(t));
    const f = t - k;
    const s0 = stops[k]!;
    const s1 = stops[k + 1]!;
    const color: Rgb = [s0[0] + (s1[0] - s0[0]) * f, s0[1] + (s1[1] - s0[1]) * f, s0[2] + (s1[2] - s0[2]) * f];
    fillBox(c, { x0: b.x0, y0: Math.max(b.y0, y), x1: b.x1, y1: Math.min(b.y1, y + 1) }, color);
  }
}

/**
 * Lays the `from`-sized region of resvg's premultiplied RGBA layer (`layerWidth` wide) at (lx, ly)
 * over the canvas at `from`: out = layer + canvas × (1 − alpha).
 */
export function composite(c: Canvas, layer: Uint8Array, layerWidth: number, lx: number, ly: number, from: Box): void {
  const base = c.pixels;
  const x0 = Math.max(0, from.x0);
  const x1 = Math.min(c.width, from.x1);
  const y0 = Math.max(0, from.y0);
  const y1 = Math.min(c.height, from.y1);
  for (let y = y0; y < y1; y++) {
    let j = ((ly + y - from.y0) * layerWidth + lx + x0 - from.x0) * 4;
    const end = (y * c.width + x1) * 4;
    for (let i = (y * c.width + x0) * 4; i < end; i += 4, j += 4) {
      const a = layer[j + 3]!;
      if (a === 0) continue;
      const keep = 255 - a;
      base[i] = layer[j]! + (((base[i]! * keep + 127) / 255) | 0);
      base[i + 1] = layer[j + 1]! + (((base[i + 1]! * keep + 127) / 255) | 0);
      base[i + 2] = layer[j + 2]! + (((base[i + 2]! * keep + 127) / 255) | 0);
    }
  }
}
