// Measures digest time and text size: series of 1,440 / 86,400 / 525,600 points and heatmaps of
// growing size. Run: npx tsx scripts/measure-summary.ts
import { encode } from "gpt-tokenizer";

import { median, quantile, sorted } from "../bench/stats.js";
import { makeHeatmap, randomWalk } from "../harness/summary-inputs.js";
import { digestHeatmap } from "../src/summary/heatmap/heatmap.js";
import { renderHeatmapText } from "../src/summary/heatmap/heatmap-text.js";
import { digestSeries } from "../src/summary/series/series.js";
import { renderSeriesText } from "../src/summary/series/series-text.js";

/** Median and p95 wall time in ms over `runs` runs after `warmup` discarded ones. */
function time(fn: () => unknown, runs: number, warmup = 3): { median: number; p95: number } {
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return { median: median(samples), p95: quantile(sorted(samples), 0.95) };
}

const ms = (x: number) => x.toFixed(x < 10 ? 3 : 1);
const rows: string[][] = [];

for (const n of [1_440, 86_400, 525_600]) {
  const { times, values } = randomWalk(n, 60_000, n);
  const runs = n > 100_000 ? 15 : 50;
  const digest = time(() => digestSeries(times, values, { timeframeMs: 60_000 }), runs);
  const d = digestSeries(times, values, { timeframeMs: 60_000 });
  const meta = { metric: "derivatives/Volume_usd", asset: "btc", unit: "USD", field: "volume_usd", timeframe: "1m" };
  const render = time(() => renderSeriesText(meta, d), runs);
  const tokens = encode(renderSeriesText(meta, d)).length;
  rows.push([
    `series ${n.toLocaleString("en-US")} pts`,
    ms(digest.median),
    ms(digest.p95),
    ms(render.median),
    String(tokens),
    `${(((n / digest.median) * 1000) / 1e6).toFixed(1)} M pts/s`,
  ]);
}

for (const [r, c] of [
  [100, 721],
  [150, 1_441],
  [200, 2_921],
  [500, 2_191],
  [500, 4_500],
] as const) {
  const h = makeHeatmap(r, c, r * c);
  const runs = r * c > 1e6 ? 10 : 30;
  const plain = time(() => digestHeatmap(h), runs);
  const full = time(() => digestHeatmap(h, { includeMatrix: true, topK: 10 }), runs);
  const text = renderHeatmapText({ asset: "btc" }, digestHeatmap(h, { includeMatrix: true, topK: 10 }));
  rows.push([
    `heatmap ${r}×${c.toLocaleString("en-US")} (${((r * c) / 1e6).toFixed(2)}M cells)`,
    ms(plain.median),
    ms(plain.p95),
    ms(full.median),
    String(encode(text).length),
    "tokens with matrix, top 10",
  ]);
}

const header = ["input", "digest ms p50", "digest ms p95", "series: render ms p50 | heatmap: with matrix ms p50", "text tokens", "note"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
console.log(line(header));
for (const row of rows) console.log(line(row));
