// Invariants of the on-chain readings: nested balance bands that move with some independence,
// hashprice per algorithm, independent address counts, host-chain coverage.
import fc from "fast-check";

import { generateVariation, seriesExtent } from "../../src/backend/inprocess/readings/index.js";
import { supplyOf } from "../../src/backend/inprocess/world/circulation.js";
import { profileOf } from "../../src/backend/inprocess/world/profiles.js";
import { DAY_MS, SET_M1 } from "../../src/catalog/index.js";
import { type Check, ep, fmt, iso, NOW, REF, sample, values } from "./common.js";

export const bands: Check = {
  id: "balance-bands",
  group: "invariant",
  claim: "supply ≥ 100K units ≤ supply ≥ 100 units ≤ supply; ≥ 1/1B of supply ≤ supply; band sums ≤ supply",
  run() {
    const cases = sample(
      fc.tuple(fc.constantFrom(...SET_M1.filter((a) => a !== "all_stablecoins")), fc.integer({ min: 15_000, max: REF })),
      300,
      2,
    );
    let worst = -Infinity;
    let n = 0;
    for (const [a, d] of cases) {
      const day = Math.max(d, profileOf(a).inceptionDay);
      const at = (id: string) => values(id, a, day, day).values[0];
      const [big, mid, all, small] = [
        at("addresses_supply/SplyAdrBalNtv100K"),
        at("addresses_supply/SplyAdrBalNtv100"),
        at("addresses_supply/SplyAdrBal1in1B"),
        at("addresses_supply/balance_range_0_001_0_01"),
      ];
      if (big === undefined || mid === undefined || all === undefined) continue;
      const s = supplyOf(a, day);
      n++;
      const thresholdAll = s * 1e-9;
      const nestedAll = thresholdAll <= 100 ? all - mid : mid - all;
      worst = Math.max(worst, (big - mid) / s, -nestedAll / s, (mid - s) / s, (all - s) / s, ((small ?? 0) + mid - s) / s);
    }
    return { ok: worst <= 1e-12, checked: `${n} asset-days of set M1`, worst: `largest excess ${fmt(worst)} of supply (≤ 0 holds)` };
  },
};

const PAIRS: ReadonlyArray<readonly [string, string, number, number]> = [
  ["btc", "bch", Math.round(Date.parse("2017-09-01") / DAY_MS), REF],
  ["eth", "etc", Math.round(Date.parse("2016-09-01") / DAY_MS), Math.round(Date.parse("2022-09-15") / DAY_MS)],
];

export const hashprice: Check = {
  id: "hashprice-per-algorithm",
  group: "invariant",
  claim:
    "hashprice is equal within noise across chains of one algorithm that compete for hash rate (BTC/BCH sha256, ETH/ETC before the Merge); merge-mined DOGE earns its reward's value over the shared scrypt hash rate: LTC's times the rewards' ratio (5-8x on 2025-12-28, about 6x published)",
  run() {
    let worst = 0;
    let where = "";
    let n = 0;
    for (const [a, b, from, to] of PAIRS) {
      const x = values("mining/RevHashRateUSD", a, from, to).values;
      const y = values("mining/RevHashRateUSD", b, from, to).values;
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const dev = Math.abs(Math.log(y[i]! / x[i]!));
        n++;
        if (dev > worst) [worst, where] = [dev, `${a}/${b} ${iso(from + i)}`];
      }
    }
    // Merged mining: the same hash rate earns both rewards, so the ratio is the rewards' ratio, never equal.
    const from = Math.round(Date.parse("2015-03-01") / DAY_MS);
    const ltc = values("mining/RevHashRateUSD", "ltc", from, REF).values;
    const doge = values("mining/RevHashRateUSD", "doge", from, REF).values;
    let lo = Infinity;
    let hi = 0;
    for (let i = 0; i < ltc.length; i++) [lo, hi] = [Math.min(lo, doge[i]! / ltc[i]!), Math.max(hi, doge[i]! / ltc[i]!)];
    const atRef = doge.at(-1)! / ltc.at(-1)!;
    const ok = worst <= 0.06 && lo > 0.005 && hi < 30 && atRef > 5 && atRef < 8;
    return {
      ok,
      checked: `${n} pair-days; ${ltc.length} LTC/DOGE days`,
      worst: `|log ratio| ${fmt(worst)} (${where}); DOGE/LTC ${fmt(lo, 3)}-${fmt(hi, 3)}x (2015's DOGE rewards were worth a fiftieth of LTC's), ${fmt(atRef, 3)}x on 2025-12-28`,
    };
  },
};

export const addressCounts: Check = {
  id: "address-counts",
  group: "invariant",
  claim: "address counts are whole, > $10M ≤ ≥ $1M, and the two move independently (no fixed ratio)",
  run() {
    let bad = 0;
    let minSpread = Infinity;
    const assets = ["btc", "eth", "ltc", "doge", "link", "uni"];
    for (const a of assets) {
      const from = Math.max(profileOf(a).inceptionDay, REF - 1460);
      const big = values("addresses/addresses_count_range_gt_10M_USD", a, from, REF).values;
      const mil = values("addresses/AdrBalUSD1MCnt", a, from, REF).values;
      const logs: number[] = [];
      for (let i = 0; i < big.length; i++) {
        if (!Number.isInteger(big[i]!) || !Number.isInteger(mil[i]!) || big[i]! > mil[i]!) bad++;
        if (big[i]! > 0 && mil[i]! > 0) logs.push(Math.log(big[i]! / mil[i]!));
      }
      const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
      minSpread = Math.min(minSpread, Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / logs.length));
    }
    return {
      ok: bad === 0 && minSpread > 0.01,
      checked: `4 years of ${assets.join(", ")}`,
      worst: `${bad} violations; smallest spread of log(>$10M/≥$1M) ${fmt(minSpread)}`,
    };
  },
};

export const hostChain: Check = {
  id: "host-chain",
  group: "invariant",
  claim:
    "chain metrics follow the chain: no difficulty for what is not mined, ETH and its tokens' PoW metrics end at the Merge, variation dates an ended series",
  run() {
    const problems: string[] = [];
    const merge = Date.parse("2022-09-15T00:00:00Z");
    for (const a of ["algo", "xlm", "neo", "gas", "flow_native"]) {
      if (seriesExtent({ endpoint: ep("mining/DiffLast"), asset: a, timeframe: "1d", startMs: 0, endMs: NOW, nowMs: NOW }))
        problems.push(`${a} has difficulty`);
    }
    for (const a of ["eth", "weth", "bat", "mana", "ht"]) {
      const e = seriesExtent({ endpoint: ep("mining/DiffLast"), asset: a, timeframe: "1d", startMs: 0, endMs: NOW, nowMs: NOW });
      if (!e || e.lastMs !== merge) problems.push(`${a} difficulty ends ${e ? iso(e.lastMs / DAY_MS) : "never"}`);
    }
    const rev = generateVariation("eth", NOW).find((r) => r.field === "revHashRateUSD");
    if (!rev || !rev.name.includes("ended 2022-09-15") || rev.last_date !== "2022-09-15")
      problems.push("eth hashprice not dated in variation");
    for (const a of ["btc", "ltc", "zec"])
      if (values("mining/DiffLast", a, REF - 10, REF).values.length === 0) problems.push(`${a} lacks difficulty`);
    return {
      ok: problems.length === 0,
      checked: "5 unmined, 5 Ethereum (PoW to the Merge), 3 mined assets",
      worst: problems.join("; ") || "none",
    };
  },
};

export const bandIndependence: Check = {
  id: "band-independence",
  group: "invariant",
  claim:
    "the >= 100K and >= 100 unit supply bands move with some independence: their daily changes correlate below 0.95 (BTC, ETH, LTC, 2024-2025), while each band still nests in the other",
  run() {
    let worst = -1;
    let where = "";
    for (const a of ["btc", "eth", "ltc"]) {
      const from = Math.round(Date.parse("2024-01-01") / DAY_MS);
      const x = values("addresses_supply/SplyAdrBalNtv100K", a, from, REF).values;
      const y = values("addresses_supply/SplyAdrBalNtv100", a, from, REF).values;
      const dx = Array.from(x.subarray(1), (q, i) => Math.log(q / x[i]!));
      const dy = Array.from(y.subarray(1), (q, i) => Math.log(q / y[i]!));
      const mean = (z: number[]) => z.reduce((s, q) => s + q, 0) / z.length;
      const [mx, my] = [mean(dx), mean(dy)];
      let [sxy, sxx, syy] = [0, 0, 0];
      dx.forEach((q, i) => {
        sxy += (q - mx) * (dy[i]! - my);
        sxx += (q - mx) ** 2;
        syy += (dy[i]! - my) ** 2;
      });
      const r = sxy / Math.sqrt(sxx * syy);
      if (r > worst) [worst, where] = [r, a];
    }
    return { ok: worst < 0.95, checked: "BTC, ETH, LTC daily changes 2024-2025", worst: `highest correlation ${fmt(worst, 3)} (${where})` };
  },
};
