// Pegged prices: stablecoins hold $1 within their wobble except on the calendar's dated depegs, and
// wrapped coins track their coin within their basis except on its dated discounts, where both reach
// the published lows (anchors.json "depegs" and "wraps").
import { describe, expect, it } from "vitest";
import { DAY_MS } from "../src/catalog/index.js";
import { REF_DAY, dayOf } from "../src/backend/inprocess/data/anchors.js";
import { depegOf, wrapEventOf } from "../src/backend/inprocess/data/market/calendar.js";
import { WRAP_BAND } from "../src/backend/inprocess/data/market/peg.js";
import { candle, dailyPrice } from "../src/backend/inprocess/data/price.js";
import { profileOf } from "../src/backend/inprocess/data/profiles.js";

/** Days an event's rows touch (first to last instant). */
function eventDays(rows: ReadonlyArray<readonly [string, number]>): Set<number> {
  const days = new Set<number>();
  if (!rows.length) return days;
  const first = Math.floor(Date.parse(`${rows[0]![0]}:00Z`) / DAY_MS);
  const last = Math.floor(Date.parse(`${rows.at(-1)![0]}:00Z`) / DAY_MS);
  for (let d = first; d <= last; d++) days.add(d);
  return days;
}

const dayLow = (asset: string, day: number) => candle(asset, day * DAY_MS, (day + 1) * DAY_MS).low;

describe("stablecoins", () => {
  for (const asset of ["usdt", "usdc", "dai", "usdt_eth", "usdc_trx"]) {
    it(`${asset} closes within 0.3 % of $1 on every day outside its dated depeg`, () => {
      const event = eventDays(depegOf(profileOf(asset).base));
      let worst = 0;
      for (let day = profileOf(asset).inceptionDay; day <= REF_DAY + 365; day++) {
        if (event.has(day)) continue;
        worst = Math.max(worst, Math.abs(Math.log(dailyPrice(asset, day))));
      }
      expect(worst).toBeGreaterThan(0);
      expect(worst).toBeLessThan(0.003);
    });
  }

  it("print the published depeg lows on the days they happened", () => {
    for (const [asset, date, low] of [["usdc", "2023-03-11", 0.8774], ["dai", "2023-03-11", 0.8982], ["usdt", "2022-05-12", 0.95]] as const) {
      const day = dayOf(date);
      expect(dayLow(asset, day), `${asset} ${date}`).toBeLessThan(low * 1.01);
      expect(dayLow(asset, day), `${asset} ${date}`).toBeGreaterThan(low * 0.99);
      // The day before, still on the peg.
      expect(dayLow(asset, day - 2)).toBeGreaterThan(0.99);
    }
  });
});

describe("wrapped coins", () => {
  for (const [asset, base] of [["wbtc", "btc"], ["weth", "eth"], ["hbtc", "btc"]] as const) {
    it(`${asset} closes within its basis band of ${base} outside its dated discounts, and is not ${base} itself`, () => {
      const event = eventDays(wrapEventOf(asset));
      let worst = 0;
      let differs = 0;
      for (let day = profileOf(asset).inceptionDay; day <= REF_DAY + 365; day++) {
        if (event.has(day)) continue;
        const r = Math.log(dailyPrice(asset, day) / dailyPrice(base, day));
        worst = Math.max(worst, Math.abs(r));
        if (r !== 0) differs++;
      }
      expect(worst).toBeLessThanOrEqual(WRAP_BAND + 1e-12);
      expect(differs).toBeGreaterThan(100);
    });
  }

  it("WBTC traded at its published discount after FTX's collapse, its candles under BTC's", () => {
    const day = dayOf("2022-11-25");
    const ratio = dailyPrice("wbtc", day) / dailyPrice("btc", day);
    expect(ratio).toBeLessThan(0.992);
    expect(ratio).toBeGreaterThan(0.98);
    expect(dayLow("wbtc", day) / dayLow("btc", day)).toBeLessThan(0.995);
    // Back at par within its band a month on.
    const later = dayOf("2023-01-10");
    expect(Math.abs(Math.log(dailyPrice("wbtc", later) / dailyPrice("btc", later)))).toBeLessThanOrEqual(WRAP_BAND);
  });
});
