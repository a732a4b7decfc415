// All-time highs (anchors.json "highs"): each is the highest print of its day, and no daily close
// from that day to the reference day goes above it (each held since). A record of a coin's first
// three days of trading (a launch print) sets no close of its day: the day closes where the path
// between the anchors around it does, under the high.
import { describe, expect, it } from "vitest";

import { dayOf, REF_DAY } from "../../../../src/backend/inprocess/world/levels.js";
import file from "../../../../src/backend/inprocess/world/market/anchors.json" with { type: "json" };
import { highsOf } from "../../../../src/backend/inprocess/world/market/calendar.js";
import { candle, dailyPrice } from "../../../../src/backend/inprocess/world/market/price.js";
import { profileOf } from "../../../../src/backend/inprocess/world/profiles.js";
import { DAY_MS } from "../../../../src/catalog/index.js";

const ASSETS = Object.keys((file as { highs?: Record<string, unknown> }).highs ?? {}).filter((k) => k !== "about");

describe("all-time highs", () => {
  it("are published for at least a hundred assets", () => {
    expect(ASSETS.length).toBeGreaterThanOrEqual(100);
  });

  for (const asset of ASSETS) {
    it(`${asset} prints its all-time high on its day and never closes above it after`, () => {
      for (const [day, high] of highsOf(asset)) {
        const c = candle(asset, day * DAY_MS, (day + 1) * DAY_MS);
        expect(c.high, `${asset} day ${day}`).toBeGreaterThan(high * 0.99);
        expect(c.high, `${asset} day ${day}`).toBeLessThanOrEqual(high * 1.0001);
        let highest = 0;
        for (let d = day; d <= REF_DAY; d++) highest = Math.max(highest, dailyPrice(asset, d));
        expect(highest, `${asset} closes from day ${day}`).toBeLessThanOrEqual(high * 1.0001);
      }
    });
  }

  it("leaves the close of a launch print's day to the path: WLFI's first day closes under two thirds of its record", () => {
    const day = dayOf("2025-09-01");
    expect(profileOf("wlfi").inceptionDay).toBe(day);
    const [[recordDay, high]] = highsOf("wlfi") as [[number, number]];
    expect(recordDay).toBe(day);
    expect(dailyPrice("wlfi", day)).toBeLessThan((2 / 3) * high);
  });
});
