import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { randomWalk } from "../../harness/summary-inputs.js";
import { lttb } from "../../src/summary/series/lttb.js";

/** Steinarsson's reference LTTB (plain arrays), to check the core selection is unchanged. */
function referenceLttb(x: number[], y: number[], threshold: number): number[] {
  const n = x.length;
  if (threshold >= n || threshold === 0) return x.map((_, i) => i);
  const every = (n - 2) / (threshold - 2);
  const out = [0];
  let a = 0;
  for (let i = 0; i < threshold - 2; i++) {
    let avgX = 0;
    let avgY = 0;
    let start = Math.floor((i + 1) * every) + 1;
    let end = Math.floor((i + 2) * every) + 1;
    end = end < n ? end : n;
    const len = end - start;
    for (; start < end; start++) {
      avgX += x[start]!;
      avgY += y[start]!;
    }
    avgX /= len;
    avgY /= len;
    let from = Math.floor(i * every) + 1;
    const to = Math.floor((i + 1) * every) + 1;
    let maxArea = -1;
    let next = from;
    for (; from < to; from++) {
      const area = Math.abs((x[a]! - avgX) * (y[from]! - y[a]!) - (x[a]! - x[from]!) * (avgY - y[a]!)) * 0.5;
      if (area > maxArea) {
        maxArea = area;
        next = from;
      }
    }
    out.push(next);
    a = next;
  }
  out.push(n - 1);
  return out;
}

function firstArgMin(v: ArrayLike<number>): number {
  let k = 0;
  for (let i = 1; i < v.length; i++) if (v[i]! < v[k]!) k = i;
  return k;
}
function firstArgMax(v: ArrayLike<number>): number {
  let k = 0;
  for (let i = 1; i < v.length; i++) if (v[i]! > v[k]!) k = i;
  return k;
}

const series = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 0, maxLength: 400 });

describe("lttb", () => {
  it("returns at most threshold strictly increasing indices and keeps first, last, min and max", () => {
    fc.assert(
      fc.property(series, fc.integer({ min: 0, max: 450 }), (values, threshold) => {
        const times = values.map((_, i) => 1_700_000_000_000 + i * 60_000);
        const kept = lttb(times, values, threshold);
        const n = values.length;
        expect(kept.length).toBeLessThanOrEqual(Math.max(0, threshold));
        if (n <= threshold) expect(kept).toEqual(values.map((_, i) => i));
        for (let k = 1; k < kept.length; k++) expect(kept[k]!).toBeGreaterThan(kept[k - 1]!);
        for (const i of kept) expect(i >= 0 && i < n).toBe(true);
        if (n > 0 && threshold >= 2) {
          expect(kept[0]).toBe(0);
          expect(kept[kept.length - 1]).toBe(n - 1);
        }
        if (n > 0 && threshold >= 4) {
          expect(kept).toContain(firstArgMin(values));
          expect(kept).toContain(firstArgMax(values));
          expect(kept.length).toBe(Math.min(n, threshold));
        }
      }),
      { numRuns: 400 },
    );
  });

  it("matches the reference algorithm when the reference already holds both extremes", () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { minLength: 10, maxLength: 300 }),
        fc.integer({ min: 4, max: 60 }),
        (values, threshold) => {
          const times = values.map((_, i) => i * 1000);
          const reference = referenceLttb(times, values, threshold);
          if (!reference.includes(firstArgMin(values)) || !reference.includes(firstArgMax(values))) return;
          compared++;
          expect(lttb(times, values, threshold)).toEqual(reference);
        },
      ),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(20);
  });

  it("inserts a spike that plain LTTB drops and still returns threshold points", () => {
    // A one-point dip right after a higher spike in the same bucket: the reference keeps the spike only.
    const n = 1000;
    const times = Array.from({ length: n }, (_, i) => i);
    const values = times.map((i) => Math.sin(i / 40) * 10);
    values[500] = 100;
    values[501] = -100;
    const reference = referenceLttb(times, values, 20);
    const kept = lttb(times, values, 20);
    expect(kept).toHaveLength(20);
    expect(kept).toContain(500);
    expect(kept).toContain(501);
    expect(reference.includes(500) && reference.includes(501)).toBe(false);
  });

  it("handles typed arrays of 525,600 points", () => {
    const { times, values } = randomWalk(525_600, 60_000, 3);
    const kept = lttb(times, values, 120);
    expect(kept).toHaveLength(120);
    expect(kept[0]).toBe(0);
    expect(kept[119]).toBe(525_599);
    expect(kept).toContain(firstArgMin(values));
    expect(kept).toContain(firstArgMax(values));
  });

  it("keeps first and last, then the maximum, when the threshold is below 4", () => {
    const values = [5, 1, 9, 3, 4];
    const times = values.map((_, i) => i);
    expect(lttb(times, values, 0)).toEqual([]);
    expect(lttb(times, values, 2)).toEqual([0, 4]);
    expect(lttb(times, values, 3)).toEqual([0, 2, 4]);
    expect(lttb(times, values, 4)).toEqual([0, 1, 2, 4]);
  });
});
