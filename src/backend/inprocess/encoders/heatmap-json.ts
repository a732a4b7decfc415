// The heatmap endpoint's JSON body written from the typed heatmap: as objects for a reader of the
// body, or straight to the bytes JSON.stringify gives for those objects (the REST face's), without
// building a number array per level or an object per candle first.
import { type Heatmap, heatmapHeading } from "../../../catalog/responses.js";
import type { TypedHeatmap } from "../../types.js";
import { isoTimes } from "./time-format.js";

/** The column times as ISO strings, and the candles' and ratio's (the same array when they share the times). */
function dates(h: TypedHeatmap): { x: string[]; df: string[]; lsr: string[] } {
  const x = isoTimes(h.times);
  return {
    x,
    df: h.candles.times === h.times ? x : isoTimes(h.candles.times),
    lsr: h.lsr.times === h.times ? x : isoTimes(h.lsr.times),
  };
}

/** Row i of the matrix, a view on the cells (no copy). */
function row(h: TypedHeatmap, i: number): Float64Array {
  const cols = h.times.length;
  return h.cells.subarray(i * cols, (i + 1) * cols);
}

export function heatmapBody(h: TypedHeatmap): Heatmap {
  const d = dates(h);
  const c = h.candles;
  return {
    ...heatmapHeading(h),
    x: d.x,
    y: Array.from(h.levels),
    z: Array.from({ length: h.levels.length }, (_, i) => Array.from(row(h, i))),
    df: d.df.map((date, k) => ({ date, open: c.open[k]!, high: c.high[k]!, low: c.low[k]!, close: c.close[k]! })),
    topTraderLsr: d.lsr.map((date, k) => ({ date, value: h.lsr.values[k]! })),
  };
}

/** A number as JSON.stringify writes it (non-finite values become null). */
function num(x: number): string {
  return Number.isFinite(x) ? String(x) : "null";
}

/** Numbers as a JSON array's inside: `1,2,3`. */
function numbers(values: Float64Array): string {
  const parts: string[] = new Array(values.length);
  for (let k = 0; k < values.length; k++) parts[k] = num(values[k]!);
  return parts.join(",");
}

/** The bytes of JSON.stringify(heatmapBody(h)). */
export function heatmapJson(h: TypedHeatmap): Buffer {
  const d = dates(h);
  const c = h.candles;
  const s = JSON.stringify;
  // ISO times hold no character JSON escapes: they go between quotes as they are.
  const z: string[] = new Array(h.levels.length);
  for (let i = 0; i < z.length; i++) z[i] = `[${numbers(row(h, i))}]`;
  const df: string[] = new Array(d.df.length);
  for (let k = 0; k < df.length; k++) {
    df[k] =
      `{"date":"${d.df[k]!}","open":${num(c.open[k]!)},"high":${num(c.high[k]!)},"low":${num(c.low[k]!)},"close":${num(c.close[k]!)}}`;
  }
  const lsr: string[] = new Array(d.lsr.length);
  for (let k = 0; k < lsr.length; k++) lsr[k] = `{"date":"${d.lsr[k]!}","value":${num(h.lsr.values[k]!)}}`;
  const head =
    `{"asset":${s(h.asset)},"timeframe":${s(h.timeframe)},"lookback":${s(h.lookback)},"scope":${s(h.scope)},"exchange":${s(h.exchange)},` +
    `"version":${s(h.version)},"priceSource":${s(h.priceSource)}`;
  const x = d.x.length === 0 ? "" : `"${d.x.join('","')}"`;
  return Buffer.from(
    `${head},"x":[${x}],"y":[${numbers(h.levels)}],"z":[${z.join(",")}],"df":[${df.join(",")}],"topTraderLsr":[${lsr.join(",")}]}`,
  );
}
