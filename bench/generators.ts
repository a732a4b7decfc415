// In-process figures: generator throughput against the range (columnar and record output), and
// heatmap build and digest time against the matrix size. Same code the server runs, no transport.
import { execFile } from "node:child_process";
import { join } from "node:path";

import { buildHeatmap, generateColumns, generateRecords, type SeriesQuery } from "../src/backend/inprocess/readings/index.js";
import { endpointById, heatmapColumns, type Lookback, MAX_RECORDS, type Timeframe } from "../src/catalog/index.js";
import { digestHeatmap, renderHeatmapText } from "../src/summary/index.js";
import { BENCH_DIR, cleanEnv, NOW } from "./proc.js";
import { median, round } from "./stats.js";

const nowMs = Date.parse(NOW);

/**
 * Median time of one call in ms: calls are batched until a batch lasts ≥ minBatchMs (so timer
 * resolution does not matter for the small cases), and the median batch is taken.
 */
function timeIt(fn: () => unknown, batches: number, minBatchMs: number): number {
  fn(); // warm-up: JIT, and the per-asset memos a running server holds
  let perBatch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < perBatch; i++) fn();
    if (performance.now() - t0 >= minBatchMs || perBatch >= 1 << 16) break;
    perBatch *= 2;
  }
  const runs: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < perBatch; i++) fn();
    runs.push((performance.now() - t0) / perBatch);
  }
  return median(runs);
}

/**
 * The in-run floor the generator and heatmap rows are shown against: one pass writing `n` doubles
 * into a typed array, each from a few integer hash steps (what a pure function of (asset, t) must
 * at least do per point). A lower bound for scale, not a target.
 */
export function typedArrayFloor(n: number): Float64Array {
  const out = new Float64Array(n);
  let h = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) + i;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    out[i] = ((h ^ (h >>> 16)) >>> 0) / 4_294_967_296;
  }
  return out;
}

export interface GeneratorFigure {
  range: string;
  output: "columns" | "records";
  points: number;
  ms: number;
  pointsPerSecond: number;
  /** typedArrayFloor(points) in the same process, ms. */
  floorMs: number;
}

/** 1m buckets: a day, a month, the most one response may hold (MAX_RECORDS), a year. */
export const GENERATOR_RANGES: ReadonlyArray<{ range: string; points: number }> = [
  { range: "1 day", points: 1_440 },
  { range: "30 days", points: 30 * 1_440 },
  { range: "69 days (the 100,000-record response cap)", points: MAX_RECORDS },
  { range: "1 year", points: 365 * 1_440 },
];

export function measureGenerators(): GeneratorFigure[] {
  const endpoint = endpointById("derivatives/Volume_usd")!;
  const endMs = Date.parse("2025-12-31T00:00:00Z") - 60_000;
  const out: GeneratorFigure[] = [];
  for (const { range, points: expected } of GENERATOR_RANGES) {
    const q: SeriesQuery = { endpoint, asset: "btc", timeframe: "1m", startMs: endMs + 60_000 - expected * 60_000, endMs };
    const points = generateColumns(q).values.length;
    if (points !== expected) throw new Error(`expected ${expected} points for ${range}, got ${points}`);
    const floorMs = round(timeIt(() => typedArrayFloor(points), 7, 20));
    for (const output of ["columns", "records"] as const) {
      const fn = output === "columns" ? () => generateColumns(q) : () => generateRecords(q);
      const ms = timeIt(fn, points > MAX_RECORDS ? 5 : 7, 40);
      out.push({ range, output, points, ms: round(ms), pointsPerSecond: round((points / ms) * 1000), floorMs });
    }
  }
  return out;
}

export interface HeatmapFigure {
  timeframe: Timeframe;
  lookback: Lookback;
  columns: number;
  rows: number;
  cells: number;
  buildMs: number;
  digestMs: number;
  /** typedArrayFloor(cells) in the same process, ms. */
  floorMs: number;
}

/** Pairs spanning the matrix sizes the service allows (the 4,500-column cap bounds the top). */
export const HEATMAP_PAIRS: ReadonlyArray<{ timeframe: Timeframe; lookback: Lookback }> = [
  { timeframe: "1m", lookback: "12h" },
  { timeframe: "15m", lookback: "7d" },
  { timeframe: "30m", lookback: "30d" },
  { timeframe: "1h", lookback: "180d" },
  { timeframe: "1d", lookback: "6y" },
  { timeframe: "6h", lookback: "2y" },
  { timeframe: "4h", lookback: "2y" },
];

export function measureHeatmaps(): HeatmapFigure[] {
  const out: HeatmapFigure[] = [];
  for (const { timeframe, lookback } of HEATMAP_PAIRS) {
    const query = { asset: "btc", timeframe, lookback, scope: "all" as const, nowMs };
    // The typed heatmap the service hands the tool (its JSON body is written only for REST readers).
    const heatmap = buildHeatmap(query);
    const rows = heatmap.levels.length;
    const columns = heatmap.times.length;
    if (columns !== heatmapColumns(timeframe, lookback)) throw new Error(`heatmap ${timeframe}/${lookback}: ${columns} columns`);
    const buildMs = timeIt(() => buildHeatmap(query), 5, 30);
    // What the tool does with the matrix: the digest and its text.
    const digestMs = timeIt(() => renderHeatmapText({ asset: "btc", timeframe, lookback }, digestHeatmap(heatmap)), 7, 20);
    const floorMs = timeIt(() => typedArrayFloor(columns * rows), 7, 20);
    out.push({
      timeframe,
      lookback,
      columns,
      rows,
      cells: columns * rows,
      buildMs: round(buildMs),
      digestMs: round(digestMs),
      floorMs: round(floorMs),
    });
  }
  return out.sort((a, b) => a.cells - b.cells);
}

export interface InProcessFigures {
  generators: GeneratorFigure[];
  heatmaps: HeatmapFigure[];
}

/** The heap-growth bounds the stdio and http servers set at start (src/cli.ts), so the GC behaves alike. */
export const SERVER_V8_FLAGS = ["--semi-space-growth-factor=1", "--heap-growing-percent=50"];

/** Both measurements in a child process of their own (see generators-child.ts), with the server's V8 flags. */
export function measureInChild(): Promise<InProcessFigures> {
  return new Promise((resolve, reject) => {
    const args = [...SERVER_V8_FLAGS, "--import", "tsx", join(BENCH_DIR, "generators-child.ts")];
    execFile(process.execPath, args, { maxBuffer: 1 << 20, env: cleanEnv() }, (err, stdout, stderr) => {
      if (err) reject(new Error(`generator measurements failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as InProcessFigures);
    });
  });
}
