// ISO formatting of bucket starts matches Date#toISOString exactly, day prefixes included.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { datePrefix, isoOf, isoTimes } from "../../../../src/backend/inprocess/encoders/time-format.js";

const DAY = 86_400_000;
// 0000-01-01 to 9999-12-31: every year toISOString prints with four digits.
const MIN_DAY = Math.ceil(Date.UTC(0, 0, 1) / DAY);
const MAX_DAY = Math.floor(Date.UTC(9999, 11, 31) / DAY);

describe("time formatting", () => {
  it("datePrefix(day) is the date part of toISOString", () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_DAY, max: MAX_DAY }), (day) => {
        expect(datePrefix(day)).toBe(new Date(day * DAY).toISOString().slice(0, 10));
      }),
      { numRuns: 20_000 },
    );
    // Leap-year edges, the epoch, and the turn of centuries.
    for (const iso of ["1970-01-01", "1969-12-31", "2000-02-29", "1900-02-28", "1900-03-01", "2024-02-29", "2100-03-01", "0000-03-01"]) {
      expect(datePrefix(Date.parse(iso) / DAY)).toBe(iso);
    }
  });

  it("isoOf and isoTimes give toISOString for minute-aligned and other instants", () => {
    const minutes = fc.integer({ min: MIN_DAY * 1440, max: MAX_DAY * 1440 }).map((m) => m * 60_000);
    fc.assert(
      fc.property(minutes, (ms) => {
        expect(isoOf(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), (ms) => {
        expect(isoOf(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(minutes, fc.integer({ min: 1, max: 3000 }), fc.constantFrom(60_000, 3_600_000, DAY), (start, n, step) => {
        const times = Float64Array.from({ length: n }, (_, i) => start + i * step);
        expect(isoTimes(times)).toEqual(Array.from(times, (t) => new Date(t).toISOString()));
      }),
      { numRuns: 200 },
    );
  });
});
