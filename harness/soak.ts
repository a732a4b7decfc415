// The soak's call mix and its verdict: pure functions (the verdict is unit-tested in
// test/reliability/soak.test.ts; scripts/soak.ts runs them for minutes against real servers).

export interface Sample {
  t: number;
  heapMB: number;
  rssMB: number;
  fds: number;
  elP99: number;
  p50: number;
  p99: number;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const SERIES = [
  "lifespan/Lth_mvrv",
  "market/metcalfe_ratio",
  "addresses/AdrBalUSD1MCnt",
  "mining/DiffLast",
  "exchange_flow/exchange_reserve",
];
const M2_ASSETS = ["btc", "eth", "ltc", "doge", "bch", "xrp", "ada", "link"];

function randomRange(maxDays: number): { startDate: string; endDate: string } {
  const start = Date.UTC(2024, 0, 1) + Math.floor(Math.random() * 700) * 86_400_000;
  const end = start + Math.floor(1 + Math.random() * maxDays) * 86_400_000;
  return { startDate: new Date(start).toISOString().slice(0, 10), endDate: new Date(end).toISOString().slice(0, 10) };
}

/** One tool call of the mix: mostly cheap reads over varied ranges (so caches churn), ~10 % invalid. */
export function callMix(): { name: string; args: Record<string, unknown> } {
  const r = Math.random();
  if (r < 0.1) return { name: "list_assets", args: pick([{}, { search: "usd" }, { metric: "lifespan/Cvdd" }, { asset: pick(M2_ASSETS) }]) };
  if (r < 0.45) {
    const metric = pick(SERIES);
    const asset =
      metric === "lifespan/Lth_mvrv" || metric === "mining/DiffLast"
        ? "btc"
        : pick(M2_ASSETS.filter((a) => metric !== "exchange_flow/exchange_reserve" || a !== "bch"));
    return { name: "get_series", args: { metric, asset, ...randomRange(400), max_points: pick([24, 120, 500]) } };
  }
  if (r < 0.7) {
    return {
      name: "get_ohlcv",
      args: {
        metric: pick(["derivatives/Volume_usd", "derivatives/Buy_trades", "spot/Trades"]),
        asset: pick(["btc", "eth", "sol", "doge"]),
        timeframe: pick(["1h", "4h", "1d"]),
        ...randomRange(20),
      },
    };
  }
  if (r < 0.8) return { name: "get_metrics_variation", args: { asset: pick(["btc", "eth", "sol", "xrp"]) } };
  if (r < 0.9)
    return {
      name: "get_liquidation_heatmap",
      args: {
        asset: pick(["btc", "eth"]),
        ...pick([
          { timeframe: "1h", lookback: "24h" },
          { timeframe: "4h", lookback: "7d" },
          { timeframe: "1d", lookback: "90d" },
        ]),
      },
    };
  // Invalid on purpose: errors must not leak memory either.
  return pick([
    { name: "get_series", args: { metric: "lifespan/Lth_mvrv", asset: "ethh" } },
    { name: "get_ohlcv", args: { metric: "derivatives/Volume_usd", asset: "btc", startDate: "2025-02-30" } },
    { name: "get_liquidation_heatmap", args: { asset: "btc", timeframe: "1m", lookback: "6y" } },
    { name: "get_series", args: { metric: "nope", asset: "btc", extra: "x".repeat(100) } },
  ]);
}

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const median = (values: number[]) => percentile(values, 50);

/** Least-squares slope of y over t (per second). */
export function slope(points: readonly { t: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.y - my);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export interface Verdict {
  plateau: boolean;
  heapGrowthPct: number;
  fdSpread: number;
  lines: string[];
}

/**
 * Memory plateaus when the median heap (after GC) of the last third of the post-warm-up samples is
 * within 10 % (or 2 MB) of the first third's; descriptors when they stay within ±5 of their median.
 * Warm-up: the first fifth of the samples, at least one.
 */
export function analyse(samples: readonly Sample[]): Verdict {
  const warm = samples.slice(Math.max(1, Math.floor(samples.length / 5))).filter((s) => Number.isFinite(s.heapMB));
  if (warm.length < 3)
    return { plateau: false, heapGrowthPct: NaN, fdSpread: NaN, lines: [`too few samples after warm-up (${warm.length}); run longer`] };
  const third = Math.max(1, Math.floor(warm.length / 3));
  const early = median(warm.slice(0, third).map((s) => s.heapMB));
  const late = median(warm.slice(-third).map((s) => s.heapMB));
  const growth = late - early;
  const heapGrowthPct = (100 * growth) / early;
  const heapFlat = heapGrowthPct < 10 || growth < 2;
  const fds = warm.map((s) => s.fds).filter((f) => f >= 0);
  const fdMedian = median(fds);
  const fdSpread = fds.length ? Math.max(...fds.map((f) => Math.abs(f - fdMedian))) : NaN;
  const fdFlat = !fds.length || fdSpread <= 5;
  const perMin = 60 * slope(warm.map((s) => ({ t: s.t, y: s.heapMB })));
  const rss = warm.map((s) => s.rssMB);
  return {
    plateau: heapFlat && fdFlat,
    heapGrowthPct,
    fdSpread,
    lines: [
      `heap after GC: ${early.toFixed(1)} → ${late.toFixed(1)} MB (${heapGrowthPct >= 0 ? "+" : ""}${heapGrowthPct.toFixed(1)} %, trend ${perMin >= 0 ? "+" : ""}${perMin.toFixed(2)} MB/min): ${heapFlat ? "plateau" : "GROWING"}`,
      `rss: ${Math.min(...rss).toFixed(1)}–${Math.max(...rss).toFixed(1)} MB`,
      fds.length
        ? `open fds: ${Math.min(...fds)}–${Math.max(...fds)} (±${fdSpread} around ${fdMedian}): ${fdFlat ? "plateau" : "GROWING"}`
        : "open fds: not available (no /proc)",
      `event-loop delay p99 (worst sample): ${Math.max(...warm.map((s) => s.elP99)).toFixed(1)} ms; client latency p99 (worst sample): ${Math.max(...warm.map((s) => s.p99)).toFixed(1)} ms`,
    ],
  };
}
