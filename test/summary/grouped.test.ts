import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { formatCount, groupedFixed } from "../../src/summary/format/grouped.js";

const formats = Array.from(
  { length: 13 },
  (_, d) => new Intl.NumberFormat("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }),
);
const intl = (x: number, d: number) => formats[d]!.format(x);

describe("groupedFixed", () => {
  it("writes what Intl.NumberFormat en-US writes on edge values", () => {
    const values = [
      0,
      -0,
      0.5,
      1.5,
      2.5,
      -2.5,
      0.125,
      1.005,
      2.675,
      -1.005,
      0.0049,
      0.005,
      0.0051,
      999.995,
      999.994,
      9.995,
      99999.5,
      1e21,
      1.5e-7,
      -1.5e-7,
      123456789.0005,
      1e300,
      5e-324,
      Number.MAX_VALUE,
      Number.MAX_SAFE_INTEGER,
      0.1,
      0.7,
      1 / 3,
      -0.001,
      -0.4,
      126_080,
      87747.654,
      1.4826e14,
      2.51e6,
      NaN,
      Infinity,
      -Infinity,
      1e-7,
      9.5e-13,
      0.95,
    ];
    for (const x of values) for (let d = 0; d <= 12; d++) expect(groupedFixed(x, d), `${x} at ${d}`).toBe(intl(x, d));
  });

  it("writes what Intl.NumberFormat en-US writes on arbitrary doubles", () => {
    fc.assert(
      fc.property(fc.double(), fc.integer({ min: 0, max: 12 }), (x, d) => groupedFixed(x, d) === intl(x, d)),
      { numRuns: 20_000 },
    );
  });

  it("writes what Intl.NumberFormat en-US writes on values with few decimals (where ties are)", () => {
    const decimal = fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 8 })).map(([n, k]) => n / 10 ** k);
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 6 }), (x, d) => groupedFixed(x, d) === intl(x, d)),
      { numRuns: 20_000 },
    );
  });
});

describe("formatCount", () => {
  it("groups integers as toLocaleString does", () => {
    for (const n of [0, 7, 999, 1000, 1234567, -1000, 999_999_999, 100_000, 2 ** 53])
      expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
  });
});
