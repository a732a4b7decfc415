// PNG pictures rendered in-process: the chart's SVG rasterised by resvg (WebAssembly, so the
// package stays one portable bundle with no per-platform binary) with the bundled Inter subset, so
// a chart looks the same on every machine. Loaded on the first chart only: a server that never
// draws never compiles the 2.5 MB module.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as zlib from "node:zlib";
import { paintHeatmap } from "./heatmap-raster.js";
import { heatmapScene, heatmapTexts } from "./heatmap-scene.js";
import { svgDocument } from "./heatmap-svg.js";
import { composite, type Canvas } from "./raster.js";
import { packTexts } from "./text-atlas.js";
import { seriesSvg } from "./series-svg.js";
import { LIGHT, type ChartView, type SeriesView, type Theme } from "./types.js";
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
 * PNG bytes of the chart, 800 × 500. For a heatmap, everything but the text (the matrix, candles,
 * ticks, marks, colour bar) is painted here straight into the pixels, and resvg draws only the
 * text on a transparent layer composited on top: rasterising the shapes through resvg was about
 * half of a heatmap chart's time. A series chart goes through resvg whole (its lines need a real
 * stroker).
 */
export async function chartPng(view: ChartView, theme: Theme = LIGHT): Promise<Uint8Array> {
  const { mod, fonts } = await load();
  const width = PNG_WIDTH;
  const height = PNG_HEIGHT;
  const render = (svg: string): { pixels: Uint8Array; width: number } => {
    const resvg = new mod.Resvg(svg, { font: { fontBuffers: fonts, defaultFontFamily: "Inter", sansSerifFamily: "Inter" } });
    try {
      const rendered = resvg.render();
      try {
        return { pixels: rendered.pixels, width: rendered.width };
      } finally {
        rendered.free();
      }
    } finally {
      resvg.free();
    }
  };
  if (view.kind === "series") return encodePng(render(seriesSvg(thinned(view, PNG_LINE_POINTS), { width, height, theme })).pixels, width, height);
  const scene = heatmapScene(view, width, height, theme);
  const canvas: Canvas = { width, height, pixels: scratch("canvas", width * height * 4) };
  paintHeatmap(canvas, view, scene, theme);
  const T = heatmapTexts(view, scene, theme);
  const atlas = packTexts([...T.title, ...T.price, ...T.time, ...T.last, ...T.labels, ...T.colorBar], width);
  const layer = render(svgDocument(atlas.width, atlas.height, theme.font, atlas.body));
  for (const s of atlas.slots) composite(canvas, layer.pixels, layer.width, s.x, s.y, s.from);
  return encodePng(canvas.pixels, width, height);
}

/**
 * Working buffers kept for the next chart: a chart needs 3 MB of them, and allocating that afresh
 * each time made the garbage collector run full collections far more often. Safe to share because
 * a chart is drawn and encoded synchronously, and nothing returned points into them.
 */
const SCRATCH = new Map<string, Uint8Array>();

function scratch(name: string, bytes: number): Uint8Array {
  let b = SCRATCH.get(name);
  if (b?.length !== bytes) SCRATCH.set(name, (b = new Uint8Array(bytes)));
  return b;
}

/** About one point per pixel of the plot: more adds rasterising time and nothing visible. */
const PNG_LINE_POINTS = 700;

function thinned(view: SeriesView, max: number): SeriesView {
  return { ...view, series: view.series.map((s) => (s.times.length > max ? seriesLine(s.label, s.unit, s.times, s.values, max) : s)) };
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

/** zlib's own CRC-32 where Node has it (20.15+), a table-driven one elsewhere. */
const crc32: (bytes: Uint8Array) => number =
  typeof zlib.crc32 === "function"
    ? (bytes) => zlib.crc32(bytes)
    : (bytes) => {
        let c = -1;
        for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
        return (c ^ -1) >>> 0;
      };

/** Writes one chunk (length, type, data, CRC) into `out` at `at`; returns where the next one goes. */
function writeChunk(out: Buffer, at: number, type: string, data: Uint8Array): number {
  out.writeUInt32BE(data.length, at);
  out.write(type, at + 4, "latin1");
  out.set(data, at + 8);
  out.writeUInt32BE(crc32(out.subarray(at + 4, at + 8 + data.length)), at + 8 + data.length);
  return at + 12 + data.length;
}

/**
 * PNG of 8-bit RGB from opaque RGBA pixels (alpha is dropped: our charts are opaque, and RGB is a
 * quarter less to compress), zlib level 2, each row filtered Up when at most 1/16 of its pixels
 * differ from the row above (a series chart's background, a heatmap band's repeated pixel rows:
 * runs of zeros) and None otherwise (a row starting a new heatmap band, where Up only adds noise).
 * Measured on our charts against RGBA with filter None: the same heatmap size (~100 KB), series
 * 10–25 % smaller (33–37 KB), deflate 20–60 % faster.
 */
export function encodePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const stride = width * 3;
  const raw = scratch("filtered", (stride + 1) * height);
  // Pixels as words to compare rows cheaply (RGB only: the mask drops alpha, little-endian).
  const words = rgba.byteOffset % 4 === 0 ? new Uint32Array(rgba.buffer, rgba.byteOffset, width * height) : null;
  for (let y = 0; y < height; y++) {
    const o = y * (stride + 1) + 1;
    const p = y * width * 4;
    let up = false;
    if (y > 0) {
      let changed = 0;
      if (words) {
        for (let x = y * width, end = x + width; x < end; x++) if (((words[x]! ^ words[x - width]!) & 0xffffff) !== 0) changed++;
      } else {
        for (let x = p; x < p + width * 4; x += 4) if (rgba[x] !== rgba[x - width * 4] || rgba[x + 1] !== rgba[x + 1 - width * 4] || rgba[x + 2] !== rgba[x + 2 - width * 4]) changed++;
      }
      up = changed * 16 <= width;
    }
    raw[o - 1] = up ? 2 : 0;
    if (up) {
      // Up: each byte minus the one above it.
      const q = p - width * 4;
      for (let x = 0, i = o; x < width * 4; x += 4, i += 3) {
        raw[i] = (rgba[p + x]! - rgba[q + x]!) & 255;
        raw[i + 1] = (rgba[p + x + 1]! - rgba[q + x + 1]!) & 255;
        raw[i + 2] = (rgba[p + x + 2]! - rgba[q + x + 2]!) & 255;
      }
    } else {
      for (let x = 0, i = o; x < width * 4; x += 4, i += 3) {
        raw[i] = rgba[p + x]!;
        raw[i + 1] = rgba[p + x + 1]!;
        raw[i + 2] = rgba[p + x + 2]!;
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const idat = zlib.deflateSync(raw, { level: 2 });
  // One buffer for the whole file: signature, IHDR, IDAT, IEND.
  const out = Buffer.allocUnsafe(8 + 25 + 12 + idat.length + 12);
  out.set(SIGNATURE, 0);
  let at = writeChunk(out, 8, "IHDR", header);
  at = writeChunk(out, at, "IDAT", idat);
  writeChunk(out, at, "IEND", new Uint8Array(0));
  return out;
}

const SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
