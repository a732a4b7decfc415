// One LTTB selection of timestamps for several aligned series, so their sampled points can be read
// side by side: each bucket keeps the point whose triangles, summed over the members (each scaled
// to its own range), are largest; every member's minimum and maximum are then put back in.

/** Indices (strictly increasing) of at most `threshold` grid points shared by all members. */
export function coSample(times: ArrayLike<number>, members: readonly ArrayLike<number>[], threshold: number): number[] {
  const n = times.length;
  const k = Math.floor(threshold);
  if (n === 0 || k <= 0) return [];
  if (k >= n) return Array.from({ length: n }, (_, i) => i);
  if (k < 3) return [0, n - 1].slice(0, k);
  const scaled = members.map((v) => normalize(v, n));
  const t0 = times[0]!;
  const span = times[n - 1]! - t0 || 1;
  const x = (i: number) => (times[i]! - t0) / span;

  const kept = [0];
  const every = (n - 2) / (k - 2);
  let a = 0;
  for (let b = 0; b < k - 2; b++) {
    const start = Math.floor(b * every) + 1;
    const end = Math.min(n - 1, Math.floor((b + 1) * every) + 1);
    const nextStart = end;
    const nextEnd = Math.min(n, Math.floor((b + 2) * every) + 1);
    const count = Math.max(1, nextEnd - nextStart);
    let avgX = 0;
    for (let i = nextStart; i < nextEnd; i++) avgX += x(i);
    avgX /= count;
    const avgY = scaled.map((y) => {
      let s = 0;
      for (let i = nextStart; i < nextEnd; i++) s += y[i]!;
      return s / count;
    });
    let best = start;
    let bestArea = -1;
    for (let j = start; j < end; j++) {
      let area = 0;
      for (let m = 0; m < scaled.length; m++) {
        const y = scaled[m]!;
        area += Math.abs((x(a) - avgX) * (y[j]! - y[a]!) - (x(a) - x(j)) * (avgY[m]! - y[a]!));
      }
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    kept.push(best);
    a = best;
  }
  kept.push(n - 1);
  return restoreExtremes(kept, members, n);
}

function normalize(v: ArrayLike<number>, n: number): Float64Array {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    if (v[i]! < lo) lo = v[i]!;
    if (v[i]! > hi) hi = v[i]!;
  }
  const range = hi - lo;
  return Float64Array.from({ length: n }, (_, i) => (range > 0 ? (v[i]! - lo) / range : 0));
}

/** Each member's min and max (first occurrences) replace the nearest kept point not itself protected. */
function restoreExtremes(kept: number[], members: readonly ArrayLike<number>[], n: number): number[] {
  const set = new Set(kept);
  const locked = new Set([0, n - 1]);
  for (const v of members) {
    let lo = 0;
    let hi = 0;
    for (let i = 1; i < n; i++) {
      if (v[i]! < v[lo]!) lo = i;
      if (v[i]! > v[hi]!) hi = i;
    }
    for (const e of [lo, hi]) {
      if (set.has(e)) {
        locked.add(e);
        continue;
      }
      let victim = -1;
      for (const s of set) if (!locked.has(s) && (victim < 0 || Math.abs(s - e) < Math.abs(victim - e))) victim = s;
      if (victim < 0) continue;
      set.delete(victim);
      set.add(e);
      locked.add(e);
    }
  }
  return [...set].sort((p, q) => p - q);
}
