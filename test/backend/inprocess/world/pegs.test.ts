// Pegged prices: stablecoins hold $1 within their wobble except on the calendar's dated depegs, and
// wrapped coins track their coin within their basis except on its dated discounts, where both reach
// the published lows (anchors.json "depegs" and "wraps").
import { describe, expect, it } from "vitest";

import { dayOf, REF_DAY } from "../../../../src/backend/inprocess/world/levels.js";
import { depegEventOf, type PegEvents, WRAP_BAND, wrapEventOfAsset } from "../../../../src/backend/inprocess/world/market/peg.js";
import { candle, dailyPrice } from "../../../../src/backend/inprocess/world/market/price.js";
import { profileOf } from "../../../../src/backend/inprocess/world/profiles.js";
import { DAY_MS } from "../../../../src/catalog/index.js";

/** Whether a dated episode off the peg touches a day. */
const inEvent = (events: PegEvents | undefined, day: number) => events?.covers(day) === true;

const dayLow = (asset: string, day: number) => candle(asset, day * DAY_MS, (day + 1) * DAY_MS).low;

describe("stablecoins", () => {
  for (const asset of ["usdt", "usdc", "dai", "usdt_eth", "usdc_trx"]) {
    it(`${asset} closes within 0.3 % of $1 on every day outside its dated depeg`, () => {
      const event = depegEventOf(profileOf(asset).base);
      let worst = 0;
      for (let day = profileOf(asset).inceptionDay; day <= REF_DAY + 365; day++) {
        if (inEvent(event, day)) continue;
        worst = Math.max(worst, Math.abs(Math.log(dailyPrice(asset, day))));
      }
      expect(worst).toBeGreaterThan(0);
      expect(worst).toBeLessThan(0.003);
    });
  }

  it("print the published depeg lows on the days they happened", () => {
    for (const [asset, date, low] of [
      ["usdc", "2023-03-11", 0.8774],
      ["dai", "2023-03-11", 0.8982],
      ["usdt", "2022-05-12", 0.95],
      ["usdt", "2018-10-15", 0.925284],
    ] as const) {
      const day = dayOf(date);
      expect(dayLow(asset, day), `${asset} ${date}`).toBeLessThan(low * 1.01);
      expect(dayLow(asset, day), `${asset} ${date}`).toBeGreaterThan(low * 0.99);
      // Three days before, still on the peg.
      expect(dayLow(asset, day - 3)).toBeGreaterThan(0.99);
    }
  });

  it("DAI traded at its Black Thursday premium, and on its peg again after it", () => {
    const day = dayOf("2020-03-13");
    const high = candle("dai", day * DAY_MS, (day + 1) * DAY_MS).high;
    expect(high).toBeGreaterThan(1.09);
    expect(high).toBeLessThan(1.11);
    expect(Math.abs(Math.log(dailyPrice("dai", dayOf("2020-06-10"))))).toBeLessThan(0.003);
  });
});

describe("wrapped coins", () => {
  for (const [asset, base] of [
    ["wbtc", "btc"],
    ["weth", "eth"],
    ["hbtc", "btc"],
  ] as const) {
    it(`${asset} closes within its basis band of ${base} outside its dated discounts, and is not ${base} itself`, () => {
      const event = wrapEventOfAsset(asset);
      let worst = 0;
      let differs = 0;
      for (let day = profileOf(asset).inceptionDay; day <= REF_DAY + 365; day++) {
        if (inEvent(event, day)) continue;
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
