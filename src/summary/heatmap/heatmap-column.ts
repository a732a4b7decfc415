// One heatmap column (the liquidation map at one time) read against a price: intensity within
// ±x % bands and clusters of hot price levels above and below.

export const BAND_PERCENTS = [1, 2, 5, 10] as const;
export const DEFAULT_CLUSTER_FRACTION = 0.1;

export interface Band {
  percent: number;
  /** Sum over levels with price in (P, P·(1+percent/100)]. */
  above: number;
  /** Sum over levels with price in [P·(1−percent/100), P). */
  below: number;
  /** The band is narrower than the level spacing: each side holds at most one level, so a 0 says little. */
  narrowerThanSpacing: boolean;
}

export interface Cluster {
  side: "above" | "below";
  /** The band's edges: level i is the bin [levels[i], levels[i] + spacing), so `high` is the top level's upper edge. */
  low: number;
  high: number;
  levels: number;
  intensity: number;
  /** Share of the column's total intensity, 0–1. */
  share: number;
  /** Price of the cluster's hottest level, and that level's intensity. */
  peak: number;
  peakIntensity: number;
  /** Price width of the band (high − low = levels × spacing), and as % of the price. */
  width: number;
  widthPercent: number;
  /** Signed % from the price to the band's near edge (positive above, negative below; 0 when the band holds the price). */
  distanceEdgePercent: number;
  /** Signed % from the price to the peak level's price (the low edge of its bin). */
  distancePeakPercent: number;
}

/** Intensity within ±percent of the price, above and below; a level exactly at the price is in neither. */
export function bandSums(
  prices: ArrayLike<number>,
  column: ArrayLike<number>,
  price: number,
  percents: readonly number[] = BAND_PERCENTS,
): Band[] {
  const n = prices.length;
  const step = n >= 2 ? (prices[n - 1]! - prices[0]!) / (n - 1) : 0;
  return percents.map((percent) => {
    const hi = price * (1 + percent / 100);
    const lo = price * (1 - percent / 100);
    let above = 0;
    let below = 0;
    for (let i = 0; i < prices.length; i++) {
      const y = prices[i]!;
      if (y > price && y <= hi) above += column[i]!;
      else if (y < price && y >= lo) below += column[i]!;
    }
    return { percent, above, below, narrowerThanSpacing: (price * percent) / 100 < step };
  });
}

/** A cluster keeps the levels around its peak down to this fraction of the peak (full width at half maximum). */
export const CLUSTER_EDGE_FRACTION = 0.5;

/**
 * Clusters: each peak level (a local maximum at least `fraction` of the column's hottest cell)
 * with the levels around it that fall away from it and stay at or above half of it — the width a
 * trader can place an order against, where runs of every level above the threshold spanned a
 * sixth of the price. Peaks claim levels hottest first, so clusters never overlap; the price splits
 * them (a level exactly at the price belongs to neither side). Clusters come out in ascending price.
 */
export function findClusters(
  prices: ArrayLike<number>,
  column: ArrayLike<number>,
  price: number,
  fraction = DEFAULT_CLUSTER_FRACTION,
): { threshold: number; total: number; max: number; maxIndex: number; clusters: Cluster[] } {
  let total = 0;
  let max = 0;
  let maxIndex = -1;
  for (let i = 0; i < column.length; i++) {
    total += column[i]!;
    if (column[i]! > max) {
      max = column[i]!;
      maxIndex = i;
    }
  }
  const threshold = max * fraction;
  const clusters: Cluster[] = [];
  if (!(max > 0)) return { threshold, total, max, maxIndex, clusters };

  const n = prices.length;
  const sideOf = (i: number) => (prices[i]! > price ? 1 : prices[i]! < price ? -1 : 0);
  // Peaks: runs of equal levels (usually one) higher than the levels on either side of the run.
  // Neighbours across the price do not count: the price splits the map.
  const peaks: number[] = [];
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && column[j + 1] === column[i] && sideOf(j + 1) === sideOf(i)) j++;
    const v = column[i]!;
    const left = i > 0 && sideOf(i - 1) === sideOf(i) ? column[i - 1]! : -Infinity;
    const right = j + 1 < n && sideOf(j + 1) === sideOf(i) ? column[j + 1]! : -Infinity;
    if (v > 0 && v >= threshold && sideOf(i) !== 0 && v > left && v > right) peaks.push(i);
    i = j + 1;
  }
  peaks.sort((a, b) => column[b]! - column[a]! || Math.abs(prices[a]! - price) - Math.abs(prices[b]! - price));
  const claimed = new Uint8Array(n);
  const step = n >= 2 ? (prices[n - 1]! - prices[0]!) / (n - 1) : 0;
  for (const p of peaks) {
    if (claimed[p]) continue;
    const floor = column[p]! * CLUSTER_EDGE_FRACTION;
    const joins = (k: number, from: number) =>
      k >= 0 && k < n && !claimed[k] && sideOf(k) === sideOf(p) && column[k]! >= floor && column[k]! <= column[from]!;
    let lo = p;
    let hi = p;
    while (joins(lo - 1, lo)) lo--;
    while (joins(hi + 1, hi)) hi++;
    for (let k = lo; k <= hi; k++) claimed[k] = 1;
    clusters.push(describe(prices, column, price, lo, hi, p, step, total));
  }
  clusters.sort((a, b) => a.low - b.low);
  return { threshold, total, max, maxIndex, clusters };
}

function describe(
  prices: ArrayLike<number>,
  column: ArrayLike<number>,
  price: number,
  start: number,
  end: number,
  peak: number,
  step: number,
  total: number,
): Cluster {
  let intensity = 0;
  for (let k = start; k <= end; k++) intensity += column[k]!;
  const side = prices[peak]! > price ? "above" : "below";
  const low = prices[start]!;
  const high = prices[end]! + step;
  const width = high - low;
  // Below the price, the top bin may be the one the price sits in: then the band reaches the price.
  const edge = side === "above" ? low : Math.min(high, price);
  return {
    side,
    low,
    high,
    levels: end - start + 1,
    intensity,
    share: total > 0 ? intensity / total : 0,
    peak: prices[peak]!,
    peakIntensity: column[peak]!,
    width,
    widthPercent: (width / price) * 100,
    distanceEdgePercent: ((edge - price) / price) * 100,
    distancePeakPercent: ((prices[peak]! - price) / price) * 100,
  };
}

/** Largest by intensity (the nearer one wins a tie). */
export function largestCluster(clusters: readonly Cluster[]): Cluster | null {
  let best: Cluster | null = null;
  for (const c of clusters) {
    if (
      !best ||
      c.intensity > best.intensity ||
      (c.intensity === best.intensity && Math.abs(c.distanceEdgePercent) < Math.abs(best.distanceEdgePercent))
    )
      best = c;
  }
  return best;
}

/** Nearest to the price by its nearest edge. */
export function nearestCluster(clusters: readonly Cluster[]): Cluster | null {
  let best: Cluster | null = null;
  for (const c of clusters) if (!best || Math.abs(c.distanceEdgePercent) < Math.abs(best.distanceEdgePercent)) best = c;
  return best;
}

/** The k most intense clusters, most intense first. */
export function topClusters(clusters: readonly Cluster[], k: number): Cluster[] {
  return [...clusters]
    .sort((a, b) => b.intensity - a.intensity || Math.abs(a.distanceEdgePercent) - Math.abs(b.distanceEdgePercent))
    .slice(0, Math.max(0, k));
}
