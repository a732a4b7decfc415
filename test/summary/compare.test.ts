// The compare digest's pure parts: alignment, changes by nature, ranks, correlation, lead/lag and
// the co-sampled selection.
import { describe, expect, it } from "vitest";

import { criticalR } from "../../src/summary/compare/compare-significance.js";
import {
  alignOnGrid,
  changesOf,
  correlationMatrix,
  coSample,
  digestCompare,
  memberStats,
  pearson,
  rankChanges,
  strongestLeadLag,
} from "../../src/summary/index.js";

/** Deterministic pseudo-random numbers in [-0.5, 0.5). */
function noise(seed: number, n: number): Float64Array {
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  });
}

describe("alignOnGrid", () => {
  it("keeps the times every member has, with each member's values there", () => {
    const a = { times: [1, 2, 3, 4, 5], values: [10, 20, 30, 40, 50] };
    const b = { times: [2, 3, 5, 6], values: [200, 300, 500, 600] };
    const c = { times: [0, 2, 5], values: [0, 2000, 5000] };
    const g = alignOnGrid([a, b, c]);
    expect(Array.from(g.times)).toEqual([2, 5]);
    expect(g.values.map((v) => Array.from(v))).toEqual([
      [20, 50],
      [200, 500],
      [2000, 5000],
    ]);
  });

  it("drops a time where one member's value is not finite", () => {
    const g = alignOnGrid([
      { times: [1, 2], values: [1, 2] },
      { times: [1, 2], values: [Number.NaN, 3] },
    ]);
    expect(Array.from(g.times)).toEqual([2]);
  });
});

describe("memberStats and rankChanges", () => {
  it("expresses the change by nature", () => {
    expect(memberStats([100, 90, 150], "price")).toMatchObject({ change: 50, basis: "percent", rebased: true });
    expect(memberStats([1.5, 2.25], "ratio")).toMatchObject({ change: 0.75, basis: "points", rebased: false });
    expect(memberStats([-5, 20], "cumulative")).toMatchObject({ change: 25, basis: "units" });
    expect(memberStats([3, 4, 5], "flow")).toMatchObject({ change: 12, basis: "sum" });
    expect(memberStats([0, 4], "level").change).toBeNull();
  });

  it("ranks only among members of one metric, basis and unit", () => {
    const ranks = rankChanges([
      { change: 5, basis: "percent", unit: "USD" },
      { change: 9, basis: "percent", unit: "BTC" },
      { change: 0.2, basis: "points", unit: "ratio" },
    ]);
    expect(ranks).toEqual([2, 1, null]);
    // A reserve's % against a price's % compares unlike quantities: no rank.
    expect(
      rankChanges([
        { change: -15, basis: "percent", unit: "BTC", metric: "exchange_flow/exchange_reserve" },
        { change: 213, basis: "percent", unit: "USD", metric: "price" },
      ]),
    ).toEqual([null, null]);
    expect(
      rankChanges([
        { change: -15, basis: "percent", unit: "BTC", metric: "exchange_flow/exchange_reserve" },
        { change: -18, basis: "percent", unit: "ETH", metric: "exchange_flow/exchange_reserve" },
      ]),
    ).toEqual([1, 2]);
  });
});

describe("correlation and lead/lag", () => {
  it("computes Pearson's r and the matrix symmetrically", () => {
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1, 12);
    expect(pearson([1, 2, 3, 4], [8, 6, 4, 2])).toBeCloseTo(-1, 12);
    expect(pearson([1, 1, 1, 1], [1, 2, 3, 4])).toBeNull();
    const { matrix: m, pairs } = correlationMatrix([
      [1, 2, 3, 5],
      [2, 1, 4, 3],
      [5, 3, Number.NaN, 1],
    ]);
    expect(m[0]![1]).toBe(m[1]![0]);
    expect(m[2]![2]).toBe(1);
    expect(pairs).toBe(3);
  });

  it("uses log returns for prices and differences otherwise", () => {
    expect(Array.from(changesOf([100, 110], "price"))[0]).toBeCloseTo(Math.log(1.1), 12);
    expect(Array.from(changesOf([100, 110], "level"))).toEqual([10]);
  });

  it("finds a clear lead and reports nothing for unrelated series", () => {
    const x = noise(1, 400);
    const lagged = Float64Array.from(x, (_, i) => (i >= 3 ? x[i - 3]! : 0) + 0.3 * noise(2, 400)[i]!);
    const { lead, tests, threshold } = strongestLeadLag([lagged, x], 10, criticalR);
    expect(lead).toMatchObject({ leader: 1, follower: 0, lag: 3 });
    expect(lead!.r).toBeGreaterThan(0.8);
    expect(tests).toBe(21);
    expect(threshold).toBeCloseTo(criticalR(lead!.n, 21), 12);
    expect(strongestLeadLag([noise(3, 400), noise(4, 400)], 10, criticalR).lead).toBeNull();
  });

  it("needs a lag to clear the significance threshold over every pair and lag tried", () => {
    // 121 changes: a weak lagged echo (r about 0.2) over the same-bucket 0.07 is noise once 21 lags are tried.
    const x = noise(7, 121);
    const echo = Float64Array.from(x, (_, i) => (i >= 2 ? 0.2 * x[i - 2]! : 0) + noise(8, 121)[i]!);
    const { lead, threshold } = strongestLeadLag([echo, x], 10, criticalR);
    expect(threshold).toBeGreaterThan(0.25);
    expect(lead).toBeNull();
  });

  it("computes the critical |r| of Pearson's test (t quantiles, Bonferroni)", () => {
    // Tables: two-sided 5 % with 30 pairs (df 28) needs |r| ≥ 0.361, with 102 pairs (df 100) 0.195.
    expect(criticalR(30)).toBeCloseTo(0.361, 2);
    expect(criticalR(102)).toBeCloseTo(0.195, 2);
    // Ten tests: each at 0.5 %, two-sided; t(0.0025, 100) = 2.871 in the tables, so |r| ≥ 0.276.
    expect(criticalR(102, 10)).toBeCloseTo(0.276, 2);
    expect(Number.isNaN(criticalR(3))).toBe(true);
  });
});

describe("coSample", () => {
  it("returns one increasing selection within budget holding first, last and every member's extremes", () => {
    const n = 1_000;
    const t = Float64Array.from({ length: n }, (_, i) => i * 86_400_000);
    const a = Float64Array.from(noise(5, n), (v, i) => v + Math.sin(i / 50));
    const b = Float64Array.from(noise(6, n), (v, i) => v * 3 + i / 100);
    const picked = coSample(t, [a, b], 30);
    expect(picked.length).toBeLessThanOrEqual(30);
    expect(picked[0]).toBe(0);
    expect(picked.at(-1)).toBe(n - 1);
    for (let i = 1; i < picked.length; i++) expect(picked[i]!).toBeGreaterThan(picked[i - 1]!);
    for (const v of [a, b]) {
      expect(picked).toContain(v.indexOf(Math.max(...v)));
      expect(picked).toContain(v.indexOf(Math.min(...v)));
    }
  });
});

describe("digestCompare", () => {
  it("rebases prices to 100 at the grid's first time and reports members in order", () => {
    const times = [0, 1, 2, 3, 4].map((d) => d * 86_400_000);
    const d = digestCompare(
      [
        { label: "a", metric: "price", asset: "a", unit: "USD", nature: "price", times, values: [10, 11, 12, 11, 13] },
        { label: "b", metric: "price", asset: "b", unit: "USD", nature: "price", times: times.slice(1), values: [50, 40, 45, 60] },
      ],
      { timeframeMs: 86_400_000 },
    );
    expect(d.grid.count).toBe(4);
    expect(d.members.map((m) => [m.fetched, m.first!.value, m.rank])).toEqual([
      [5, 11, 2],
      [4, 50, 1],
    ]);
    expect(d.points.values.map((v) => v[0])).toEqual([100, 100]);
    expect(d.points.values[1]!.at(-1)).toBeCloseTo(120, 12);
  });
});
