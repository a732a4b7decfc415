// The dated facts of harness/truth/facts.ts stay what they claim to be: sourced, off every
// calibration point the market is built from (month-ends, Sundays of the weekly closes, dated
// closes, highs, crash lows, fee and mining events, dated supply, pinned exchange totals and flows), and never off by
// more than 3x; the random days
// of the largest coins likewise off every anchor.
import { describe, expect, it } from "vitest";

import { ALL_FACT_SOURCES, ALL_FACTS, OPEN_FACTS } from "../../harness/truth/facts.js";
import { FACT_LIMIT, scoreFacts, served, TOLERANCE } from "../../harness/truth/generalisation.js";
import { DAY_TARGET, scoreDays } from "../../harness/truth/random-days.js";
import { RANDOM_DAYS } from "../../harness/truth/random-days-data.js";
import { reserveAnchorDays } from "../../src/backend/inprocess/world/circulation.js";
import { dayOf } from "../../src/backend/inprocess/world/levels.js";
import {
  ceilingRowsOf,
  closesOf,
  difficultyPointsOf,
  feeLevelsOf,
  hashRatePointsOf,
  highsOf,
  wavesOf,
  weeksOf,
} from "../../src/backend/inprocess/world/market/calendar.js";
import { flowsOf } from "../../src/backend/inprocess/world/market/calendar.js";
import { crashLowDays, peakDays } from "../../src/backend/inprocess/world/market/extremes.js";
import { referenceOf } from "../../src/backend/inprocess/world/market/reference.js";

/** Days the market was built from for a fact's kind and asset. */
function calibrationDays(kind: string, asset: string): Set<number> {
  const days = new Set<number>();
  const add = (list: ArrayLike<number> | undefined) => Array.from(list ?? [], (d) => days.add(d));
  const ref = referenceOf(asset);
  if (kind === "close" || kind === "minute") {
    add(ref?.closes.days);
    add(closesOf(asset).map(([d]) => d));
    const weeks = weeksOf(asset);
    if (weeks) add(weeks.closes.map((_, k) => weeks.from + 7 * k));
  }
  // A record day's close is set from its high.
  if (kind === "close" || kind === "minute" || kind === "high") add(highsOf(asset).map(([d]) => d));
  if (kind === "high") {
    add(ceilingRowsOf(asset).map(([d]) => d));
    add(peakDays(asset));
  }
  if (kind === "low") add(crashLowDays(asset));
  if (kind === "fee") {
    add(feeLevelsOf(asset)?.days);
    add(wavesOf(asset).map((w) => w.peakDay));
  }
  if (kind === "difficulty" || kind === "hashprice") {
    // A retarget's published level is read the day after it.
    add(difficultyPointsOf(asset)?.days.map((d) => d + 1));
    add(difficultyPointsOf(asset)?.days);
    add(hashRatePointsOf(asset)?.days);
  }
  if (kind === "supply") add(ref?.supply.days);
  if (kind === "reserve" || kind === "flow") {
    add(reserveAnchorDays(asset));
    for (const f of flowsOf(asset)) for (let d = f.from; d <= f.to; d++) days.add(d);
  }
  return days;
}

describe("dated facts", () => {
  it("are at least 100, each with a named source, none on a calibration day", () => {
    expect(ALL_FACTS.length).toBeGreaterThanOrEqual(100);
    for (const [kind, asset, date, value, source, scope] of [...ALL_FACTS, ...OPEN_FACTS]) {
      expect(ALL_FACT_SOURCES[source], `${kind} ${asset} ${date}`).toBeTruthy();
      // A net flow is signed (withdrawals negative); every other figure is a positive level.
      if (kind === "flow") expect(value).not.toBe(0);
      else expect(value).toBeGreaterThan(0);
      const calibration = calibrationDays(kind, asset);
      expect(calibration.has(dayOf(date)), `${kind} ${asset} ${date} is a calibration point`).toBe(false);
      if (scope?.from) expect(calibration.has(dayOf(scope.from)), `${kind} ${asset} from ${scope.from} is a calibration point`).toBe(false);
      // A price at a minute lies between the close of its day and the close of the day before.
      if (kind === "minute") {
        expect(scope?.at, `${asset} ${date}`).toMatch(/^\d{2}:\d{2}$/);
        expect(calibration.has(dayOf(date) - 1), `${kind} ${asset} ${date}: the day before is a calibration point`).toBe(false);
      }
    }
  });

  it("keep apart only facts the market does not follow yet: an open fact served within tolerance joins the score", () => {
    for (const fact of OPEN_FACTS) {
      const [kind, , , value] = fact;
      const r = served(fact) / value;
      expect(r > 0 && Math.max(r, 1 / r) <= TOLERANCE[kind], `${fact.slice(0, 3).join(" ")} is followed now`).toBe(false);
    }
  });

  it(`are never served more than ${FACT_LIMIT}x off`, () => {
    const { beyond, misses } = scoreFacts();
    expect(beyond, misses.join("; ")).toBe(0);
  });
});

describe("random days of the largest coins", () => {
  it("are twelve coins' 30 days each, none a calibration day of its coin", () => {
    expect(Object.keys(RANDOM_DAYS)).toHaveLength(12);
    for (const [coin, days] of Object.entries(RANDOM_DAYS)) {
      expect(days, coin).toHaveLength(30);
      for (const [date, close] of days) {
        expect(close).toBeGreaterThan(0);
        expect(calibrationDays("close", coin).has(dayOf(date)), `${coin} ${date} is a calibration point`).toBe(false);
        expect(calibrationDays("high", coin).has(dayOf(date)), `${coin} ${date} is a record day`).toBe(false);
      }
    }
  });

  it(`are served within 15 % (BTC, ETH) or 20 % of the published close on ${100 * DAY_TARGET} % of days or more`, () => {
    const { within, total } = scoreDays();
    expect(within / total).toBeGreaterThanOrEqual(DAY_TARGET);
  });
});
