// The dated facts of harness/truth/facts.ts stay what they claim to be: sourced, off every
// calibration point the market is built from, and never off by more than 5x.
import { describe, expect, it } from "vitest";
import { dayOf } from "../../src/backend/inprocess/world/anchors.js";
import {
  ceilingRowsOf,
  closesOf,
  difficultyPointsOf,
  feeLevelsOf,
  hashRatePointsOf,
  highsOf,
  wavesOf,
} from "../../src/backend/inprocess/world/market/calendar.js";
import { referenceOf } from "../../src/backend/inprocess/world/market/reference.js";
import { crashLowDays } from "../../src/backend/inprocess/world/market/extremes.js";
import { FACTS, FACT_SOURCES } from "../../harness/truth/facts.js";
import { scoreFacts } from "../../harness/truth/generalisation.js";

/** Days the market was built from for a fact's kind and asset. */
function calibrationDays(kind: string, asset: string): Set<number> {
  const days = new Set<number>();
  const add = (list: ArrayLike<number> | undefined) => Array.from(list ?? [], (d) => days.add(d));
  const ref = referenceOf(asset);
  if (kind === "close") {
    add(ref?.closes.days);
    add(closesOf(asset).map(([d]) => d));
  }
  // A record day's close is set from its high.
  if (kind === "close" || kind === "high") add(highsOf(asset).map(([d]) => d));
  if (kind === "high") add(ceilingRowsOf(asset).map(([d]) => d));
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
  return days;
}

describe("dated facts", () => {
  it("are at least 100, each with a named source, none on a calibration day", () => {
    expect(FACTS.length).toBeGreaterThanOrEqual(100);
    for (const [kind, asset, date, value, source] of FACTS) {
      expect(FACT_SOURCES[source], `${kind} ${asset} ${date}`).toBeTruthy();
      expect(value).toBeGreaterThan(0);
      expect(calibrationDays(kind, asset).has(dayOf(date)), `${kind} ${asset} ${date} is a calibration point`).toBe(false);
    }
  });

  it("are never served more than 5x off", () => {
    const { beyond5, misses } = scoreFacts();
    expect(beyond5, misses.join("; ")).toBe(0);
  });
});
