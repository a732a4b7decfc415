// PNG pictures rendered in-process: the chart's SVG rasterised by resvg (WebAssembly, so the
// package stays one portable bundle with no per-platform binary) with the bundled Inter subset, so
// a chart looks the same on every machine. Loaded on the first chart only: a server that never
// draws never compiles the 2.5 MB module.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as zlib from "node:zlib";

import { LRUCache } from "lru-cache";

import { paintHeatmap } from "./heatmap-raster.js";
import { heatmapScene, heatmapTexts } from "./heatmap-scene.js";
import { svgDocument } from "./heatmap-svg.js";
import { type ChartView, LIGHT, type SeriesView, type Theme } from "./model/types.js";
import { seriesLine } from "./model/view-data.js";
import { type Canvas, composite } from "./raster.js";
import { seriesSvg } from "./series-svg.js";
import { type Box, packTexts } from "./text-atlas.js";

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
export async function chartPng(view: ChartView, caption = "", theme: Theme = LIGHT): Promise<Uint8Array> {
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
  if (view.kind === "series")
    return encodePng(render(seriesSvg(thinned(view, PNG_LINE_POINTS), { width, height, theme, caption })).pixels, width, height);
  const scene = heatmapScene(view, width, height, theme);
  const canvas: Canvas = { width, height, pixels: scratch("canvas", width * height * 4) };
  paintHeatmap(canvas, view, scene, theme);
  const T = heatmapTexts(view, scene, theme, caption);
  const texts = [...T.title, ...T.price, ...T.time, ...T.last, ...T.labels, ...T.colorBar, ...T.caption];
  // The document's font family is the one style a text's own element does not carry.
  const keyOf = (t: { key: string }) => `${theme.font}\n${t.key}`;
  // Texts not drawn before go to resvg together, packed in one small atlas (each once).
  const runs = new Map<string, TextRun>();
  for (const t of texts) {
    const known = TEXTS.get(keyOf(t));
    if (known) runs.set(keyOf(t), known);
  }
  const fresh = [...new Map(texts.filter((t) => !runs.has(keyOf(t))).map((t) => [keyOf(t), t])).values()];
  if (fresh.length > 0) {
    const atlas = packTexts(fresh, width);
    const layer = render(svgDocument(atlas.width, atlas.height, theme.font, atlas.body));
    atlas.slots.forEach((s, i) => {
      const run = cutOut(layer.pixels, layer.width, s.x, s.y, s.from);
      runs.set(keyOf(fresh[i]!), run);
      TEXTS.set(keyOf(fresh[i]!), run);
    });
  }
  for (const t of texts) {
    const run = runs.get(keyOf(t))!;
    const at = {
      x0: t.extent.x0 + run.dx,
      y0: t.extent.y0 + run.dy,
      x1: t.extent.x0 + run.dx + run.width,
      y1: t.extent.y0 + run.dy + run.height,
    };
    composite(canvas, run.pixels, run.width, 0, 0, at);
  }
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

/** A drawn text: premultiplied RGBA of its inked pixels, offset (dx, dy) from its extent's corner. */
interface TextRun {
  pixels: Uint8Array;
  width: number;
  height: number;
  dx: number;
  dy: number;
}

/**
 * Texts already drawn, by key (content, style, size and position within the extent): shaping text
 * in resvg costs ~0.3 ms a run and was the largest part of a heatmap PNG, while most of a chart's
 * texts (axis ticks, colour bar, title) recur from one chart of an asset to the next. Held to ~2 MB,
 * the least recently used dropped first; hits give exactly the pixels a fresh drawing would.
 */
const TEXTS = new LRUCache<string, TextRun>({ maxSize: 2 * 1024 * 1024, sizeCalculation: (r) => Math.max(1, r.pixels.length) });

/** Forgets the texts drawn so far (tests: a chart drawn with none known). */
export function forgetTexts(): void {
  TEXTS.clear();
}

/** The inked part of the slot at (sx, sy) of a rendered atlas, for the text whose extent is `from`. */
function cutOut(layer: Uint8Array, layerWidth: number, sx: number, sy: number, from: Box): TextRun {
  const w = from.x1 - from.x0;
  const h = from.y1 - from.y0;
  let x0 = w,
    y0 = h,
    x1 = 0,
    y1 = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0, j = ((sy + y) * layerWidth + sx) * 4 + 3; x < w; x++, j += 4) {
      if (layer[j] === 0) continue;
      if (x < x0) x0 = x;
      if (x >= x1) x1 = x + 1;
      if (y < y0) y0 = y;
      y1 = y + 1;
    }
  }
  if (x1 <= x0 || y1 <= y0) return { pixels: new Uint8Array(0), width: 0, height: 0, dx: 0, dy: 0 };
  const width = x1 - x0;
  const height = y1 - y0;
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const start = ((sy + y0 + y) * layerWidth + sx + x0) * 4;
    pixels.set(layer.subarray(start, start + width * 4), y * width * 4);
  }
  return { pixels, width, height, dx: x0, dy: y0 };
}

/** About one point per pixel of the plot: more adds rasterising time and nothing visible. */
const PNG_LINE_POINTS = 700;

function thinned(view: SeriesView, max: number): SeriesView {
  return {
    ...view,
    series: view.series.map((s) => (s.times.length > max ? seriesLine(s.label, s.unit, s.times, s.values, max, s.bars === true) : s)),
  };
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
  // Pixels read as words, one read per pixel, from one array type: a Uint8ClampedArray from resvg and
  // our own Uint8Array canvas would make every access below polymorphic. A buffer not aligned to 4
  // bytes is copied first (never the case for ours).
  const aligned = rgba.byteOffset % 4 === 0 ? rgba : new Uint8Array(rgba);
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, width * height);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    if (y > 0 && upRow(words, y * width, width, raw, at + 1)) {
      raw[at] = 2;
    } else {
      raw[at] = 0;
      noneRow(words, y * width, width, raw, at + 1);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  // memLevel 9 (zlib's largest hash) deflates these pixels ~30 % faster than the default 8 at the
  // same size. A picture that still came out over the size cap (none of ours has) is packed harder.
  let idat = zlib.deflateSync(raw, { level: 2, memLevel: 9 });
  if (idat.length > MAX_IDAT_BYTES) idat = zlib.deflateSync(raw, { level: 9, memLevel: 9 });
  // One buffer for the whole file: signature, IHDR, IDAT, IEND.
  const out = Buffer.allocUnsafe(8 + 25 + 12 + idat.length + 12);
  out.set(SIGNATURE, 0);
  let at = writeChunk(out, 8, "IHDR", header);
  at = writeChunk(out, at, "IDAT", idat);
  writeChunk(out, at, "IEND", new Uint8Array(0));
  return out;
}

/**
 * Writes the pixel row starting at word `row` filtered Up (each byte minus the one above) into `raw`
 * at `at`, when at most 1/16 of its pixels differ from the row above: zeros, then the pixels that
 * differ. False, with the row's bytes left unspecified, when more differ.
 */
function upRow(words: Uint32Array, row: number, width: number, raw: Uint8Array, at: number): boolean {
  raw.fill(0, at, at + width * 3);
  const most = width >> 4;
  let changed = 0;
  for (let x = 0; x < width; x++) {
    const w = words[row + x]!;
    const a = words[row + x - width]!;
    if (((w ^ a) & RGB) === 0) continue;
    if (++changed > most) return false;
    const i = at + x * 3;
    raw[i] = ((w >>> R) - (a >>> R)) & 255;
    raw[i + 1] = ((w >>> G) - (a >>> G)) & 255;
    raw[i + 2] = ((w >>> B) - (a >>> B)) & 255;
  }
  return true;
}

/** Writes the pixel row starting at word `row` unfiltered (R, G, B) into `raw` at `at`. */
function noneRow(words: Uint32Array, row: number, width: number, raw: Uint8Array, at: number): void {
  for (let x = row, i = at, end = row + width; x < end; x++, i += 3) {
    const w = words[x]!;
    raw[i] = (w >>> R) & 255;
    raw[i + 1] = (w >>> G) & 255;
    raw[i + 2] = (w >>> B) & 255;
  }
}

const SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

/** A PNG stays under 150 KB: its pixel data under that less the signature and chunk framing. */
const MAX_IDAT_BYTES = 150 * 1024 - 57;

/** Where R, G and B sit in a pixel read as one 32-bit word, on this machine's byte order. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const [R, G, B] = LITTLE_ENDIAN ? [0, 8, 16] : [24, 16, 8];
const RGB = LITTLE_ENDIAN ? 0x00ffffff : 0xffffff00 | 0;
