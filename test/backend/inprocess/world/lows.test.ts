// All-time lows (anchors.json "atls"): each prints on its day at about its minute, no minute of that
// day trades below it, and no daily close from the listing to the day it still held goes below it.
import { describe, expect, it } from "vitest";

import { dayOf } from "../../../../src/backend/inprocess/world/levels.js";
import file from "../../../../src/backend/inprocess/world/market/anchors.json" with { type: "json" };
import { allTimeLowsOf } from "../../../../src/backend/inprocess/world/market/calendar.js";
import { candle, dailyPrice } from "../../../../src/backend/inprocess/world/market/price.js";
import { profileOf } from "../../../../src/backend/inprocess/world/profiles.js";
import { DAY_MS } from "../../../../src/catalog/index.js";

const ASSETS = Object.keys((file as { atls?: Record<string, unknown> }).atls ?? {}).filter((k) => k !== "about");
const HOUR_MS = 3_600_000;

describe("all-time lows", () => {
  it("are published for at least twenty assets", () => {
    expect(ASSETS.length).toBeGreaterThanOrEqual(20);
  });

  for (const asset of ASSETS) {
    it(`${asset} prints its all-time low on its day and never closes below it until it no longer held`, () => {
      for (const [instant, low, held] of allTimeLowsOf(asset)) {
        const day = dayOf(instant.slice(0, 10));
        const ms = Date.parse(`${instant}:00Z`);
        const dayLow = candle(asset, day * DAY_MS, (day + 1) * DAY_MS).low;
        expect(dayLow, `${asset} ${instant}`).toBeGreaterThanOrEqual(low * 0.9999);
        expect(dayLow, `${asset} ${instant}`).toBeLessThan(low * 1.01);
        // The hour of the low holds it.
        const hour = Math.floor(ms / HOUR_MS) * HOUR_MS;
        expect(candle(asset, hour, hour + HOUR_MS).low, `${asset} ${instant} hour`).toBeLessThan(low * 1.01);
        let lowest = Infinity;
        for (let d = profileOf(asset).inceptionDay; d <= dayOf(held); d++) lowest = Math.min(lowest, dailyPrice(asset, d));
        expect(lowest, `${asset} closes to ${held}`).toBeGreaterThanOrEqual(low * 0.9999);
      }
    });
  }
});
