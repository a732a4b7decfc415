// Exchange reserves by venue: each dated flow of anchors.json ("flows") moves its venue on its days,
// in its direction and by its published size; the venues always sum to the total and never go
// negative; nothing moves before a flow, and the published totals that pin BTC's and ETH's reserve
// still hold on their days.
import { describe, expect, it } from "vitest";

import { exchangeReserve, runningTotalUsd } from "../../../../src/backend/inprocess/readings/onchain.js";
import { reserveAnchorDays, reserveOf, reserveTable } from "../../../../src/backend/inprocess/world/circulation.js";
import { exchangeTotal } from "../../../../src/backend/inprocess/world/custody.js";
import { dayOf } from "../../../../src/backend/inprocess/world/levels.js";
import { flowsOf } from "../../../../src/backend/inprocess/world/market/calendar.js";
import { dailyPrice } from "../../../../src/backend/inprocess/world/market/price.js";
import { VENUES } from "../../../../src/catalog/index.js";

const COINS = ["btc", "eth"] as const;

describe("dated flows", () => {
  it("the calendar has flows for BTC and ETH, each at a catalog venue", () => {
    for (const coin of COINS) {
      expect(flowsOf(coin).length, coin).toBeGreaterThan(0);
      for (const f of flowsOf(coin)) expect(VENUES as readonly string[]).toContain(f.venue);
    }
  });

  for (const coin of COINS) {
    it(`${coin}: each flow moves its venue on its days by the published amount, in its direction`, () => {
      for (const f of flowsOf(coin)) {
        let published = 0;
        for (let d = f.from; d <= f.to; d++)
          published += f.unit === "native" ? f.amount / (f.to - f.from + 1) : f.amount / (f.to - f.from + 1) / dailyPrice(coin, d);
        const moved = exchangeReserve(coin, f.to, f.venue) - exchangeReserve(coin, f.from - 1, f.venue);
        const where = `${coin} ${f.venue} ${new Date(f.from * 864e5).toISOString().slice(0, 10)}`;
        expect(Math.sign(moved), where).toBe(Math.sign(published));
        // The venue's own drift over the same days comes on top: a few hundredths of its holdings at most.
        const drift = 0.03 * exchangeReserve(coin, f.from - 1, f.venue) * Math.sqrt(f.to - f.from + 1);
        expect(Math.abs(moved - published), where).toBeLessThan(0.1 * Math.abs(published) + drift);
      }
    });
  }

  it("the venues sum to the total and none goes negative, through and after the flows", () => {
    for (const coin of COINS) {
      for (let day = dayOf("2022-12-01"); day <= dayOf("2026-06-30"); day += 7) {
        const total = exchangeReserve(coin, day, "all");
        let sum = 0;
        for (const venue of VENUES) {
          const v = exchangeReserve(coin, day, venue);
          expect(v).toBeGreaterThanOrEqual(0);
          sum += v;
        }
        expect(Math.abs(sum / total - 1), `${coin} day ${day}`).toBeLessThan(1e-9);
      }
    }
  });

  it("nothing moves before a coin's first flow, and other coins' reserves are the drift alone", () => {
    for (const coin of COINS) {
      const first = flowsOf(coin)[0]!.from;
      for (let day = first - 400; day < first; day += 3) expect(exchangeTotal(coin, day)).toBe(reserveOf(coin, day));
    }
    for (const coin of ["usdt", "usdc", "xrp", "link"])
      for (let day = dayOf("2022-01-01"); day <= dayOf("2025-12-31"); day += 11)
        expect(exchangeTotal(coin, day)).toBe(reserveOf(coin, day));
  });

  it("the published totals of BTC and ETH still hold on their days", () => {
    for (const coin of COINS) {
      const table = reserveTable(coin)!;
      expect(reserveAnchorDays(coin)).toBe(table.days);
      table.days.forEach((day, i) => {
        if (day < dayOf("2022-01-01")) return;
        expect(Math.abs(exchangeTotal(coin, day) / Math.exp(table.logs[i]!) - 1), `${coin} day ${day}`).toBeLessThan(0.005);
      });
    }
  });

  it("running_total_usd steps by the flow × price on a one-day flow", () => {
    const f = flowsOf("btc").find((x) => x.venue === "kraken")!;
    const step = runningTotalUsd("btc", f.from, "kraken") - runningTotalUsd("btc", f.from - 1, "kraken");
    const moved = exchangeReserve("btc", f.from, "kraken") - exchangeReserve("btc", f.from - 1, "kraken");
    expect(step).toBeCloseTo(moved * dailyPrice("btc", f.from), 0);
    expect(step).toBeGreaterThan(0.9 * f.amount * dailyPrice("btc", f.from));
  });
});
