// The soak's verdict (scripts/soak.ts) must tell a leak from a plateau: checked on synthetic samples.
import { describe, expect, it } from "vitest";

import { analyse, callMix, percentile, type Sample, slope } from "../../harness/soak.js";
import { allTools } from "../../src/tools/index.js";

const series = (n: number, heap: (i: number) => number, fds: (i: number) => number = () => 25): Sample[] =>
  Array.from({ length: n }, (_, i) => ({ t: i * 10, heapMB: heap(i), rssMB: 140, fds: fds(i), elP99: 12, p50: 2, p99: 9 }));

describe("soak verdict", () => {
  it("calls a warm-up climb followed by a flat, noisy heap a plateau", () => {
    const v = analyse(series(60, (i) => (i < 10 ? 20 + i : 30 + Math.sin(i) * 0.8)));
    expect(v.plateau).toBe(true);
    expect(Math.abs(v.heapGrowthPct)).toBeLessThan(10);
  });

  it("flags a heap that keeps growing", () => {
    const v = analyse(series(60, (i) => 20 + i * 0.5));
    expect(v.plateau).toBe(false);
    expect(v.lines.join("\n")).toMatch(/GROWING/);
  });

  it("flags descriptors that keep growing even with a flat heap", () => {
    const v = analyse(
      series(
        60,
        () => 30,
        (i) => 25 + Math.floor(i / 4),
      ),
    );
    expect(v.plateau).toBe(false);
    expect(v.fdSpread).toBeGreaterThan(5);
  });

  it("refuses to judge from too few samples", () => {
    expect(analyse(series(3, () => 30)).plateau).toBe(false);
  });

  it("has exact helpers: percentile and least-squares slope", () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([], 99)).toBeNaN();
    expect(
      slope([
        { t: 0, y: 1 },
        { t: 10, y: 3 },
        { t: 20, y: 5 },
      ]),
    ).toBeCloseTo(0.2, 12);
  });

  it("draws calls that name real tools with object arguments", () => {
    const names = new Set(allTools.map((t) => t.name));
    for (let i = 0; i < 500; i++) {
      const call = callMix();
      expect(names.has(call.name)).toBe(true);
      expect(typeof call.args).toBe("object");
    }
  });
});
