import fc from "fast-check";
import { encode } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";

import { randomWalk, rng } from "../../harness/summary-inputs.js";
import { DAY_MS, TIMEFRAME_MS } from "../../src/catalog/index.js";
import { seriesFromRecords } from "../../src/summary/series/records.js";
import { digestSeries, seriesDigestSchema } from "../../src/summary/series/series.js";
import { renderSeriesText, type SeriesTextMeta } from "../../src/summary/series/series-text.js";

const T0 = Date.UTC(2025, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const daily = (values: number[]) => ({ times: values.map((_, i) => T0 + i * DAY_MS), values });
const META: SeriesTextMeta = { metric: "derivatives/Volume_usd", asset: "btc", unit: "USD", field: "volume_usd", timeframe: "1m" };

describe("digestSeries statistics", () => {
  it("reports the true extremes with their times, mean and population stdev", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.constant(Number.NaN), fc.constant(Infinity)), {
          minLength: 1,
          maxLength: 300,
        }),
        (raw) => {
          const times = raw.map((_, i) => T0 + i * 3_600_000);
          const d = digestSeries(times, raw, { timeframeMs: 3_600_000 });
          // The digest writes -0 as 0, as JSON would.
          const finite = raw.map((v, i) => ({ v: v + 0, t: times[i]! })).filter((p) => Number.isFinite(p.v));
          expect(d.count).toBe(finite.length);
          expect(d.nonFinite).toBe(raw.length - finite.length);
          if (finite.length === 0) {
            expect(d.min).toBeNull();
            expect(d.points).toEqual([]);
            return;
          }
          const naiveMin = finite.reduce((a, b) => (b.v < a.v ? b : a));
          const naiveMax = finite.reduce((a, b) => (b.v > a.v ? b : a));
          expect(d.min).toEqual({ time: iso(naiveMin.t), value: naiveMin.v });
          expect(d.max).toEqual({ time: iso(naiveMax.t), value: naiveMax.v });
          const mean = finite.reduce((s, p) => s + p.v, 0) / finite.length;
          const stdev = Math.sqrt(finite.reduce((s, p) => s + (p.v - mean) ** 2, 0) / finite.length);
          expect(d.mean!).toBeCloseTo(mean, 3);
          expect(Math.abs(d.stdev! - stdev)).toBeLessThanOrEqual(1e-9 * Math.max(1, stdev));
          expect(d.first).toEqual({ time: iso(finite[0]!.t), value: finite[0]!.v });
          expect(d.last).toEqual({ time: iso(finite.at(-1)!.t), value: finite.at(-1)!.v });
          expect(() => seriesDigestSchema.parse(d)).not.toThrow();
          expect(JSON.parse(JSON.stringify(d))).toEqual(d);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("computes change, z-score and max drawdown on a hand-built series", () => {
    const { times, values } = daily([100, 120, 90, 110, 60, 130, 125]);
    const d = digestSeries(times, values, { timeframeMs: DAY_MS });
    expect(d.changePercent).toBeCloseTo(25, 10);
    expect(d.maxDrawdown).toEqual({
      percent: -50,
      peak: { time: iso(times[1]!), value: 120 },
      trough: { time: iso(times[4]!), value: 60 },
    });
    const mean = values.reduce((a, b) => a + b) / 7;
    const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / 7);
    expect(d.zScoreLast).toBeCloseTo((125 - mean) / sd, 10);
  });

  it("has no drawdown on a rising series and none at all without a positive value", () => {
    const up = daily([1, 2, 3, 4]);
    expect(digestSeries(up.times, up.values, { timeframeMs: DAY_MS }).maxDrawdown?.percent).toBe(0);
    const negative = daily([-5, -3, -8]);
    const d = digestSeries(negative.times, negative.values, { timeframeMs: DAY_MS });
    expect(d.maxDrawdown).toBeNull();
    // A percentage of a negative start means nothing: the change is stated in units.
    expect(d.changePercent).toBeNull();
    expect(d.change).toEqual({ absolute: -3, percent: null, measure: "percent" });
  });

  it("returns null change when the first value is 0 and null z-score for a constant series", () => {
    const zero = daily([0, 5, 7]);
    expect(digestSeries(zero.times, zero.values, { timeframeMs: DAY_MS }).changePercent).toBeNull();
    const flat = daily(Array.from({ length: 50 }, () => 0.1));
    const d = digestSeries(flat.times, flat.values, { timeframeMs: DAY_MS });
    expect(d.stdev).toBe(0);
    expect(d.mean).toBe(0.1);
    expect(d.zScoreLast).toBeNull();
  });

  it("handles zero and one point", () => {
    const empty = digestSeries([], [], { timeframeMs: DAY_MS });
    expect(empty.count).toBe(0);
    expect(empty.sampling).toEqual({ returned: 0, total: 0, method: "all" });
    expect(renderSeriesText(META, empty)).toContain("No data points");
    const one = digestSeries([T0], [42], { timeframeMs: DAY_MS });
    expect(one.first).toEqual(one.last);
    expect(one.stdev).toBe(0);
    expect(one.zScoreLast).toBeNull();
    expect(one.points).toEqual([{ time: iso(T0), value: 42 }]);
    expect(() => seriesDigestSchema.parse(one)).not.toThrow();
  });

  it("detects gaps in buckets of the timeframe, largest runs first", () => {
    const days = [0, 1, 2, 5, 6, 10, 11];
    const d = digestSeries(
      days.map((k) => T0 + k * DAY_MS),
      days.map((k) => k + 1),
      { timeframeMs: DAY_MS },
    );
    expect(d.gaps.missingBuckets).toBe(5);
    expect(d.gaps.runs).toBe(2);
    expect(d.gaps.largest).toEqual([
      { from: iso(T0 + 7 * DAY_MS), to: iso(T0 + 9 * DAY_MS), missing: 3 },
      { from: iso(T0 + 3 * DAY_MS), to: iso(T0 + 4 * DAY_MS), missing: 2 },
    ]);
    const full = digestSeries([T0, T0 + DAY_MS], [1, 2], { timeframeMs: DAY_MS });
    expect(full.gaps).toEqual({ missingBuckets: 0, runs: 0, largest: [] });
  });
});

describe("seriesFromRecords", () => {
  it("reads service records into times and values, turning bad entries into skipped NaNs", () => {
    const records = [
      { time: "2025-01-01T00:00:00.000Z", lth_mvrv: 1.5 },
      { time: "not a date", lth_mvrv: 1.6 },
      { time: "2025-01-03T00:00:00.000Z", lth_mvrv: "oops" },
      { time: "2025-01-04T00:00:00.000Z", lth_mvrv: 1.8 },
    ];
    const { times, values } = seriesFromRecords(records, "lth_mvrv");
    const d = digestSeries(times, values, { timeframeMs: DAY_MS });
    expect(d.count).toBe(2);
    expect(d.nonFinite).toBe(2);
    expect(d.points).toEqual([
      { time: records[0]!.time, value: 1.5 },
      { time: records[3]!.time, value: 1.8 },
    ]);
    expect(d.gaps).toMatchObject({ missingBuckets: 2, runs: 1 });
  });
});

describe("digestSeries sampling", () => {
  it("returns every point up to maxPoints and LTTB above it, keeping the extremes", () => {
    const small = randomWalk(120, 60_000);
    const all = digestSeries(small.times, small.values, { timeframeMs: 60_000, maxPoints: 120 });
    expect(all.sampling).toEqual({ returned: 120, total: 120, method: "all" });
    expect(all.points.map((p) => p.value)).toEqual(Array.from(small.values));

    const big = randomWalk(86_400, 60_000, 9);
    const d = digestSeries(big.times, big.values, { timeframeMs: 60_000, maxPoints: 300 });
    expect(d.sampling).toEqual({ returned: 300, total: 86_400, method: "lttb" });
    expect(d.points).toContainEqual(d.min);
    expect(d.points).toContainEqual(d.max);
    expect(d.points[0]).toEqual(d.first);
    expect(d.points.at(-1)).toEqual(d.last);
  });

  it("shows up to 120 points by default, fewer where each costs more tokens (a time of day, long values)", () => {
    const month = randomWalk(30, DAY_MS, 3, 87_000);
    expect(digestSeries(month.times, month.values, { timeframeMs: DAY_MS }).sampling.returned).toBe(30);
    const days = randomWalk(1_000, DAY_MS, 3, 87_000);
    const daily = digestSeries(days.times, days.values, { timeframeMs: DAY_MS }).sampling.returned;
    expect(daily).toBeLessThanOrEqual(120);
    const hourly = randomWalk(1_000, 3_600_000, 3, 87_000);
    const intraday = digestSeries(hourly.times, hourly.values, { timeframeMs: 3_600_000 }).sampling.returned;
    expect(intraday).toBeLessThan(daily);
    // Eight-digit decimals (0.0000148) cost more than five-digit prices: fewer points again, never under 40.
    const tiny = randomWalk(1_000, 3_600_000, 3, 1.5e-5);
    const fewer = digestSeries(tiny.times, tiny.values, { timeframeMs: 3_600_000 }).sampling.returned;
    expect(fewer).toBeLessThan(intraday);
    expect(fewer).toBeGreaterThanOrEqual(40);
  });

  it("clamps maxPoints to [4, 5000]", () => {
    const big = randomWalk(20_000, 60_000);
    expect(digestSeries(big.times, big.values, { timeframeMs: 60_000, maxPoints: 1 }).points).toHaveLength(4);
    expect(digestSeries(big.times, big.values, { timeframeMs: 60_000, maxPoints: 1e9 }).points).toHaveLength(5_000);
  });
});

describe("renderSeriesText", () => {
  const tokens = (s: string) => encode(s).length;

  it("stays within 1,500 tokens with the default 120 points for prices, huge values, ratios, gaps and NaNs", () => {
    const next = rng(5);
    const cases: Array<[SeriesTextMeta, Float64Array, Float64Array, number]> = [];
    const price = randomWalk(1_000, DAY_MS, 2);
    cases.push([{ ...META, timeframe: "1d" }, price.times, price.values, DAY_MS]);
    const diff = randomWalk(2_000, DAY_MS, 4, 1.48e14, Date.UTC(2020, 0, 1));
    cases.push([{ metric: "mining/DiffLast", asset: "btc", unit: "difficulty", field: "diffLast" }, diff.times, diff.values, DAY_MS]);
    const volume = randomWalk(5_000, 60_000, 6, 3.2e6);
    for (let i = 0; i < volume.values.length; i++) if (next() < 0.01) volume.values[i] = Number.NaN;
    const holes = volume.times.filter((_, i) => i % 500 > 20);
    cases.push([META, holes, volume.values.slice(0, holes.length), 60_000]);
    const mvrv = randomWalk(2_190, DAY_MS, 8, 1.7, Date.UTC(2020, 0, 1));
    mvrv.values[100] = Number.NaN;
    cases.push([
      { metric: "lifespan/Lth_mvrv", asset: "btc", unit: "ratio", field: "lth_mvrv", query: { startDate: "2020-01-01" } },
      mvrv.times,
      mvrv.values,
      DAY_MS,
    ]);
    for (const [meta, times, values, tf] of cases) {
      const text = renderSeriesText(meta, digestSeries(times, values, { timeframeMs: tf }));
      expect(tokens(text)).toBeLessThanOrEqual(1_500);
      expect(text).not.toMatch(/NaN|Infinity|undefined|\{|\[/);
    }
  });

  it("does not grow with the range: 86,400 one-minute points render within 1.3× the tokens of 1,440", () => {
    const oneDay = randomWalk(1_440, TIMEFRAME_MS["1m"], 11);
    const sixtyDays = randomWalk(86_400, TIMEFRAME_MS["1m"], 11);
    const a = tokens(renderSeriesText(META, digestSeries(oneDay.times, oneDay.values, { timeframeMs: 60_000 })));
    const b = tokens(renderSeriesText(META, digestSeries(sixtyDays.times, sixtyDays.values, { timeframeMs: 60_000 })));
    expect(b).toBeLessThanOrEqual(1.3 * a);
    expect(a).toBeLessThanOrEqual(1.3 * b);
  });

  it("states the statistics, the sampling and every returned point", () => {
    const { times, values } = daily([100, 120, 90, 110, 60, 130, 125]);
    const text = renderSeriesText(
      { ...META, timeframe: "1d", query: { startDate: "2025-01-01", endDate: undefined } },
      digestSeries(times, values, { timeframeMs: DAY_MS }),
    );
    expect(text).toContain("btc derivatives/Volume_usd (field volume_usd, unit USD, timeframe 1d) startDate=2025-01-01");
    expect(text).toContain("min $60 (2025-01-05); max $130 (2025-01-06)");
    expect(text).toContain("max drawdown -50.00 % (peak $120 (2025-01-02) → trough $60 (2025-01-05))");
    expect(text).toContain("change +25.00 %");
    expect(text).toContain("gaps: none between the first and last point");
    expect(text.split("\n").slice(-8)).toEqual(["2025-01:", "01 100", "02 120", "03 90", "04 110", "05 60", "06 130", "07 125"]);
    expect(text).toContain('points (all points) as "DD value" under YYYY-MM, UTC, values in USD:');
  });

  it("strips control and bidi characters from labels", () => {
    const { times, values } = daily([1, 2]);
    const text = renderSeriesText(
      { metric: "x\u202Eevil\ninjected", asset: "btc\u0000" },
      digestSeries(times, values, { timeframeMs: DAY_MS }),
    );
    expect(text.split("\n")[0]).toBe("btc xevil injected");
  });
});
