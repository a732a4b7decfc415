// Statistics by a series' nature, windows, position, coverage and calendar resampling: pure
// functions against brute force, and the wording rules of the text view.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { DAY_MS } from "../../src/catalog/index.js";
import { answerScale, displayUnit } from "../../src/summary/format/scale.js";
import { changeOf, positionOf, signFlips, windowChanges } from "../../src/summary/series/nature.js";
import { coverageOf, parseDateArg } from "../../src/summary/series/range-coverage.js";
import { digestResampled, periodStart, resample, resampleProblem } from "../../src/summary/series/resample.js";
import { digestSeries, seriesDigestSchema } from "../../src/summary/series/series.js";
import { renderSeriesText } from "../../src/summary/series/series-text.js";

const T0 = Date.UTC(2024, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const days = (values: number[], start = T0) => ({ times: values.map((_, i) => start + i * DAY_MS), values });

describe("changeOf", () => {
  it("uses % for levels, counts and flows with a positive start, points for ratios, units otherwise", () => {
    expect(changeOf("level", 100, 125)).toEqual({ absolute: 25, percent: 25, measure: "percent" });
    expect(changeOf("count", 200, 150)).toEqual({ absolute: -50, percent: -25, measure: "percent" });
    expect(changeOf("level", -5, -8)).toEqual({ absolute: -3, percent: null, measure: "percent" });
    expect(changeOf("ratio", 1.5, 2.25)).toEqual({ absolute: 0.75, percent: null, measure: "points" });
    expect(changeOf("signed", -0.2, 0.3).percent).toBeNull();
    expect(changeOf("cumulative", 5e9, -2e9)).toEqual({ absolute: -7e9, percent: null, measure: "units" });
  });
});

describe("windowChanges", () => {
  const walk = (n: number, seed: number, base = 100) => {
    let x = base;
    let s = seed;
    return Array.from({ length: n }, () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      x = Math.max(1, x * (1 + (s / 2 ** 31 - 0.5) * 0.1));
      return x;
    });
  };

  it("measures stocks from the last bucket at or before each window's start, YTD from the previous year's last", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 900 }), fc.integer({ min: 0, max: 2 ** 30 }), (n, seed) => {
        const { times, values } = days(walk(n, seed), Date.UTC(2024, 5, 1));
        const lastT = times[n - 1]!;
        const got = windowChanges(times, values, "level", DAY_MS);
        const spans: Record<string, number> = { "1d": 1, "7d": 7, "30d": 30, "90d": 90, "1y": 365 };
        for (const [name, span] of Object.entries(spans)) {
          const w = got.find((x) => x.window === name);
          const ref = n - 1 - span;
          if (ref < 0) expect(w).toBeUndefined();
          else expect(w).toEqual({ window: name, since: iso(times[ref]!), change: changeOf("level", values[ref]!, values[n - 1]!) });
        }
        const yearStart = Date.UTC(new Date(lastT).getUTCFullYear(), 0, 1);
        const before = times.filter((t) => t < yearStart);
        const ytd = got.find((x) => x.window === "YTD");
        if (before.length === 0) expect(ytd).toBeUndefined();
        else expect(ytd!.since).toBe(iso(before.at(-1)!));
      }),
      { numRuns: 100 },
    );
  });

  it("sums flows over the window and compares with the equal window before", () => {
    const values = walk(400, 7, 1e9);
    const { times } = days(values);
    const got = windowChanges(times, values, "flow", DAY_MS);
    expect(got.find((w) => w.window === "1d")).toBeUndefined();
    for (const [name, span] of [
      ["7d", 7],
      ["30d", 30],
      ["90d", 90],
    ] as const) {
      const w = got.find((x) => x.window === name)!;
      const sum = values.slice(-span).reduce((a, b) => a + b, 0);
      const prior = values.slice(-2 * span, -span).reduce((a, b) => a + b, 0);
      expect(w.sum).toBeCloseTo(sum, 0);
      expect(w.priorSum).toBeCloseTo(prior, 0);
      expect(w.percent).toBeCloseTo(((sum - prior) / prior) * 100, 9);
      expect(w.since).toBe(iso(times[400 - span]!));
    }
    const year = got.find((x) => x.window === "1y")!;
    expect(year.priorSum).toBeNull();
    expect(year.percent).toBeNull();
  });
});

describe("positionOf and signFlips", () => {
  it("finds the percentile, the peak and when the series was last this high or low (brute force)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 2, maxLength: 200 }), (values) => {
        const { times } = days(values);
        const p = positionOf(times, values, "signed")!;
        const last = values.at(-1)!;
        expect(p.percentile).toBeCloseTo((values.filter((v) => v <= last).length / values.length) * 100, 9);
        const peak = values.indexOf(Math.max(...values));
        expect(p.fromPeak).toMatchObject({ absolute: last - values[peak]!, percent: null, peakTime: iso(times[peak]!) });
        const earlier = values.slice(0, -1);
        const above = earlier
          .map((v, i) => (v >= last ? i : -1))
          .filter((i) => i >= 0)
          .at(-1);
        const below = earlier
          .map((v, i) => (v <= last ? i : -1))
          .filter((i) => i >= 0)
          .at(-1);
        expect(p.lastAtOrAbove).toBe(above === undefined ? null : iso(times[above]!));
        expect(p.lastAtOrBelow).toBe(below === undefined ? null : iso(times[below]!));
      }),
    );
  });

  it("counts sign flips across zeros", () => {
    expect(signFlips([1, 2, -1, 0, -3, 4, 0, 5])).toEqual({ flips: 2, lastIndex: 5 });
    expect(signFlips([0, 0, 3])).toEqual({ flips: 0, lastIndex: null });
  });
});

describe("resample", () => {
  it("buckets into UTC weeks from Monday and calendar months: sums for flows, last values otherwise", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom("1w" as const, "1M" as const),
        (offset, n, period) => {
          const start = Date.UTC(2020, 0, 1) + offset * DAY_MS;
          const values = Array.from({ length: n }, (_, i) => (i * 7919) % 101);
          const { times } = days(values, start);
          const flow = resample(times, values, "flow", period, DAY_MS);
          const level = resample(times, values, "level", period, DAY_MS);
          const groups = new Map<number, number[]>();
          times.forEach((t, i) => groups.set(periodStart(t, period), [...(groups.get(periodStart(t, period)) ?? []), values[i]!]));
          expect([...flow.times]).toEqual([...groups.keys()]);
          expect([...flow.values]).toEqual([...groups.values()].map((g) => g.reduce((a, b) => a + b, 0)));
          expect([...level.values]).toEqual([...groups.values()].map((g) => g.at(-1)));
          for (const t of flow.times) {
            const d = new Date(t);
            if (period === "1w") expect(d.getUTCDay()).toBe(1);
            else expect(d.getUTCDate()).toBe(1);
            expect(t % DAY_MS).toBe(0);
          }
          expect(flow.partialFirst).toBe(start > flow.times[0]!);
          expect(flow.values.reduce((a, b) => a + b, 0)).toBe(values.reduce((a, b) => a + b, 0));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("marks the last bucket partial when the data or the clock stops inside it", () => {
    // 2025-12-01 (Monday) to 2025-12-14 (Sunday): two whole weeks.
    const { times, values } = days(
      Array.from({ length: 14 }, () => 1),
      Date.UTC(2025, 11, 1),
    );
    expect(resample(times, values, "flow", "1w", DAY_MS)).toMatchObject({ partialFirst: false, partialLast: false });
    expect(resample(times, values, "flow", "1w", DAY_MS, Date.UTC(2025, 11, 14, 12)).partialLast).toBe(true);
    expect(resample(times.slice(0, 10), values.slice(0, 10), "flow", "1w", DAY_MS).partialLast).toBe(true);
    expect(resample(times.slice(2), values.slice(2), "flow", "1w", DAY_MS).partialFirst).toBe(true);
  });

  it("digests the calendar buckets, counting the skipped points of the series as served", () => {
    const values = Array.from({ length: 60 }, (_, i) => (i === 10 ? Number.NaN : 100 + i));
    const { times } = days(values, Date.UTC(2025, 0, 6));
    const d = digestResampled(times, values, "1w", { timeframeMs: DAY_MS, nature: "level" });
    expect(d.nonFinite).toBe(1);
    expect(d.resample).toMatchObject({ period: "1w", rule: "last", sourceCount: 59, partialFirst: false, partialLast: true });
    expect(d.points.map((p) => p.value)).toEqual([106, 113, 120, 127, 134, 141, 148, 155, 159]);
    // Statistics of every point, as without resample: first, last and extremes are days, not weeks.
    expect(d.count).toBe(59);
    expect([d.first!.value, d.last!.value, d.min!.value, d.max!.value]).toEqual([100, 159, 100, 159]);
    expect(d.mean).toBeCloseTo(values.filter(Number.isFinite).reduce((a, b) => a + b, 0) / 59, 9);
    expect(renderSeriesText({ metric: "m/x", asset: "btc" }, d)).toContain(
      "59 points, statistics from all of them; the points shown are 9 weekly buckets (UTC weeks from Monday, dated by their first day; each its last point's value), 2025-01-06 → 2025-03-06 UTC; last bucket partial; 1 non-finite values skipped",
    );
  });

  it("refuses what it cannot aggregate, naming the fix", () => {
    expect(resampleProblem("1w", DAY_MS)).toBeNull();
    expect(resampleProblem("1M", 60_000)).toBeNull();
    expect(resampleProblem("1w", 7 * DAY_MS)).toMatch(/not coarser.*drop resample/);
    expect(resampleProblem("1M", 31 * DAY_MS)).toMatch(/not coarser/);
    expect(resampleProblem("1w", 5 * 3_600_000)).toMatch(/divide a day evenly/);
  });
});

describe("coverageOf", () => {
  it("states the share of the asked range with data, an ended history and a partial last bucket", () => {
    const c = coverageOf({
      dataFromMs: Date.UTC(2024, 2, 1),
      dataToMs: Date.UTC(2025, 11, 28),
      timeframeMs: DAY_MS,
      requestedFromMs: Date.UTC(2019, 11, 29),
      asOfMs: Date.UTC(2025, 11, 28, 12),
    });
    expect(c.percent).toBeCloseTo((668 / 2192) * 100, 6);
    expect(c.partialLastAsOf).toBe("2025-12-28T12:00:00.000Z");
    expect(c.endedAt).toBeNull();
    const ended = coverageOf({
      dataFromMs: Date.UTC(2022, 0, 1),
      dataToMs: Date.UTC(2022, 8, 15),
      timeframeMs: DAY_MS,
      extent: { firstMs: Date.UTC(2015, 7, 7), lastMs: Date.UTC(2022, 8, 15) },
      asOfMs: Date.UTC(2025, 11, 28),
    });
    expect(ended).toMatchObject({ endedAt: "2022-09-15T00:00:00.000Z", partialLastAsOf: null, historyFrom: "2015-08-07T00:00:00.000Z" });
    expect(parseDateArg("2025-01-02")).toBe(Date.UTC(2025, 0, 2));
    expect(parseDateArg("nope")).toBeUndefined();
    // Read as the service reads it (catalog/dates.ts): a date-time without a zone is UTC, an offset counts,
    // an impossible day or a form the service refuses is no date.
    expect(parseDateArg("2025-06-01T12:30:00")).toBe(Date.UTC(2025, 5, 1, 12, 30));
    expect(parseDateArg("2025-06-01T12:30:00+02:00")).toBe(Date.UTC(2025, 5, 1, 10, 30));
    expect(parseDateArg("2025-02-30")).toBeUndefined();
    expect(parseDateArg("2025/01/02")).toBeUndefined();
  });
});

describe("wording rules hold on any series", () => {
  it("no % or drawdown where the nature forbids them, whatever the values", () => {
    const natures = ["level", "flow", "signed", "cumulative", "ratio", "count"] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...natures),
        fc.array(fc.double({ min: -1e12, max: 1e12, noNaN: true }), { minLength: 2, maxLength: 400 }),
        fc.constantFrom(60_000, 3_600_000, DAY_MS),
        (nature, raw, tf) => {
          const values = nature === "flow" || nature === "level" || nature === "count" ? raw.map(Math.abs) : raw;
          const times = values.map((_, i) => T0 + i * tf);
          const d = digestSeries(times, values, { timeframeMs: tf, nature });
          expect(() => seriesDigestSchema.parse(d)).not.toThrow();
          const t = renderSeriesText({ metric: "m/x", asset: "btc", unit: nature === "ratio" ? "ratio" : "USD" }, d);
          expect(t).not.toMatch(/NaN|Infinity|undefined/);
          if (nature !== "level" && nature !== "count") expect(t).not.toMatch(/drawdown/);
          if (nature === "signed" || nature === "cumulative" || nature === "ratio") expect(t).not.toMatch(/\d %/);
          if (nature === "flow") expect(t).not.toMatch(/^first /m);
          if (nature === "ratio") expect(t).toMatch(/change [+-]?[\d.,e-]+[KMBT]? pt/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("renderSeriesText wording by nature", () => {
  const text = (
    nature: Parameters<typeof digestSeries>[2]["nature"],
    values: number[],
    extra: Partial<Parameters<typeof digestSeries>[2]> = {},
    unit = "USD",
  ) =>
    renderSeriesText(
      { metric: "m/x", asset: "btc", unit },
      digestSeries(days(values).times, values, { timeframeMs: DAY_MS, nature, ...extra }),
    );

  it("never gives a % change or a drawdown for a signed series; states net change and sign flips", () => {
    const t = text("signed", [0.4, 0.2, -0.1, -0.3, 0.1, 0.05], {}, "ratio");
    expect(t).toContain("net change -0.35 (units: the series crosses zero, so no %)");
    expect(t).toContain("sign flips: 2, latest 2024-01-05 (to positive)");
    expect(t).not.toMatch(/drawdown|change [+-][\d.]+ %|\d %/);
  });

  it("sums a flow: total, mean and peak bucket, windows as sums, no first→last change, no drawdown", () => {
    const values = Array.from({ length: 60 }, (_, i) => 1e9 + ((i * 37) % 11) * 1e8);
    const t = text("flow", values);
    const sum = values.reduce((a, b) => a + b, 0);
    expect(sum).toBe(89.3e9);
    // The points read in B; the sum in the same scale, never "$89,300M".
    expect(answerScale(values, { usd: true }).suffix).toBe("B");
    expect(t).toContain("sum $89.30B over 60 buckets");
    expect(t).toMatch(/peak bucket \$[\d,.]+[KMBT]? \(2024-01-0\d\)/);
    expect(t).toMatch(/windows \(sum; % vs the window before\): 7d \$[\d,.]+[KMBT]? \([+-][\d.]+ %\), 30d/);
    expect(t).not.toMatch(/drawdown|first .*last .*change/);
  });

  it("gives a running total its net change over the range, without % or drawdown", () => {
    const t = text("cumulative", [5e9, 6e9, 2e9, -1e9, -3e9]);
    expect(t).toMatch(/net change -\$[\d,.]+[MB] \(the net flow over the range\)/);
    expect(t).not.toMatch(/drawdown|\d %/);
  });

  it("says a flow of zeros matched nothing, without windows or percentiles", () => {
    const t = text("flow", [0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(t).toContain("all 9 buckets are 0: nothing matched these filters (exchange, symbol, market_type) in this range");
    expect(t).not.toMatch(/windows|percentile|sum \$/);
  });

  it("says where the history begins inside the default range", () => {
    const t = text("level", [3, 4, 5], { extent: { firstMs: T0, lastMs: T0 + 2 * DAY_MS } });
    expect(t).toContain("coverage: the series starts 2024-01-01 (no earlier data)");
  });

  it("gives a ratio its change in points", () => {
    expect(text("ratio", [1.5, 1.7, 2.25], {}, "ratio")).toContain("change +0.75 pt");
  });

  it("says where a series ended and that the last bucket is partial", () => {
    const ended = text("level", [3, 4, 5], { extent: { firstMs: T0 - 100 * DAY_MS, lastMs: T0 + 2 * DAY_MS }, asOfMs: T0 + 800 * DAY_MS });
    expect(ended).toContain("the series ended 2024-01-03 (no data after)");
    expect(ended).toContain("data ends 2024-01-03; the range asked ends 2026-03-11");
    const partial = text("flow", [3, 4, 5], { asOfMs: T0 + 2 * DAY_MS + 9 * 3_600_000 });
    // The bucket still filling is named apart and is in no statistic: not the last, not the smallest, not in the sum.
    expect(partial).toContain(
      "the bucket 2024-01-03 is still filling: $5 with data up to 2024-01-03 09:00 UTC, left out of every statistic and window",
    );
    expect(partial).toContain("sum $7 over 2 complete buckets");
    expect(partial).toContain("smallest $3 (2024-01-01); last complete bucket $4 (2024-01-02)");
    expect(partial).toContain("last complete bucket at percentile 100");
    const tiny = text("flow", [3, 4, 0.5], { asOfMs: T0 + 2 * DAY_MS + 9 * 3_600_000 });
    expect(tiny).toContain("smallest $3 (2024-01-01)");
    // Windows of a flow with a partial last bucket cover complete buckets only.
    const flows = Array.from({ length: 20 }, (_, i) => 10 + i);
    const d = digestSeries(days(flows).times, flows, { timeframeMs: DAY_MS, nature: "flow", asOfMs: T0 + 19 * DAY_MS + 3_600_000 });
    const w7 = d.windows.find((w) => w.window === "7d")!;
    expect(w7.sum).toBe(flows.slice(12, 19).reduce((a, b) => a + b, 0));
    expect(w7.priorSum).toBe(flows.slice(5, 12).reduce((a, b) => a + b, 0));
    expect(renderSeriesText({ metric: "m/x", asset: "btc" }, d)).toContain(
      "windows (complete buckets only, sum; % vs the window before): 7d",
    );
  });

  it("says how much of the asked range has data, and never that every bucket is present", () => {
    const t = text("level", [3, 4, 5], {
      requestedFromMs: T0 - 97 * DAY_MS,
      requestedToMs: T0 + 2 * DAY_MS,
      extent: { firstMs: T0, lastMs: T0 + 2 * DAY_MS },
    });
    expect(t).toContain(
      "coverage: data from 2024-01-01; the range asked starts 2023-09-26 (the series starts there); 3 % of the range asked has data",
    );
    expect(t).not.toContain("bucket present");
  });

  it("answers an empty range with where the history lies", () => {
    const d = digestSeries([], [], {
      timeframeMs: DAY_MS,
      nature: "level",
      extent: { firstMs: Date.UTC(2015, 7, 7), lastMs: Date.UTC(2022, 8, 15) },
      asOfMs: Date.UTC(2025, 11, 28),
    });
    expect(() => seriesDigestSchema.parse(d)).not.toThrow();
    const t = renderSeriesText({ metric: "mining/RevHashRateUSD", asset: "eth" }, d);
    expect(t).toContain("No data points in the requested range.");
    expect(t).toContain("The series has data from 2015-08-07 to 2022-09-15 (it ended 2022-09-15): ask startDate/endDate within that span.");
  });

  it("writes every line of statistics in one scale and names the coin", () => {
    const values = Array.from({ length: 50 }, (_, i) => 465_604.61 + i * 310_000);
    const t = renderSeriesText(
      { metric: "exchange_flow/exchange_reserve", asset: "eth", unit: displayUnit("native units", "eth") },
      digestSeries(days(values).times, values, { timeframeMs: DAY_MS }),
    );
    expect(t).toContain("unit ETH");
    expect(t).not.toContain("native");
    // One scale per line, and none beyond a thousand of its suffix.
    for (const line of t.split("\n").slice(1, 8)) {
      expect(new Set([...line.matchAll(/\d([KMBT])\b/g)].map((m) => m[1])).size).toBeLessThanOrEqual(1);
      expect(line).not.toMatch(/\d,\d{3}(\.\d+)?[KMBT]\b/);
    }
    // Each point carries its suffix: the header names the unit alone.
    expect(t).toMatch(/values in ETH:/);
    expect(t).toMatch(/^01 [\d.]+M$/m);
  });
});
