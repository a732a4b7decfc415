// Timings of the data generators (median of several runs): `npx tsx scripts/measure-data.ts`.
import { median } from "../bench/stats.js";
import {
  buildHeatmap,
  generateColumns,
  generateRecords,
  type HeatmapQuery,
  type SeriesQuery,
} from "../src/backend/inprocess/readings/index.js";
import { endpointById } from "../src/catalog/index.js";

const RUNS = Number(process.env.RUNS ?? 7);

function time(label: string, points: number, fn: () => unknown): void {
  fn(); // warm-up: JIT and the per-asset memos
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  const ms = median(runs);
  const rate = points > 0 ? `${(((points / ms) * 1000) / 1e6).toFixed(2)}M points/s` : "";
  process.stdout.write(`${label.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms  ${rate}\n`);
}

const year: SeriesQuery = {
  endpoint: endpointById("derivatives/Volume_usd")!,
  asset: "btc",
  timeframe: "1m",
  startMs: Date.parse("2025-01-01T00:00:00Z"),
  endMs: Date.parse("2025-12-31T23:59:00Z"),
};
const nowMs = Date.parse("2025-12-31T12:00:00Z");

process.stdout.write(`median of ${RUNS} runs (after one warm-up)\n`);
time("volume_usd 1m × 1 year, generateColumns", 525_600, () => generateColumns(year));
time("volume_usd 1m × 1 year, generateRecords", 525_600, () => generateRecords(year));
time("volume_usd 1m × 1 year, binance swap BTCUSDT", 525_600, () =>
  generateColumns({ ...year, exchange: "binance", marketType: "swap", symbol: "BTCUSDT" }),
);
time("lth_mvrv 1d × 15 years, generateRecords", 5_479, () =>
  generateRecords({
    ...year,
    endpoint: endpointById("lifespan/Lth_mvrv")!,
    timeframe: "1d",
    startMs: Date.parse("2011-01-01"),
    endMs: nowMs,
  }),
);
const heatmaps: Array<Omit<HeatmapQuery, "nowMs" | "scope">> = [
  { asset: "btc", timeframe: "30m", lookback: "30d" },
  { asset: "btc", timeframe: "6h", lookback: "2y" },
  { asset: "eth", timeframe: "1m", lookback: "24h" },
  { asset: "btc", timeframe: "1d", lookback: "6y" },
];
for (const h of heatmaps) {
  time(`heatmap ${h.asset} ${h.timeframe}/${h.lookback}`, 0, () => buildHeatmap({ ...h, scope: "all", nowMs }));
}
