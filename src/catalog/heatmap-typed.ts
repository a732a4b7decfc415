// A heatmap's JSON body turned into typed arrays once: dates parsed to epoch ms, the matrix into one
// row-major Float64Array. The HTTP backend does it at its boundary; digests and views accept a JSON
// body (a fixture, another backend) through it too, so every reader sees one form.
import { type Heatmap, heatmapHeading, type TypedHeatmap } from "./responses.js";

/** A cell as an intensity: null, NaN, negatives and infinities count as nothing. */
function intensity(x: number | null | undefined): number {
  return typeof x === "number" && x > 0 && x !== Infinity ? x : 0;
}

function isTypedHeatmap(h: Heatmap | TypedHeatmap): h is TypedHeatmap {
  return (h as TypedHeatmap).cells instanceof Float64Array;
}

/** The typed form of a heatmap, converting a JSON body (an already typed one is returned as is). */
export function typedHeatmap(h: Heatmap | TypedHeatmap): TypedHeatmap {
  if (isTypedHeatmap(h)) return h;
  // Rows beyond either axis carry no price or no cells: the matrix is the part both describe.
  const rows = Math.min(h.y.length, h.z.length);
  const cols = h.x.length;
  const times = new Float64Array(cols);
  let undated = false;
  for (let j = 0; j < cols; j++) {
    times[j] = Date.parse(h.x[j]!);
    if (Number.isNaN(times[j])) undated = true;
  }
  const cells = cellMatrix(rows * cols);
  for (let i = 0; i < rows; i++) {
    const row = h.z[i];
    if (!row) continue;
    const width = Math.min(cols, row.length);
    const base = i * cols;
    for (let j = 0; j < width; j++) cells[base + j] = intensity(row[j]);
  }
  const n = h.df.length;
  const candles = {
    times: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
  };
  for (let k = 0; k < n; k++) {
    const c = h.df[k]!;
    candles.times[k] = Date.parse(c.date);
    candles.open[k] = c.open;
    candles.high[k] = c.high;
    candles.low[k] = c.low;
    candles.close[k] = c.close;
  }
  const m = h.topTraderLsr.length;
  const lsr = { times: new Float64Array(m), values: new Float64Array(m) };
  for (let k = 0; k < m; k++) {
    lsr.times[k] = Date.parse(h.topTraderLsr[k]!.date);
    lsr.values[k] = h.topTraderLsr[k]!.value;
  }
  return {
    ...heatmapHeading(h),
    times,
    ...(undated && { labels: h.x.slice() }),
    levels: Float64Array.from(h.y.slice(0, rows)),
    cells,
    candles,
    lsr,
  };
}

/**
 * The matrix memory last given back by releaseCells, lent to the next heatmap instead of a new one.
 * A heatmap's matrix is its one large buffer (3.7 MB at 6h over 2 years). Freed and allocated anew
 * on every call, such blocks stayed resident: once one is freed, glibc raises its mmap threshold
 * past that size and serves the next ones from a heap it does not give back (`npm run bench`, peak
 * RSS of the stdio tool run: 122 MB, 113 MB with the buffer lent again). Lending it costs a fill;
 * the process holds at most one spare.
 */
let spare: ArrayBuffer | undefined;
/** Buffers this module lent: a matrix over one may be a prefix view of it, and still own all of it. */
const LENT = new WeakSet<ArrayBuffer>();

/** A zeroed matrix of `length` cells, on the spare buffer when it is large enough. */
export function cellMatrix(length: number): Float64Array {
  if (spare === undefined || spare.byteLength < length * Float64Array.BYTES_PER_ELEMENT) return new Float64Array(length);
  const cells = new Float64Array(spare, 0, length).fill(0);
  spare = undefined;
  return cells;
}

/**
 * Takes a heatmap's matrix back once its reader is done with it: `cells` is empty afterwards (its
 * buffer is moved, not copied, so that no view of it can read the next heatmap's cells), and the
 * memory is lent to the next matrix (cellMatrix), or freed when the spare is larger. Only for a
 * matrix that owns its whole buffer, as every backend's does (each fetch hands its caller its own,
 * from cellMatrix or whole); a view into a buffer shared with anything else is left alone.
 */
export function releaseCells(h: TypedHeatmap): void {
  const { buffer, byteOffset, byteLength } = h.cells;
  if (!(buffer instanceof ArrayBuffer) || byteOffset !== 0 || byteLength === 0) return;
  if (byteLength !== buffer.byteLength && !LENT.has(buffer)) return;
  const moved = structuredClone(buffer, { transfer: [buffer] });
  if (spare === undefined || moved.byteLength > spare.byteLength) {
    LENT.add(moved);
    spare = moved;
  }
}

/**
 * Indices of the points whose time and values are all finite, ordered by time; the order is
 * stable (ties keep theirs), and points already in order (the service's) are not sorted at all.
 */
export function byTime(times: Float64Array, values: readonly Float64Array[]): number[] {
  const out: number[] = [];
  let sorted = true;
  points: for (let k = 0; k < times.length; k++) {
    if (!Number.isFinite(times[k]!)) continue;
    for (const v of values) if (!Number.isFinite(v[k]!)) continue points;
    if (out.length > 0 && times[k]! < times[out[out.length - 1]!]!) sorted = false;
    out.push(k);
  }
  return sorted ? out : out.sort((a, b) => times[a]! - times[b]!);
}
