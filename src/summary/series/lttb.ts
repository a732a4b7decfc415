// Largest-Triangle-Three-Buckets downsampling (Steinarsson 2013, "Downsampling Time Series for
// Visual Representation", §4.2) that never loses the first, last, global minimum or maximum point.

/**
 * Indices (strictly increasing) of at most `threshold` points that keep the series' visual shape.
 * All indices when n ≤ threshold. For threshold ≥ 4 the first, last, global-min and global-max
 * points (first occurrences) are always kept: when plain LTTB misses an extreme it is inserted and
 * the kept point with the smallest effective triangle area (Visvalingam) is dropped instead.
 * Below 4 not all four can fit; first and last come first, then the maximum, then the minimum.
 * O(n) time, O(threshold) extra memory; typed arrays welcome.
 */
export function lttb(times: ArrayLike<number>, values: ArrayLike<number>, threshold: number): number[] {
  const n = Math.min(times.length, values.length);
  const limit = Number.isFinite(threshold) ? Math.floor(threshold) : n;
  if (limit <= 0 || n === 0) return [];
  if (limit >= n) return Array.from({ length: n }, (_, i) => i);

  const [minIndex, maxIndex] = extremes(values, n);
  if (limit < 4) return [...new Set([0, n - 1, maxIndex, minIndex])].slice(0, limit).sort((a, b) => a - b);

  const kept = plainLttb(times, values, n, limit);
  const protectedSet = new Set([0, n - 1, minIndex, maxIndex]);
  for (const extreme of [minIndex, maxIndex]) {
    const at = lowerBound(kept, extreme);
    if (kept[at] !== extreme) kept.splice(at, 0, extreme);
  }
  while (kept.length > limit) kept.splice(leastSignificant(times, values, kept, protectedSet), 1);
  return kept;
}

function plainLttb(x: ArrayLike<number>, y: ArrayLike<number>, n: number, limit: number): number[] {
  const kept = new Array<number>(limit);
  kept[0] = 0;
  // Buckets span the interior points 1..n-2; each contributes the point forming the largest
  // triangle with the previously kept point and the average of the next bucket.
  const every = (n - 2) / (limit - 2);
  let a = 0;
  for (let bucket = 0; bucket < limit - 2; bucket++) {
    const nextStart = Math.floor((bucket + 1) * every) + 1;
    const nextEnd = Math.min(Math.floor((bucket + 2) * every) + 1, n);
    let avgX = 0;
    let avgY = 0;
    for (let j = nextStart; j < nextEnd; j++) {
      avgX += x[j]!;
      avgY += y[j]!;
    }
    const span = nextEnd - nextStart;
    avgX /= span;
    avgY /= span;

    const from = Math.floor(bucket * every) + 1;
    const to = Math.floor((bucket + 1) * every) + 1;
    const ax = x[a]!;
    const ay = y[a]!;
    let best = from;
    let bestArea = -1;
    for (let j = from; j < to; j++) {
      const area = Math.abs((ax - avgX) * (y[j]! - ay) - (ax - x[j]!) * (avgY - ay));
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    kept[bucket + 1] = best;
    a = best;
  }
  kept[limit - 1] = n - 1;
  return kept;
}

/** First indices of the minimum and maximum values (NaN never wins a comparison). */
function extremes(values: ArrayLike<number>, n: number): [number, number] {
  let minIndex = 0;
  let maxIndex = 0;
  let lo = values[0]!;
  let hi = values[0]!;
  for (let i = 1; i < n; i++) {
    const v = values[i]!;
    if (v < lo || lo !== lo) {
      lo = v;
      minIndex = i;
    }
    if (v > hi || hi !== hi) {
      hi = v;
      maxIndex = i;
    }
  }
  return [minIndex, maxIndex];
}

function lowerBound(sorted: readonly number[], target: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Position in `kept` of the unprotected point whose triangle with its kept neighbours is smallest. */
function leastSignificant(x: ArrayLike<number>, y: ArrayLike<number>, kept: readonly number[], keep: ReadonlySet<number>): number {
  let best = -1;
  let bestArea = Infinity;
  for (let k = 1; k < kept.length - 1; k++) {
    const i = kept[k]!;
    if (keep.has(i)) continue;
    const p = kept[k - 1]!;
    const q = kept[k + 1]!;
    const area = Math.abs((x[p]! - x[q]!) * (y[i]! - y[p]!) - (x[p]! - x[i]!) * (y[q]! - y[p]!));
    // A NaN area (non-finite input) marks the point as the first to go.
    if (area < bestArea || area !== area) {
      bestArea = area !== area ? -Infinity : area;
      best = k;
    }
  }
  return best;
}
