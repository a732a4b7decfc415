// The synthetic world sits at realistic levels: BTC/ETH anchors, metric ranges from public data.
import { describe, expect, it } from "vitest";

import { generateColumns, type SeriesQuery } from "../../../../src/backend/inprocess/readings/index.js";
import { dailyPrice } from "../../../../src/backend/inprocess/world/market/price.js";
import { monthEndDay, referenceOf } from "../../../../src/backend/inprocess/world/market/reference.js";
import { DAY_MS, endpointById, VENUES } from "../../../../src/catalog/index.js";

const at = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const day = (iso: string) => at(iso) / DAY_MS;

function series(id: string, from: string, to: string, extra: Partial<SeriesQuery> = {}): { times: Float64Array; values: Float64Array } {
  return generateColumns({ endpoint: endpointById(id)!, asset: "btc", timeframe: "1d", startMs: at(from), endMs: at(to), ...extra });
}

function valueOn(id: string, date: string, extra: Partial<SeriesQuery> = {}): number {
  return series(id, date, date, extra).values[0]!;
}

const near = (actual: number, expected: number, rel: number) =>
  expect(Math.abs(actual / expected - 1), `${actual} vs ${expected}`).toBeLessThan(rel);

describe("price anchors", () => {
  // The month-end closes now come from the reference anchors (scripts/market-anchors.ts), one per
  // month from listing; the year-end levels this test used to hard-code are among them.
  it("BTC closes at every month-end close of the anchors and 87,747.65 on 2025-12-28", () => {
    const btc = referenceOf("btc")!;
    expect(btc.closes.days.length).toBeGreaterThan(180);
    btc.closes.days.forEach((d, i) => near(dailyPrice("btc", d), Math.exp(btc.closes.logs[i]!), 1e-9));
    near(dailyPrice("btc", day("2025-12-28")), 87_747.65, 1e-12);
    near(dailyPrice("btc", day("2024-12-31")), 93_400, 0.02);
    near(dailyPrice("btc", day("2017-12-31")), 13_860, 0.05);
    near(dailyPrice("btc", monthEndDay("2021-11")), 57_000, 0.05);
  });

  it("BTC 2025: ATH ≈ $126k in early October, low ≈ $75k in April", () => {
    let max = 0;
    let maxDay = 0;
    let min = Infinity;
    let minDay = 0;
    for (let d = day("2025-01-01"); d <= day("2025-12-31"); d++) {
      const p = dailyPrice("btc", d);
      if (p > max) [max, maxDay] = [p, d];
      if (p < min) [min, minDay] = [p, d];
    }
    near(max, 126_080, 0.03);
    expect(new Date(maxDay * DAY_MS).toISOString().slice(0, 7)).toBe("2025-10");
    near(min, 75_000, 0.06);
    expect(new Date(minDay * DAY_MS).getUTCMonth()).toBeGreaterThanOrEqual(2);
    expect(new Date(minDay * DAY_MS).getUTCMonth()).toBeLessThanOrEqual(3);
  });

  it("ETH: year-end closes, ATH ≈ $4.9k in August 2025, ≈ $2,975 on 2025-12-20", () => {
    for (const [date, close] of [
      ["2017-12-31", 757],
      ["2020-12-31", 737],
      ["2022-12-31", 1196],
      ["2024-12-31", 3332],
    ] as const) {
      near(dailyPrice("eth", day(date)), close, 0.03);
    }
    near(dailyPrice("eth", day("2025-12-20")), 2975.46, 1e-9);
    let max = 0;
    let maxDay = 0;
    for (let d = day("2025-01-01"); d <= day("2025-12-31"); d++) if (dailyPrice("eth", d) > max) [max, maxDay] = [dailyPrice("eth", d), d];
    near(max, 4_900, 0.05);
    expect(new Date(maxDay * DAY_MS).toISOString().slice(0, 7)).toBe("2025-08");
  });

  it("past the last anchor the path stays bounded (2026–2030) and daily moves stay plausible", () => {
    for (let d = day("2026-01-01"); d <= day("2030-12-31"); d++) {
      const p = dailyPrice("btc", d);
      expect(p).toBeGreaterThan(40_000);
      expect(p).toBeLessThan(200_000);
      expect(Math.abs(Math.log(p / dailyPrice("btc", d - 1)))).toBeLessThan(0.2);
    }
  });

  it("stablecoins hold their peg, gold tokens follow gold, alts have positive prices", () => {
    for (let d = day("2023-01-01"); d <= day("2025-12-31"); d += 7) {
      near(dailyPrice("usdt", d), 1, 0.01);
      expect(dailyPrice("paxg", d)).toBeGreaterThan(1_600);
      expect(dailyPrice("paxg", d)).toBeLessThan(5_500);
      expect(dailyPrice("sol", d)).toBeGreaterThan(0);
    }
    near(dailyPrice("xaut", day("2025-12-26")), 4_480, 0.05);
  });
});

describe("on-chain metric levels (BTC, end of 2025)", () => {
  it("Lth_mvrv ≈ 2.3 on 2025-12-28, under 1 in each bear market's low and far above it at each top", () => {
    near(valueOn("lifespan/Lth_mvrv", "2025-12-28"), 2.3, 0.02);
    for (const v of series("lifespan/Lth_mvrv", "2010-07-18", "2026-12-31").values) expect(v > 0 && Number.isFinite(v)).toBe(true);
    const range = (from: string, to: string) => series("lifespan/Lth_mvrv", from, to).values;
    // Long-term holders underwater at the 2015, 2018 and 2022 lows; several times their cost at the tops.
    for (const [from, to] of [
      ["2014-12-01", "2015-09-30"],
      ["2018-11-01", "2019-03-31"],
      ["2022-06-01", "2023-01-31"],
    ] as const) {
      expect(Math.min(...range(from, to))).toBeLessThan(1);
    }
    for (const [from, to] of [
      ["2013-11-01", "2013-12-31"],
      ["2017-12-01", "2017-12-31"],
      ["2021-02-01", "2021-04-30"],
      ["2024-03-01", "2024-03-31"],
    ] as const) {
      expect(Math.max(...range(from, to))).toBeGreaterThan(3);
    }
  });

  it("DiffLast ≈ 1.4826e14 at 2025-12-28 and steps on 2,016-block epochs (about 14 days, varying) since 2022", () => {
    near(valueOn("mining/DiffLast", "2025-12-28"), 1.4826e14, 1e-6);
    const { values } = series("mining/DiffLast", "2022-01-01", "2027-06-30");
    const runs: number[] = [];
    let run = 1;
    for (let i = 1; i < values.length; i++) {
      if (values[i] === values[i - 1]) {
        run++;
        continue;
      }
      // Published retargets since 2022 ran -7.5 % to +10.3 %; block luck widens a simulated one by a few points.
      expect(Math.abs(values[i]! / values[i - 1]! - 1)).toBeLessThan(0.13);
      runs.push(run);
      run = 1;
    }
    const inner = runs.slice(1);
    expect(Math.min(...inner)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...inner)).toBeLessThanOrEqual(18);
    expect(new Set(inner).size).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBeGreaterThan(120);
  });

  it("difficulty grows with the price path over the years", () => {
    expect(valueOn("mining/DiffLast", "2025-06-01")).toBeGreaterThan(10 * valueOn("mining/DiffLast", "2019-06-01"));
  });

  it("hashprice ≈ 0.0374 USD/(TH/s)/day at the end of 2025, 0.03–0.07 through 2025", () => {
    near(valueOn("mining/RevHashRateUSD", "2025-12-28"), 0.0374, 0.04);
    for (const v of series("mining/RevHashRateUSD", "2025-01-01", "2025-12-31").values) {
      expect(v).toBeGreaterThan(0.03);
      expect(v).toBeLessThan(0.07);
    }
  });

  // CVDD is a floor fitted to the bottoms: it touches the Nov 2022 low ($15.8k) and so reads
  // ≈ $39k at the end of 2025 (public figures: $41.9k and $45.2k).
  it("CVDD is monotone, under the price, and ≈ $38–46k at the end of 2025", () => {
    const { values } = series("lifespan/Cvdd", "2011-01-01", "2026-06-30");
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
    const end = valueOn("lifespan/Cvdd", "2025-12-28");
    expect(end).toBeGreaterThan(38_000);
    expect(end).toBeLessThan(46_000);
  });

  it("exchange reserve ≈ 2.5M BTC drifting down, entities sum to the total", () => {
    near(valueOn("exchange_flow/exchange_reserve", "2025-12-28"), 2.506e6, 0.01);
    expect(valueOn("exchange_flow/exchange_reserve", "2024-06-01")).toBeGreaterThan(
      valueOn("exchange_flow/exchange_reserve", "2025-12-01"),
    );
    let sum = 0;
    for (const venue of VENUES) sum += valueOn("exchange_flow/exchange_reserve", "2025-12-28", { entityName: venue });
    near(sum, valueOn("exchange_flow/exchange_reserve", "2025-12-28"), 1e-9);
    const coinbase = valueOn("exchange_flow/exchange_reserve", "2025-12-28", { entityName: "coinbase" }) / sum;
    expect(coinbase).toBeGreaterThan(0.25);
    expect(coinbase).toBeLessThan(0.4);
  });

  it("running_total_usd accumulates net flow × price; entities sum to the total; it goes negative", () => {
    const total = valueOn("exchange_flow/running_total_usd", "2025-12-28");
    expect(total).toBeLessThan(0);
    expect(Math.abs(total)).toBeGreaterThan(5e9);
    expect(Math.abs(total)).toBeLessThan(80e9);
    let sum = 0;
    for (const venue of VENUES) sum += valueOn("exchange_flow/running_total_usd", "2025-12-28", { entityName: venue });
    near(sum, total, 1e-6);
    const { values } = series("exchange_flow/running_total_usd", "2025-06-01", "2025-12-31");
    const steps = values.slice(1).map((v, i) => Math.abs(v - values[i]!));
    const median = steps.sort((a, b) => a - b)[steps.length >> 1]!;
    expect(median).toBeGreaterThan(2e7);
    expect(median).toBeLessThan(2e9);
  });

  it("realized-cap impulse ≈ +0.4, fee ≈ $0.35, address counts near public figures", () => {
    const impulse = valueOn("market/Realized_cap_impulse_long_term", "2025-12-28");
    expect(impulse).toBeGreaterThan(0.3);
    expect(impulse).toBeLessThan(0.5);
    const fee = valueOn("fees/fee_price_usd", "2025-12-28");
    expect(fee).toBeGreaterThan(0.15);
    expect(fee).toBeLessThan(0.8);
    near(valueOn("addresses/AdrBalUSD1MCnt", "2025-12-28"), 148_000, 0.15);
    near(valueOn("addresses/addresses_count_range_gt_10M_USD", "2025-12-28"), 16_500, 0.2);
    near(valueOn("addresses/addresses_count_range_10_100", "2025-12-28"), 138_000, 0.1);
  });

  it("supply bands and holder cohorts are consistent with supply", () => {
    const supply = 19.97e6;
    near(valueOn("addresses_supply/SplyAdrBalNtv100", "2025-12-28"), 11.5e6, 0.1);
    const whales = valueOn("addresses_supply/SplyAdrBalNtv100K", "2025-12-28");
    expect(whales).toBeGreaterThan(0.3e6);
    expect(whales).toBeLessThan(0.8e6);
    const all = valueOn("addresses_supply/SplyAdrBal1in1B", "2025-12-28");
    expect(all).toBeGreaterThan(19.75e6);
    expect(all).toBeLessThan(supply);
    const lth = valueOn("holder_supply/lth_supply_in_profit", "2025-12-28");
    const sth = valueOn("holder_supply/sth_supply_in_profit", "2025-12-28");
    expect(lth).toBeGreaterThan(10e6);
    expect(lth).toBeLessThan(15e6);
    expect(sth).toBeGreaterThan(0.5e6);
    expect(sth).toBeLessThan(3e6);
    expect(lth + sth).toBeLessThan(supply);
    const lthCap = valueOn("market/lth_realized_cap", "2025-12-28");
    expect(lthCap).toBeGreaterThan(0.45e12);
    expect(lthCap).toBeLessThan(0.65e12);
    const loss = valueOn("market/invested_capital_in_loss", "2025-12-28");
    expect(loss).toBeGreaterThan(0.4e12);
    expect(loss).toBeLessThan(0.8e12);
    const band = valueOn("market/structural_support_lower_band", "2025-12-28");
    expect(band).toBeGreaterThan(35_000);
    expect(band).toBeLessThan(55_000);
  });
});
