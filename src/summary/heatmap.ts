// Liquidation-heatmap digest, anchored on the last candle close: the current liquidation map
// around the price, the matrix's peak, top-trader L/S, candles and an optional coarse matrix.
import type { Candle, Heatmap } from "../catalog/responses.js";
import { isoOrNull } from "./format.js";
import { bandSums, DEFAULT_CLUSTER_FRACTION, findClusters, largestCluster, nearestCluster, topClusters, type Cluster } from "./heatmap-column.js";
import { columnOf, rebin, scanMatrix } from "./heatmap-matrix.js";
import type { HeatmapDigest } from "./heatmap-schema.js";
import { sanitizeText } from "./text.js";

export const DEFAULT_TOP_K = 3;
export const MAX_TOP_K = 10;
const IMBALANCE_PERCENT = 10;

export interface HeatmapDigestOptions {
  includeMatrix?: boolean;
  /** Clusters listed per side: default 3, clamped to [1, 10]. */
  topK?: number;
  /** Cluster threshold as a fraction of the latest column's largest cell (default 0.1). */
  clusterFraction?: number;
}

export function digestHeatmap(h: Heatmap, opts: HeatmapDigestOptions = {}): HeatmapDigest {
  const rows = Math.min(h.y.length, h.z.length);
  const cols = h.x.length;
  const times = h.x.map((x) => Date.parse(x));
  const timeOf = (j: number) => isoOrNull(times[j] ?? NaN) ?? (h.x[j] === undefined ? null : sanitizeText(h.x[j], 40));
  const topK = Math.min(MAX_TOP_K, Math.max(1, Math.floor(opts.topK ?? DEFAULT_TOP_K) || DEFAULT_TOP_K));
  const fraction = opts.clusterFraction !== undefined && opts.clusterFraction > 0 && opts.clusterFraction <= 1 ? opts.clusterFraction : DEFAULT_CLUSTER_FRACTION;

  const candles = candleSummary(h.df);
  const lastCandle = latestCandle(h.df);
  const anchor: HeatmapDigest["anchor"] = lastCandle && lastCandle.close > 0
    ? { price: lastCandle.close, time: isoOrNull(Date.parse(lastCandle.date)), source: "df_close" }
    : rows > 0
      ? { price: (h.y[0]! + h.y[rows - 1]!) / 2, time: cols > 0 ? timeOf(cols - 1) : null, source: "price_axis_mid" }
      : { price: null, time: null, source: "none" };

  const { columns, peak } = scanMatrix(h.z, rows, cols);
  const lastTime = times[cols - 1] ?? NaN;
  return {
    source: {
      asset: sanitizeText(h.asset, 32),
      timeframe: sanitizeText(h.timeframe, 16),
      lookback: sanitizeText(h.lookback, 16),
      scope: sanitizeText(h.scope, 16),
      exchange: sanitizeText(h.exchange, 64),
      version: sanitizeText(h.version, 64),
      priceSource: sanitizeText(h.priceSource, 96),
    },
    anchor,
    shape: {
      rows,
      cols,
      priceStep: rows >= 2 ? h.y[1]! - h.y[0]! : null,
      priceLow: rows > 0 ? h.y[0]! : null,
      priceHigh: rows > 0 ? h.y[rows - 1]! : null,
      timeFrom: cols > 0 ? timeOf(0) : null,
      timeTo: cols > 0 ? timeOf(cols - 1) : null,
      columnTotals: columns && { latest: columns.latest, mean: columns.mean, max: columns.max, maxTime: timeOf(columns.maxCol) },
    },
    latest: rows > 0 && cols > 0 && anchor.price !== null ? latestColumn(h, rows, cols - 1, anchor.price, fraction, topK, timeOf(cols - 1)) : null,
    peak: peak && {
      price: h.y[peak.row]!,
      time: timeOf(peak.col),
      intensity: peak.value,
      ageColumns: cols - 1 - peak.col,
      ageMs: Number.isFinite(lastTime - times[peak.col]!) ? lastTime - times[peak.col]! : null,
    },
    topTraderLsr: lsrSummary(h.topTraderLsr),
    candles,
    ...(opts.includeMatrix ? { matrix: coarseMatrix(h, rows, cols, timeOf) } : {}),
  };
}

function latestColumn(h: Heatmap, rows: number, j: number, price: number, fraction: number, topK: number, time: string | null): NonNullable<HeatmapDigest["latest"]> {
  const prices = h.y.slice(0, rows);
  const column = columnOf(h.z, rows, j);
  const bands = bandSums(prices, column, price);
  const widest = bandSums(prices, column, price, [IMBALANCE_PERCENT])[0]!;
  const { threshold, total, max, clusters } = findClusters(prices, column, price, fraction);
  const side = (which: Cluster["side"]) => {
    const own = clusters.filter((c) => c.side === which);
    return { largest: largestCluster(own), nearest: nearestCluster(own), top: topClusters(own, topK) };
  };
  const sum = widest.above + widest.below;
  return {
    time,
    total,
    maxCell: max,
    bands,
    imbalance: sum > 0 ? (widest.above - widest.below) / sum : null,
    clusterThreshold: threshold,
    clusterFraction: fraction,
    above: side("above"),
    below: side("below"),
  };
}

/** The candle with the latest date (the last one when dates do not parse). */
function latestCandle(df: readonly Candle[]): Candle | null {
  let best: Candle | null = null;
  let bestTime = -Infinity;
  for (const c of df) {
    const t = Date.parse(c.date);
    if (!best || !(t < bestTime)) {
      best = c;
      if (Number.isFinite(t)) bestTime = t;
    }
  }
  return best;
}

function candleSummary(df: readonly Candle[]): HeatmapDigest["candles"] {
  const valid = df.filter((c) => [c.open, c.high, c.low, c.close].every(Number.isFinite) && Number.isFinite(Date.parse(c.date)));
  if (valid.length === 0) return null;
  const sorted = [...valid].sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  let high = -Infinity;
  let low = Infinity;
  for (const c of sorted) {
    high = Math.max(high, c.high);
    low = Math.min(low, c.low);
  }
  return {
    count: sorted.length,
    from: new Date(Date.parse(first.date)).toISOString(),
    to: new Date(Date.parse(last.date)).toISOString(),
    open: first.open,
    close: last.close,
    high,
    low,
    changePercent: first.open !== 0 ? ((last.close - first.open) / Math.abs(first.open)) * 100 : null,
  };
}

function lsrSummary(points: Heatmap["topTraderLsr"]): HeatmapDigest["topTraderLsr"] {
  const valid = points
    .map((p) => ({ t: Date.parse(p.date), value: p.value }))
    .filter((p) => Number.isFinite(p.t) && Number.isFinite(p.value))
    .sort((a, b) => a.t - b.t);
  if (valid.length === 0) return null;
  let min = valid[0]!;
  let max = valid[0]!;
  let sum = 0;
  for (const p of valid) {
    sum += p.value;
    if (p.value < min.value) min = p;
    if (p.value > max.value) max = p;
  }
  const latest = valid[valid.length - 1]!;
  const iso = (t: number) => new Date(t).toISOString();
  return { latest: latest.value, latestTime: iso(latest.t), min: min.value, minTime: iso(min.t), max: max.value, maxTime: iso(max.t), mean: sum / valid.length, count: valid.length };
}

function coarseMatrix(h: Heatmap, rows: number, cols: number, timeOf: (j: number) => string | null): NonNullable<HeatmapDigest["matrix"]> {
  const binned = rebin(h.z, rows, cols);
  return {
    rows: binned.rowRanges.map(([start, end]) => ({ low: h.y[start]!, high: h.y[end - 1]!, levels: end - start })),
    cols: binned.colRanges.map(([start, end]) => ({ start: timeOf(start), columns: end - start })),
    cells: binned.cells,
  };
}
