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
}

export interface Cluster {
  side: "above" | "below";
  /** Prices of the lowest and highest level in the run. */
  low: number;
  high: number;
  levels: number;
  intensity: number;
  /** Share of the column's total intensity, 0–1. */
  share: number;
  /** Intensity-weighted mean price of the run. */
  centre: number;
  /** Signed % from the price to the band's nearest edge (positive above, negative below). */
  distanceEdgePercent: number;
  /** Signed % from the price to the intensity-weighted centre. */
  distanceCentrePercent: number;
}

/** Intensity within ±percent of the price, above and below; a level exactly at the price is in neither. */
export function bandSums(prices: ArrayLike<number>, column: ArrayLike<number>, price: number, percents: readonly number[] = BAND_PERCENTS): Band[] {
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
    return { percent, above, below };
  });
}

/**
 * Clusters: maximal runs of consecutive price levels on one side of the price whose intensity is
 * at least `fraction` of the column's largest cell. The price splits a run that straddles it, and
 * a level exactly at the price belongs to neither side. Runs come out in ascending price order.
 */
export function findClusters(prices: ArrayLike<number>, column: ArrayLike<number>, price: number, fraction = DEFAULT_CLUSTER_FRACTION): { threshold: number; total: number; max: number; clusters: Cluster[] } {
  let total = 0;
  let max = 0;
  for (let i = 0; i < column.length; i++) {
    total += column[i]!;
    if (column[i]! > max) max = column[i]!;
  }
  const threshold = max * fraction;
  const clusters: Cluster[] = [];
  if (!(max > 0)) return { threshold, total, max, clusters };

  const sideOf = (i: number) => (prices[i]! > price ? "above" : prices[i]! < price ? "below" : null);
  const hot = (i: number) => column[i]! >= threshold && column[i]! > 0 && sideOf(i) !== null;
  let i = 0;
  while (i < prices.length) {
    if (!hot(i)) {
      i++;
      continue;
    }
    const side = sideOf(i)!;
    let end = i;
    while (end + 1 < prices.length && hot(end + 1) && sideOf(end + 1) === side) end++;
    clusters.push(describe(prices, column, price, i, end, side, total));
    i = end + 1;
  }
  return { threshold, total, max, clusters };
}

function describe(prices: ArrayLike<number>, column: ArrayLike<number>, price: number, start: number, end: number, side: "above" | "below", total: number): Cluster {
  let intensity = 0;
  let weighted = 0;
  for (let k = start; k <= end; k++) {
    intensity += column[k]!;
    weighted += column[k]! * prices[k]!;
  }
  const low = prices[start]!;
  const high = prices[end]!;
  const centre = weighted / intensity;
  const edge = side === "above" ? low : high;
  return {
    side,
    low,
    high,
    levels: end - start + 1,
    intensity,
    share: total > 0 ? intensity / total : 0,
    centre,
    distanceEdgePercent: ((edge - price) / price) * 100,
    distanceCentrePercent: ((centre - price) / price) * 100,
  };
}

/** Largest by intensity (the nearer one wins a tie). */
export function largestCluster(clusters: readonly Cluster[]): Cluster | null {
  let best: Cluster | null = null;
  for (const c of clusters) {
    if (!best || c.intensity > best.intensity || (c.intensity === best.intensity && Math.abs(c.distanceEdgePercent) < Math.abs(best.distanceEdgePercent))) best = c;
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
  return [...clusters].sort((a, b) => b.intensity - a.intensity || Math.abs(a.distanceEdgePercent) - Math.abs(b.distanceEdgePercent)).slice(0, Math.max(0, k));
}
