// Calibration of the latent market to its reference anchors, and no data before listing.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import fc from "fast-check";

import { checkFile } from "../../scripts/anchor-checks.js";
import { type AnchorFile, serialize } from "../../scripts/anchor-file.js";
import { candleColumns } from "../../src/backend/inprocess/readings/candles.js";
import { generateColumns, generateHeatmap, inceptionMs } from "../../src/backend/inprocess/readings/index.js";
import { supplyOf } from "../../src/backend/inprocess/world/circulation.js";
import { dailyPrice } from "../../src/backend/inprocess/world/market/price.js";
import { REFERENCE_TICKERS, referenceOf } from "../../src/backend/inprocess/world/market/reference.js";
import { profileOf } from "../../src/backend/inprocess/world/profiles.js";
import { DAY_MS, SET_A, SET_M1 } from "../../src/catalog/index.js";
import { type Check, ep, fmt, iso, NOW, REF, sample } from "./common.js";

export const calibrationMonthly: Check = {
  id: "closes-monthly",
  group: "calibration",
  claim: "month-end closes equal the anchors (within ×2) from listing through 2025, for every asset with monthly closes",
  run() {
    let worst = 1;
    let where = "";
    // Pegged and gold tokens follow their peg, not their closes: their deviation is reported apart.
    let worstPegged = 1;
    let points = 0;
    const assets = REFERENCE_TICKERS.filter((t) => referenceOf(t)!.monthly);
    for (const t of assets) {
      const ref = referenceOf(t)!;
      const pegged = ref.peg !== undefined;
      ref.closes.days.forEach((d, i) => {
        const r = dailyPrice(t, d) / Math.exp(ref.closes.logs[i]!);
        const dev = Math.max(r, 1 / r);
        points++;
        if (pegged) worstPegged = Math.max(worstPegged, dev);
        else if (dev > worst) [worst, where] = [dev, `${t} ${iso(d)}`];
      });
    }
    return {
      ok: Math.max(worst, worstPegged) <= 2 && assets.length >= 60,
      checked: `${assets.length} assets, ${points} month-end closes`,
      worst: `×${fmt(worst, 12)}${where && ` (${where})`}; pegged tokens (on their peg) ×${fmt(worstPegged, 4)}`,
    };
  },
};

export const calibrationAll: Check = {
  id: "closes-anchored",
  group: "calibration",
  claim: "every other anchored close (year-ends, mid-2025, Nov 2025) within ×2",
  run() {
    let worst = 1;
    let where = "";
    let points = 0;
    const assets = REFERENCE_TICKERS.filter((t) => !referenceOf(t)!.monthly);
    for (const t of assets) {
      const ref = referenceOf(t)!;
      ref.closes.days.forEach((d, i) => {
        const r = dailyPrice(t, d) / Math.exp(ref.closes.logs[i]!);
        points++;
        if (Math.max(r, 1 / r) > worst) [worst, where] = [Math.max(r, 1 / r), `${t} ${iso(d)}`];
      });
    }
    return { ok: worst <= 2, checked: `${assets.length} assets, ${points} closes`, worst: `×${fmt(worst, 12)}${where && ` (${where})`}` };
  },
};

export const anchorsRecord: Check = {
  id: "anchors-record",
  group: "invariant",
  claim:
    "anchors.json, the record of the reference anchors, passes the checks of scripts/market-anchors.ts (no spike, no supply path far from its reference, no supply above its maximum, valid months and sources) and is in the layout a merge writes",
  run() {
    const text = readFileSync(fileURLToPath(new URL("../../src/backend/inprocess/world/market/anchors.json", import.meta.url)), "utf8");
    const file = JSON.parse(text) as AnchorFile;
    const findings = checkFile(file);
    const errors = findings.filter((f) => f.level === "error");
    const layout = serialize(file) === text;
    return {
      ok: errors.length === 0 && layout,
      checked: `${Object.keys(file.assets).length} entries, ${file.sources.length} sources`,
      worst: `${errors.length} errors${
        errors.length
          ? ` (${errors
              .slice(0, 3)
              .map((e) => e.text)
              .join("; ")})`
          : ""
      }; ${findings.length - errors.length} to review; ${layout ? "layout as written" : "layout differs from what a merge writes"}`,
    };
  },
};

export const supplyPoints: Check = {
  id: "supply-points",
  group: "calibration",
  claim:
    "circulating supply equals the anchors' month-end supply points (within 0.1 %) for every anchored coin but BTC and ETH (whose supply is computed), before and after burns that lowered the maximum",
  run() {
    let worst = 1;
    let where = "";
    let points = 0;
    const assets = REFERENCE_TICKERS.filter(
      (t) => t !== "btc" && t !== "eth" && t !== "all_stablecoins" && profileOf(t).base === t && profileOf(t).supplyShare === 1,
    );
    for (const t of assets) {
      const ref = referenceOf(t)!;
      ref.supply.days.forEach((d, i) => {
        const r = supplyOf(t, d) / Math.exp(ref.supply.logs[i]!);
        points++;
        if (Math.max(r, 1 / r) > worst) [worst, where] = [Math.max(r, 1 / r), `${t} ${iso(d)}`];
      });
    }
    return {
      ok: worst <= 1.001,
      checked: `${assets.length} assets, ${points} supply points`,
      worst: `×${fmt(worst, 6)}${where && ` (${where})`}`,
    };
  },
};

export const calibrationRef: Check = {
  id: "reference-day",
  group: "calibration",
  claim:
    "price and supply on 2025-12-28 within ×10 of the reference for every ticker the catalog knows (variants: their slice of the base)",
  run() {
    let worst = 1;
    let where = "";
    const synthetic: string[] = [];
    let n = 0;
    for (const t of [...new Set([...SET_A, ...SET_M1])]) {
      const p = profileOf(t);
      if (!p.reference) {
        synthetic.push(t);
        continue;
      }
      const listedLater = p.inceptionDay > REF;
      const day = listedLater ? p.inceptionDay : Math.min(REF, p.endDay ?? REF);
      // A dead token's reference price is its last traded one; supply is dated on the reference day.
      const devs = [dailyPrice(t, day) / p.refPrice, supplyOf(t, Math.max(REF, p.inceptionDay)) / p.refSupply];
      n++;
      for (const r of devs) if (Math.max(r, 1 / r) > worst) [worst, where] = [Math.max(r, 1 / r), t];
    }
    return {
      ok: worst <= 10,
      checked: `${n} tickers (not anchored: ${synthetic.join(", ") || "none"})`,
      worst: `×${fmt(worst)} (${where})`,
    };
  },
};

export const beforeListing: Check = {
  id: "no-data-before-listing",
  group: "invariant",
  claim: "no series value, candle or heatmap column before an asset's listing day",
  run() {
    const assets = sample(fc.constantFrom(...SET_A), 40, 1);
    let heatmaps = 0;
    let bad = 0;
    for (const a of assets) {
      const listed = inceptionMs(a);
      for (const id of ["derivatives/Volume_usd", "spot/Trades"]) {
        const { times } = generateColumns({
          endpoint: ep(id),
          asset: a,
          timeframe: "1h",
          startMs: listed - 30 * DAY_MS,
          endMs: listed + DAY_MS,
        });
        if (times.length && times[0]! < listed) bad++;
      }
      if (candleColumns(a, DAY_MS, listed - 30 * DAY_MS, listed + 5 * DAY_MS, NOW).times.some((t) => t < listed)) bad++;
      // Heatmaps whose lookback reaches before the listing (the young assets): 1d over 2 years.
      if (listed < NOW - DAY_MS && listed > NOW - 700 * DAY_MS) {
        heatmaps++;
        const h = generateHeatmap({ asset: a, timeframe: "1d", lookback: "2y", scope: "all", nowMs: NOW });
        if (Date.parse(h.x[0]!) < listed) bad++;
      }
    }
    return {
      ok: bad === 0,
      checked: `${assets.length} assets of set A: OHLCV and candles; ${heatmaps} 2-year heatmaps of assets listed within them`,
      worst: `${bad} violations`,
    };
  },
};
