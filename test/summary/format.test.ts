import fc from "fast-check";
import { describe, expect, it } from "vitest";

import {
  formatDuration,
  formatNumber,
  formatPercent,
  formatPrice,
  formatSigned,
  levelPriceFormatter,
  seriesValueFormatter,
} from "../../src/summary/format/format.js";
import { answerScale } from "../../src/summary/format/scale.js";
import { sanitizeText } from "../../src/summary/format/text.js";

describe("formatNumber", () => {
  it("writes compact numbers exact enough to act on", () => {
    expect(formatNumber(87_747.654)).toBe("87,747.65");
    expect(formatNumber(1.4826e14)).toBe("148.26T");
    expect(formatNumber(2.51e6)).toBe("2.51M");
    expect(formatNumber(3.2e9)).toBe("3.20B");
    expect(formatNumber(0.03741)).toBe("0.0374");
    expect(formatNumber(12_345)).toBe("12,345");
    expect(formatNumber(-2_500_000)).toBe("-2.50M");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(3.2e-7)).toBe("3.20e-7");
    expect(formatNumber(2.5e16)).toBe("2.50e16");
    expect(formatNumber(999_999_999)).toBe("1.00B");
    expect(formatNumber(2.51e6, "USD")).toBe("$2.51M");
    expect(formatNumber(-87_747.65, "USD")).toBe("-$87,747.65");
    expect(formatNumber(2.51e6, "BTC")).toBe("2.51M BTC");
    expect(formatNumber(3.2149, "%")).toBe("+3.21 %");
  });

  it("never writes NaN or Infinity", () => {
    fc.assert(
      fc.property(fc.double(), fc.constantFrom(undefined, "%", "USD", "BTC"), (x, unit) => {
        const text = formatNumber(x, unit);
        expect(text).not.toMatch(/NaN|Infinity/);
        if (!Number.isFinite(x)) expect(text).toBe("n/a");
      }),
    );
  });

  it("round-trips large values within half a unit of the last shown digit", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e6, max: 9.99e14, noNaN: true }), (x) => {
        const m = /^([\d,.]+)([MBT])$/.exec(formatNumber(x))!;
        const scale = { M: 1e6, B: 1e9, T: 1e12 }[m[2] as "M" | "B" | "T"];
        expect(Math.abs(Number(m[1]!.replace(/,/g, "")) * scale - x)).toBeLessThanOrEqual(0.005 * scale + 1e-6 * x);
      }),
    );
  });
});

describe("formatPercent, formatSigned, formatDuration", () => {
  it("signs percentages and never writes -0", () => {
    expect(formatPercent(3.2149)).toBe("+3.21 %");
    expect(formatPercent(-0.5)).toBe("-0.50 %");
    expect(formatPercent(-0.001)).toBe("0.00 %");
    expect(formatPercent(12_345.678)).toBe("+12,345.68 %");
    expect(formatPercent(Number.NaN)).toBe("n/a");
    expect(formatSigned(1.234)).toBe("+1.23");
    expect(formatSigned(-0.001)).toBe("0.00");
    expect(formatSigned(-1.5)).toBe("-1.50");
  });

  it("writes durations in the largest sensible units", () => {
    expect(formatDuration(60_000)).toBe("1 min");
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000)).toBe("3 d 4 h");
    expect(formatDuration(30 * 86_400_000)).toBe("30 d");
    expect(formatDuration(125 * 60_000)).toBe("2 h 5 min");
    expect(formatDuration(-1)).toBe("n/a");
  });
});

describe("prices", () => {
  it("keeps closes exact and gives level prices the precision of their step", () => {
    expect(formatPrice(87_747.654)).toBe("87,747.65");
    expect(formatPrice(0.0374123)).toBe("0.03741");
    expect(formatPrice(Number.NaN)).toBe("n/a");
    expect(levelPriceFormatter(515.94)(61_757.2)).toBe("61,757");
    expect(levelPriceFormatter(1.5)(100.5)).toBe("100.5");
    expect(levelPriceFormatter(0.00005)(0.03745)).toBe("0.037450");
    expect(levelPriceFormatter(Number.NaN)(0.5)).toBe("0.5");
  });

  it("never prints two adjacent levels alike", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-8, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        fc.integer({ min: 0, max: 1000 }),
        (step, base, k) => {
          const level = levelPriceFormatter(step);
          const a = base + k * step;
          expect(level(a)).not.toBe(level(a + step));
        },
      ),
    );
  });
});

/** A printed point as the number it stands for: "79.6B" → 79.6e9, "106034" → 106034. */
const read = (text: string) => Number(text.replace(/[MBT]$/, "")) * ({ M: 1e6, B: 1e9, T: 1e12 }[text.slice(-1)] ?? 1);

describe("seriesValueFormatter", () => {
  it("writes each value in the unit with a suffix that reads by itself, resolving 1/200 of the range", () => {
    const volume = seriesValueFormatter([3.2e6, 2.9e6, 3.5e6]);
    expect([volume.suffix, volume.format(3_238_400)]).toEqual(["M", "3.24M"]);
    const price = seriesValueFormatter([86_000, 126_000]);
    expect([price.suffix, price.format(106_034.65)]).toEqual(["", "106035"]);
    expect(seriesValueFormatter([79.57e9, 40e9]).format(79.57e9)).toBe("79.6B");
    expect(seriesValueFormatter([89.37e12, 88e12, 90e12]).format(89.37e12)).toBe("89.37T");
    expect(seriesValueFormatter([0.000122, 0.0001, 0.00015]).format(0.000122)).toBe("0.000122");
    // Below 1e-4 a plain decimal, not an exponent: 0.0000148 costs fewer tokens than 1.48e-5 and reads as well.
    expect(seriesValueFormatter([1.476e-5, 6.8e-6, 2.8e-5]).format(1.476e-5)).toBe("0.0000148");
    expect(seriesValueFormatter([0.7, 1.23456, 4.5]).format(1.23456)).toBe("1.23");
    expect(seriesValueFormatter([12_001, 12_007, 12_003]).format(12_007)).toBe("12007");
    expect(seriesValueFormatter([0.1, 0.1]).format(0.1)).toBe("0.1");
    expect(seriesValueFormatter([Number.NaN]).format(1)).toBe("n/a");
  });

  it("keeps every value within 1/200 of the range of its true value, and `value` is the number the text writes", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e13, max: 1e13, noNaN: true }), { minLength: 2, maxLength: 50 }), (values) => {
        const lo = Math.min(...values);
        const hi = Math.max(...values);
        const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
        if (hi === lo || magnitude < 1e-9) return;
        const f = seriesValueFormatter(values);
        for (const v of values) {
          expect(Math.abs(read(f.format(v)) - v)).toBeLessThanOrEqual((hi - lo) / 200 + 1e-9 * magnitude);
          expect(Math.abs(f.value(v) - read(f.format(v)))).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(v)));
        }
      }),
    );
  });
});

describe("every printed number keeps its value", () => {
  it("gives a point small beside the page's largest three significant digits of its own", () => {
    // A fee series' spread: sub-dollar days (BTC 2025) up to a three-digit spike (a halving day's congestion).
    const fees = [0.35, 0.379, 0.2024, 0.394, 0.6712, 1.2473, 3.561, 13.69, 95.61, 326.74, 0.148];
    const { suffix, format } = seriesValueFormatter(fees);

    expect(suffix).toBe("");
    expect(fees.map(format)).toEqual(["0.350", "0.379", "0.202", "0.394", "0.671", "1.25", "3.56", "13.7", "95.6", "327", "0.148"]);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1e-3, max: 1e9, noNaN: true }), { minLength: 1, maxLength: 50 }), (values) => {
        const f = seriesValueFormatter(values);
        return values.every((x) => Math.abs(read(f.format(x)) - x) <= 0.005 * Math.abs(x));
      }),
    );
  });

  it("keeps counts whole", () => {
    expect([3, 5, 1_200, 0].map(seriesValueFormatter([3, 5, 1_200, 0]).format)).toEqual(["3", "5", "1200", "0"]);
  });

  it("writes a line of statistics in one scale, stepping up where a thousand of the page's is reached", () => {
    // A 60-day sum of 1-minute volumes beside points of tens of millions: $4.67T, never "$4,672,127M".
    const s = answerScale([26.1e6, 38.9e6, 202.4e6], { usd: true });
    expect(s.suffix).toBe("M"); // the points read as 26.1M
    expect(s.line([4.672127e12]).stat(4.672127e12)).toBe("$4.67T");
    // A line whose values reach a thousand of the points' scale takes its own: never "$25,280K".
    expect(s.line([25.28e6, 21.08e6]).stat(25.28e6)).toBe("$25.28M");
    expect(s.line([125e3, 300e3]).stat(125e3)).toBe("$0.125M");
    const windows = s.line([36.41e9, 384e9]);
    expect([windows.stat(36.41e9), windows.stat(384e9)]).toEqual(["$36.41B", "$384B"]);
  });
});

describe("sanitizeText", () => {
  it("removes controls, bidi and invisible characters and caps the length", () => {
    expect(sanitizeText("btc\u202Eusd\u202C")).toBe("btcusd");
    expect(sanitizeText("line1\nline2\r\n\tend")).toBe("line1 line2 end");
    expect(sanitizeText("ad\u200Bmin\u2066x\u2069")).toBe("adminx");
    expect(sanitizeText("tag\u{E0041}\u{E0042}s")).toBe("tags");
    expect(sanitizeText("bell\u0007 \u0085next")).toBe("bell next");
    expect(sanitizeText("e\u0301")).toBe("é");
    expect(sanitizeText("bad\uD800half")).toBe("bad\uFFFDhalf");
    expect(sanitizeText("abcdefghij", 5)).toBe("abcd…");
    expect(sanitizeText("😀😀😀😀", 3)).toBe("😀😀…");
    expect(sanitizeText(null)).toBe("");
    expect(sanitizeText(42)).toBe("42");
  });

  it("never lets a control or bidi character through and never exceeds the cap", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), fc.integer({ min: 1, max: 300 }), (s, max) => {
        const out = sanitizeText(s, max);
        expect(Array.from(out).length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/);
        expect(out).not.toMatch(/[\u{E0000}-\u{E007F}]/u);
      }),
    );
  });
});
