// Checks on the holders' cost of their coins: supply and capital in profit or loss, the long-term
// holders' cost basis and the realized price against published figures, and the floors under price.
import {
  cvdd,
  lthCostBasis,
  lthMvrv,
  lthRealizedCap,
  lthSupply,
  realizedCap,
  realizedCapImpulse,
  realizedPrice,
  sthSupply,
  structuralSupport,
} from "../../src/backend/inprocess/readings/valuation.js";
import { dailyPrice } from "../../src/backend/inprocess/world/market/price.js";
import { profileOf } from "../../src/backend/inprocess/world/profiles.js";
import { DAY_MS, SET_L1 } from "../../src/catalog/index.js";
import { type Check, fmt, iso, REF, values } from "./common.js";

/** Days on which the close is at or above every earlier close (an all-time high). */
function athDays(asset: string, from: number, to: number): number[] {
  const start = profileOf(asset).inceptionDay;
  let max = 0;
  const out: number[] = [];
  for (let d = start; d <= to; d++) {
    const p = dailyPrice(asset, d);
    if (p >= max) {
      max = p;
      if (d >= from) out.push(d);
    }
  }
  return out;
}

const PROFIT_ASSETS = ["btc", "eth", "ltc", "doge", "xrp", "bch", "link"];

export const inProfit: Check = {
  id: "supply-in-profit",
  group: "invariant",
  claim: "supply in profit follows price against the cost of the coins: ≈ all of it on every all-time-high day",
  run() {
    let worst = 1;
    let where = "";
    let n = 0;
    for (const a of PROFIT_ASSETS) {
      const from = profileOf(a).inceptionDay + 400;
      for (const d of athDays(a, from, REF)) {
        const lth = values("holder_supply/lth_supply_in_profit", a, d, d).values[0];
        const sth = values("holder_supply/sth_supply_in_profit", a, d, d).values[0];
        if (lth === undefined || sth === undefined) continue;
        const share = (lth + sth) / (lthSupply(a, d) + sthSupply(a, d));
        n++;
        if (share < worst) [worst, where] = [share, `${a} ${iso(d)}`];
      }
    }
    return {
      ok: worst >= 0.999,
      checked: `${n} all-time-high days of ${PROFIT_ASSETS.join(", ")}`,
      worst: `lowest share in profit ${fmt(worst, 6)}${where && ` (${where})`}`,
    };
  },
};

export const capitalInLoss: Check = {
  id: "capital-in-loss",
  group: "invariant",
  claim: "invested capital in loss between 0 and the realized cap on every day, and ≈ 0 at all-time highs",
  run() {
    let worstShare = 0;
    let worstAth = 0;
    let n = 0;
    let negative = 0;
    let lowest = 0;
    for (const a of PROFIT_ASSETS) {
      const start = profileOf(a).inceptionDay;
      for (let d = start; d <= REF; d += 3) {
        const loss = values("market/invested_capital_in_loss", a, d, d).values[0];
        if (loss === undefined) continue;
        worstShare = Math.max(worstShare, loss / realizedCap(a, d));
        n++;
      }
      for (const loss of values("market/invested_capital_in_loss", a, start, REF).values) {
        if (loss < 0) negative++;
        lowest = Math.min(lowest, loss);
      }
      for (const d of athDays(a, start + 400, REF)) {
        worstAth = Math.max(worstAth, values("market/invested_capital_in_loss", a, d, d).values[0]! / realizedCap(a, d));
      }
    }
    return {
      ok: worstShare <= 1 && worstAth <= 0.01 && negative === 0,
      checked: `${n} asset-days of ${PROFIT_ASSETS.length} assets (every day for the sign)`,
      worst: `largest loss/realized cap ${fmt(worstShare)}; at highs ${fmt(worstAth)}; ${negative} days below zero${negative ? ` (lowest ${fmt(lowest)} USD)` : ""}`,
    };
  },
};

/**
 * BTC's long-term-holder cost basis as Glassnode published it (USD): [day, low, high] of the figures
 * reported around that day. 2023-01: $22,240 (CryptoSlate) and $22,400 (Glassnode's weekly via
 * NewsBTC, BTC at ~$21.1k); 2023-11: $20,716, still falling (CryptoSlate, BTC over $37k); 2023-12-27:
 * ~$21,000 (CryptoSlate). And LTH MVRV (price / that cost): ~0.7 at the 2018 and 2022 cycle lows,
 * 3.5–4.5 at the November 2021 top (research/upstream.md).
 */
const LTH_COST: ReadonlyArray<readonly [string, number, number]> = [
  ["2023-01-16", 22_240, 22_400],
  ["2023-11-20", 20_716, 20_716],
  ["2023-12-27", 21_000, 21_000],
];
const LTH_MVRV: ReadonlyArray<readonly [string, number, number]> = [
  ["2018-12-15", 0.6, 0.85],
  ["2022-11-21", 0.6, 0.85],
  ["2021-11-10", 3.5, 4.5],
];

export const lthCost: Check = {
  id: "lth-cost",
  group: "calibration",
  claim:
    "BTC's long-term holders' cost basis within 12 % of Glassnode's published figures (2023), and LTH MVRV in its bands at the 2018 and 2022 lows and the 2021 top",
  run() {
    const dayOf = (d: string) => Math.round(Date.parse(d) / DAY_MS);
    let worst = 0;
    let where = "";
    const bad: string[] = [];
    for (const [d, lo, hi] of LTH_COST) {
      const got = lthCostBasis("btc", dayOf(d));
      const off = got < lo ? lo / got - 1 : got > hi ? got / hi - 1 : 0;
      if (off > worst) [worst, where] = [off, `${d} $${fmt(got, 5)} (published ${lo === hi ? lo : `${lo}–${hi}`})`];
    }
    const mvrv: string[] = [];
    for (const [d, lo, hi] of LTH_MVRV) {
      const got = lthMvrv("btc", dayOf(d));
      mvrv.push(`${d} ${fmt(got)}`);
      if (got < lo || got > hi) bad.push(`${d} ${fmt(got)} not in ${lo}–${hi}`);
    }
    return {
      ok: worst <= 0.12 && bad.length === 0,
      checked: `${LTH_COST.length} published cost bases, LTH MVRV on ${LTH_MVRV.length} cycle days`,
      worst: `${where ? `${fmt(100 * worst)} % off (${where})` : "cost bases all within the published figures"}; LTH MVRV ${bad.length ? `outside: ${bad.join(", ")}` : mvrv.join(", ")}`,
    };
  },
};

/**
 * BTC's realized price as published (USD): ~$41k in December 2024 and January 2025, ~$54k in
 * October 2025 (Glassnode via btc-newswire; Alphractal $53.3k). The realized cap's 365-day change
 * went to about −20 % at the 2019 and 2023 troughs (research/upstream.md).
 */
const REALIZED: ReadonlyArray<readonly [string, number]> = [
  ["2024-12-31", 41_000],
  ["2025-01-15", 41_000],
  ["2025-10-15", 54_000],
];
const REALIZED_TROUGHS = [2019, 2023];

export const realizedCost: Check = {
  id: "realized-price",
  group: "calibration",
  claim:
    "BTC's realized price within 8 % of the published figures (Dec 2024 – Oct 2025), its realized cap falling ≥ 10 % a year at the 2019 and 2023 troughs, and the LTH realized cap a part of the realized cap on every day",
  run() {
    const dayOf = (d: string) => Math.round(Date.parse(d) / DAY_MS);
    const bad: string[] = [];
    let worst = 0;
    let where = "";
    for (const [d, ref] of REALIZED) {
      const got = realizedPrice("btc", dayOf(d));
      const off = Math.abs(got / ref - 1);
      if (off > worst) [worst, where] = [off, `${d} $${fmt(got, 5)} (published ${ref})`];
    }
    if (worst > 0.08) bad.push(`realized price ${fmt(100 * worst)} % off (${where})`);
    const troughs: string[] = [];
    for (const y of REALIZED_TROUGHS) {
      let low = Infinity;
      for (let d = dayOf(`${y}-01-01`); d < dayOf(`${y + 1}-01-01`); d++) low = Math.min(low, realizedCapImpulse("btc", d));
      troughs.push(`${y} ${fmt(Math.exp(low) - 1)}`);
      if (Math.exp(low) - 1 > -0.1) bad.push(`${y} trough ${fmt(Math.exp(low) - 1)}`);
    }
    let share = 0;
    let shareAt = "";
    for (let d = profileOf("btc").inceptionDay; d <= REF; d++) {
      const r = lthRealizedCap("btc", d) / realizedCap("btc", d);
      if (r > share) [share, shareAt] = [r, iso(d)];
    }
    if (share > 1) bad.push(`LTH realized cap ${fmt(share)}× the realized cap (${shareAt})`);
    return {
      ok: bad.length === 0,
      checked: `${REALIZED.length} published realized prices, ${REALIZED_TROUGHS.length} troughs, every BTC day's LTH share of the realized cap`,
      worst: bad.length
        ? bad.join("; ")
        : `realized price ${fmt(100 * worst)} % off (${where}); yearly change at troughs ${troughs.join(", ")}; largest LTH share ${fmt(share)} (${shareAt})`,
    };
  },
};

export const floors: Check = {
  id: "floors",
  group: "invariant",
  claim: "CVDD stays under the price from each asset's third year to the reference day; the structural band under it on ≥ 99 % of days",
  run() {
    let worst = 0;
    let where = "";
    let bandBelow = 0;
    let days = 0;
    for (const a of SET_L1) {
      const start = profileOf(a).inceptionDay;
      for (let d = start + 730; d <= REF; d++) {
        const r = cvdd(a, d) / dailyPrice(a, d);
        if (r > worst) [worst, where] = [r, `${a} ${iso(d)}`];
        if (structuralSupport(a, d) > dailyPrice(a, d)) bandBelow++;
        days++;
      }
    }
    return {
      ok: worst <= 1 && bandBelow <= 0.01 * days,
      checked: `${days} days of ${SET_L1.join(", ")}`,
      worst: `CVDD/price max ${fmt(worst)} (${where}); band above price on ${bandBelow} days`,
    };
  },
};
