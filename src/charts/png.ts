// PNG pictures rendered in-process: the chart's SVG rasterised by resvg (WebAssembly, so the
// package stays one portable bundle with no per-platform binary) with the bundled Inter subset, so
// a chart looks the same on every machine. Loaded on the first chart only: a server that never
// draws never compiles the 2.5 MB module.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { deflateSync } from "node:zlib";
import { colorPosition, VIRIDIS } from "./colormap.js";
import { heatmapLayout, heatmapSvg } from "./heatmap-svg.js";
import { seriesSvg } from "./series-svg.js";
import { decodeCells, LIGHT, type ChartView, type HeatmapView, type SeriesView, type Theme } from "./types.js";
import { seriesLine } from "./view-data.js";

export const PNG_WIDTH = 800;
export const PNG_HEIGHT = 500;

type ResvgModule = typeof import("@resvg/resvg-wasm");
let loading: Promise<{ mod: ResvgModule; fonts: Uint8Array[] }> | undefined;

/** dist/ holds the wasm and fonts beside the bundle; from sources they come from node_modules and assets/. */
function asset(name: string, fallback: () => string): Uint8Array {
  for (const rel of [`./${name}`, `../${name}`, `../../assets/fonts/${name}`]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) return readFileSync(url);
  }
  return readFileSync(fallback());
}

function load(): Promise<{ mod: ResvgModule; fonts: Uint8Array[] }> {
  loading ??= (async () => {
    const mod = await import("@resvg/resvg-wasm");
    const wasm = asset("resvg.wasm", () => createRequire(import.meta.url).resolve("@resvg/resvg-wasm/index_bg.wasm"));
    await mod.initWasm(wasm);
    const fonts = ["Inter-Regular-subset.otf", "Inter-SemiBold-subset.otf"].map((f) =>
      asset(f, () => {
        throw new Error(`font ${f} is missing from the package`);
      }),
    );
    return { mod, fonts };
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/**
 * PNG bytes of the chart, 800 × 500. A heatmap's matrix is painted here, nearest-neighbour into the
 * plot, and resvg draws only what lies over it (candles, axes, labels) on a transparent canvas
 * composited on top: resvg resampling an embedded image was most of a heatmap chart's time.
 */
export async function chartPng(view: ChartView, theme: Theme = LIGHT): Promise<Uint8Array> {
  const { mod, fonts } = await load();
  const width = PNG_WIDTH;
  const height = PNG_HEIGHT;
  const svg = view.kind === "series" ? seriesSvg(thinned(view, PNG_LINE_POINTS), { width, height, theme }) : heatmapSvg(view, { width, height, theme, imageHref: null });
  const resvg = new mod.Resvg(svg, { font: { fontBuffers: fonts, defaultFontFamily: "Inter", sansSerifFamily: "Inter" } });
  try {
    const rendered = resvg.render();
    try {
      const overlay = rendered.pixels;
      if (view.kind === "series") return encodePng(overlay, width, height);
      const base = heatmapBase(view, width, height, theme);
      // resvg's pixels are premultiplied: out = overlay + base × (1 − alpha); most are transparent.
      for (let i = 0; i < base.length; i += 4) {
        const a = overlay[i + 3]!;
        if (a === 0) continue;
        const keep = 255 - a;
        base[i] = overlay[i]! + ((base[i]! * keep) >> 8);
        base[i + 1] = overlay[i + 1]! + ((base[i + 1]! * keep) >> 8);
        base[i + 2] = overlay[i + 2]! + ((base[i + 2]! * keep) >> 8);
      }
      return encodePng(base, width, height);
    } finally {
      rendered.free();
    }
  } finally {
    resvg.free();
  }
}

/** About one point per pixel of the plot: more adds rasterising time and nothing visible. */
const PNG_LINE_POINTS = 700;

function thinned(view: SeriesView, max: number): SeriesView {
  return { ...view, series: view.series.map((s) => (s.times.length > max ? seriesLine(s.label, s.unit, s.times, s.values, max) : s)) };
}

/** The background and the matrix in the plot area, as the SVG image would place it (row 0 at the bottom). */
function heatmapBase(view: HeatmapView, width: number, height: number, theme: Theme): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  const bg = hexRgb(theme.background);
  // Little-endian RGBA as one 32-bit word per pixel.
  new Uint32Array(out.buffer).fill((255 << 24) | (bg[2] << 16) | (bg[1] << 8) | bg[0]);
  const cells = decodeCells(view, (b64) => Buffer.from(b64, "base64"));
  const { x0, y0, x1, y1 } = heatmapLayout(view, width, height).plot;
  const pw = x1 - x0;
  const ph = y1 - y0;
  const colOf = new Int32Array(pw);
  for (let x = 0; x < pw; x++) colOf[x] = Math.min(view.cols - 1, Math.floor(((x + 0.5) / pw) * view.cols));
  // Each cell's colour as one little-endian RGBA word, then one store per pixel.
  const cols = view.cols;
  const rows = view.rows;
  const colour = new Uint32Array(rows * cols);
  for (let k = 0; k < colour.length; k++) {
    const c = Math.round(colorPosition(cells[k]!, view.zMax) * 255) * 3;
    colour[k] = ((255 << 24) | (VIRIDIS[c + 2]! << 16) | (VIRIDIS[c + 1]! << 8) | VIRIDIS[c]!) >>> 0;
  }
  const words = new Uint32Array(out.buffer);
  for (let y = 0; y < ph; y++) {
    const rowBase = Math.min(rows - 1, Math.floor(((ph - y - 0.5) / ph) * rows)) * cols;
    const o = (y0 + y) * width + x0;
    for (let x = 0; x < pw; x++) words[o + x] = colour[rowBase + colOf[x]!]!;
  }
  return out;
}

function hexRgb(color: string): [number, number, number] {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (!m) return [255, 255, 255];
  const n = parseInt(m[1]!, 16);
  return [n >> 16, (n >> 8) & 255, n & 255];
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * PNG of 8-bit RGBA pixels, filter None, zlib level 2. Measured on our charts: smaller and two to
 * five times faster than RGB with the Sub filter (a chart's long runs of one colour need no
 * filter), a heatmap 65–115 KB, a series 45–50 KB, in 3–5 ms.
 */
export function encodePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 2 })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}
