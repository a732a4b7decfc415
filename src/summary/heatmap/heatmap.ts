// Liquidation-heatmap digest, anchored on the last candle close: the current liquidation map
// around the price, the matrix's peak, top-trader L/S, candles and an optional coarse matrix. It
// reads the typed form (times in epoch ms, one matrix): no date is parsed here.
import type { CandleColumns, SeriesColumns, TypedHeatmap } from "../../backend/types.js";
import { byTime, typedHeatmap } from "../../catalog/heatmap-typed.js";
import type { Heatmap } from "../../catalog/responses.js";
import { isoOrNull } from "../format/format.js";
import { sanitizeText } from "../format/text.js";
import {
  bandSums,
  type Cluster,
  CLUSTER_EDGE_FRACTION,
  DEFAULT_CLUSTER_FRACTION,
  findClusters,
  largestCluster,
  nearestCluster,
  topClusters,
} from "./heatmap-column.js";
import { columnOf, rebin, scanMatrix } from "./heatmap-matrix.js";
import type { HeatmapDigest } from "./heatmap-schema.js";

/** Nearest and largest per side, and one more when they coincide: clusters are a few levels wide, so there are several. */
export const DEFAULT_TOP_K = 2;
export const MAX_TOP_K = 10;
const IMBALANCE_PERCENT = 10;
/** The top-trader long/short ratio is Binance's (its topLongShortPositionRatio; research/upstream.md §5.3), whatever the scope. */
export const TOP_TRADER_LSR_VENUE = "binance";

export interface HeatmapDigestOptions {
  includeMatrix?: boolean;
  /** Clusters listed per side: default 2, clamped to [1, 10]. */
  topK?: number;
  /** Cluster threshold as a fraction of the latest column's largest cell (default 0.1). */
  clusterFraction?: number;
}

/** The digest of a heatmap, typed (as backends return it) or a JSON body (converted first). */
export function digestHeatmap(input: TypedHeatmap | Heatmap, opts: HeatmapDigestOptions = {}): HeatmapDigest {
  const h = typedHeatmap(input);
  const rows = h.levels.length;
  const cols = h.times.length;
  const { times, labels } = h;
  const timeOf = (j: number) => isoOrNull(times[j] ?? NaN) ?? (labels?.[j] === undefined ? null : sanitizeText(labels[j], 40));
  const topK = Math.min(MAX_TOP_K, Math.max(1, Math.floor(opts.topK ?? DEFAULT_TOP_K) || DEFAULT_TOP_K));
  const fraction =
    opts.clusterFraction !== undefined && opts.clusterFraction > 0 && opts.clusterFraction <= 1
      ? opts.clusterFraction
      : DEFAULT_CLUSTER_FRACTION;

  const candles = candleSummary(h.candles);
  const last = latestCandle(h.candles);
  const anchor: HeatmapDigest["anchor"] =
    last >= 0 && h.candles.close[last]! > 0
      ? { price: h.candles.close[last]!, time: isoOrNull(h.candles.times[last]!), source: "df_close" }
      : rows > 0
        ? { price: (h.levels[0]! + h.levels[rows - 1]!) / 2, time: cols > 0 ? timeOf(cols - 1) : null, source: "price_axis_mid" }
        : { price: null, time: null, source: "none" };

  const { columns, peak } = scanMatrix(h.cells, rows, cols);
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
      priceStep: rows >= 2 ? h.levels[1]! - h.levels[0]! : null,
      priceLow: rows > 0 ? h.levels[0]! : null,
      priceHigh: rows > 0 ? h.levels[rows - 1]! : null,
      timeFrom: cols > 0 ? timeOf(0) : null,
      timeTo: cols > 0 ? timeOf(cols - 1) : null,
      columnTotals: columns && { latest: columns.latest, mean: columns.mean, max: columns.max, maxTime: timeOf(columns.maxCol) },
    },
    latest:
      rows > 0 && cols > 0 && anchor.price !== null ? latestColumn(h, cols - 1, anchor.price, fraction, topK, timeOf(cols - 1)) : null,
    peak: peak && {
      price: h.levels[peak.row]!,
      time: timeOf(peak.col),
      intensity: peak.value,
      ageColumns: cols - 1 - peak.col,
      ageMs: Number.isFinite(lastTime - times[peak.col]!) ? lastTime - times[peak.col]! : null,
    },
    topTraderLsr: lsrSummary(h.lsr),
    candles,
    ...(opts.includeMatrix ? { matrix: coarseMatrix(h, timeOf) } : {}),
  };
}

function latestColumn(
  h: TypedHeatmap,
  j: number,
  price: number,
  fraction: number,
  topK: number,
  time: string | null,
): NonNullable<HeatmapDigest["latest"]> {
  const prices = h.levels;
  const column = columnOf(h.cells, prices.length, h.times.length, j);
  const bands = bandSums(prices, column, price);
  const widest = bandSums(prices, column, price, [IMBALANCE_PERCENT])[0]!;
  const { threshold, total, max, maxIndex, clusters } = findClusters(prices, column, price, fraction);
  const side = (which: Cluster["side"]) => {
    const own = clusters.filter((c) => c.side === which);
    return { largest: largestCluster(own), nearest: nearestCluster(own), top: topClusters(own, topK) };
  };
  const sum = widest.above + widest.below;
  return {
    time,
    total,
    maxCell: max,
    maxCellPrice: maxIndex >= 0 ? prices[maxIndex]! : null,
    bands,
    imbalance: sum > 0 ? (widest.above - widest.below) / sum : null,
    clusterThreshold: threshold,
    clusterFraction: fraction,
    clusterEdgeFraction: CLUSTER_EDGE_FRACTION,
    above: side("above"),
    below: side("below"),
  };
}

/** Index of the candle with the latest time (the last one when times are not dates); -1 without candles. */
function latestCandle(c: CandleColumns): number {
  let best = -1;
  let bestTime = -Infinity;
  for (let k = 0; k < c.times.length; k++) {
    const t = c.times[k]!;
    if (best < 0 || !(t < bestTime)) {
      best = k;
      if (Number.isFinite(t)) bestTime = t;
    }
  }
  return best;
}

function candleSummary(c: CandleColumns): HeatmapDigest["candles"] {
  const order = byTime(c.times, [c.open, c.high, c.low, c.close]);
  if (order.length === 0) return null;
  const first = order[0]!;
  const last = order[order.length - 1]!;
  let high = -Infinity;
  let low = Infinity;
  for (const k of order) {
    high = Math.max(high, c.high[k]!);
    low = Math.min(low, c.low[k]!);
  }
  return {
    count: order.length,
    from: new Date(c.times[first]!).toISOString(),
    to: new Date(c.times[last]!).toISOString(),
    open: c.open[first]!,
    close: c.close[last]!,
    high,
    low,
    changePercent: c.open[first]! !== 0 ? ((c.close[last]! - c.open[first]!) / Math.abs(c.open[first]!)) * 100 : null,
  };
}

function lsrSummary(s: SeriesColumns): HeatmapDigest["topTraderLsr"] {
  const order = byTime(s.times, [s.values]);
  if (order.length === 0) return null;
  let min = order[0]!;
  let max = order[0]!;
  let sum = 0;
  for (const k of order) {
    sum += s.values[k]!;
    if (s.values[k]! < s.values[min]!) min = k;
    if (s.values[k]! > s.values[max]!) max = k;
  }
  const latest = order[order.length - 1]!;
  const iso = (k: number) => new Date(s.times[k]!).toISOString();
  return {
    venue: TOP_TRADER_LSR_VENUE,
    latest: s.values[latest]!,
    latestTime: iso(latest),
    min: s.values[min]!,
    minTime: iso(min),
    max: s.values[max]!,
    maxTime: iso(max),
    mean: sum / order.length,
    count: order.length,
  };
}

function coarseMatrix(h: TypedHeatmap, timeOf: (j: number) => string | null): NonNullable<HeatmapDigest["matrix"]> {
  const binned = rebin(h.cells, h.levels.length, h.times.length);
  const n = h.levels.length;
  const step = n >= 2 ? (h.levels[n - 1]! - h.levels[0]!) / (n - 1) : 0;
  return {
    // A bin runs from its lowest level's price to its highest level's upper edge (the next bin's low).
    rows: binned.rowRanges.map(([start, end]) => ({ low: h.levels[start]!, high: h.levels[end - 1]! + step, levels: end - start })),
    cols: binned.colRanges.map(([start, end]) => ({ start: timeOf(start), columns: end - start })),
    cells: binned.cells,
  };
}
