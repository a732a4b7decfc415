// Invariants of the mining machinery: BTC difficulty retargets on 2,016-block epochs by the epoch's
// pace, and hashprice is the day's reward (subsidy at the price, plus fees) over the hash rate.
import fc from "fast-check";

import { txCount } from "../../src/backend/inprocess/readings/onchain.js";
import { btcBlocks, btcDifficulty, btcHashRate, btcRetargets } from "../../src/backend/inprocess/world/difficulty.js";
import { feePriceUsd } from "../../src/backend/inprocess/world/fees.js";
import { btcSubsidy } from "../../src/backend/inprocess/world/levels.js";
import { dailyPrice } from "../../src/backend/inprocess/world/market/price.js";
import { type Check, fmt, iso, REF, sample, values } from "./common.js";

const FROM = Math.round(Date.parse("2012-01-01") / 86_400_000);

export const difficultyEpochs: Check = {
  id: "difficulty-epochs",
  group: "invariant",
  claim:
    "BTC difficulty changes only at retargets; each multiplies it by 14 days over the epoch's length (within 1/4-4x); epoch lengths vary (2012-2025: some under 12 days, some over 16); a day's blocks average 144-155 over years; the 2020 and 2024 halving blocks fall where they did in their epochs (within 2 days)",
  run() {
    const retargets = btcRetargets();
    let worstRule = 0;
    let where = "";
    const lengths: number[] = [];
    for (let k = 1; k < retargets.length; k++) {
      const [t0, t1] = [retargets[k - 1]!, retargets[k]!];
      const day = Math.floor(t1);
      // Two retargets on one day (2010's fast epochs) leave only the second visible.
      if (Math.floor(t0) === day || (k + 1 < retargets.length && Math.floor(retargets[k + 1]!) === day)) continue;
      if (day >= REF - 7 && day <= REF + 30) continue; // the reference day's epoch is pinned to its published level
      const expected = Math.min(4, Math.max(0.25, 14 / (t1 - t0)));
      // Difficulty is served in whole numbers: the early small ones carry their rounding.
      const [before, after] = [btcDifficulty(day - 1), btcDifficulty(day)];
      const dev = Math.max(0, Math.abs(after - before * expected) - 2.5) / after;
      if (dev > worstRule) [worstRule, where] = [dev, iso(day)];
      if (t0 >= FROM && t1 <= REF) lengths.push(t1 - t0);
    }
    // Between retargets the served level is constant.
    const served = values("mining/DiffLast", "btc", FROM, REF).values;
    const retargetDays = new Set(retargets.map((t) => Math.floor(t)));
    let changesOff = 0;
    for (let i = 1; i < served.length; i++) if (served[i] !== served[i - 1] && !retargetDays.has(FROM + i)) changesOff++;
    lengths.sort((a, b) => a - b);
    let blocks = 0;
    for (let d = FROM; d <= REF; d++) blocks += btcBlocks(d);
    const perDay = blocks / (REF - FROM + 1);
    const min = lengths[0]!;
    const max = lengths.at(-1)!;
    // Where the halving blocks fell in their epochs (630,000 and 840,000: 1,008 and 1,344 blocks in).
    let phaseOff = 0;
    for (const [date, hour, into] of [
      ["2020-05-11", 19.4, 1008],
      ["2024-04-20", 0.15, 1344],
    ] as const) {
      const t = Math.round(Date.parse(date) / 86_400_000) + hour / 24;
      const k = retargets.findIndex((x) => x > t);
      const [last, next] = [retargets[k - 1]!, retargets[k]!];
      let e = last - (t - (into / 2016) * (next - last));
      if (e > (next - last) / 2) e -= next - last;
      phaseOff = Math.max(phaseOff, Math.abs(e));
    }
    return {
      ok: worstRule < 1e-6 && changesOff === 0 && min < 12 && max > 16 && perDay > 140 && perDay < 155 && phaseOff < 2,
      checked: `${retargets.length} retargets since 2010, ${lengths.length} epochs 2012-2025, ${served.length} served days`,
      worst: `rule off by ${fmt(worstRule)} (${where}); ${changesOff} changes off a retarget day; epochs ${fmt(min, 3)}-${fmt(max, 3)} days (median ${fmt(lengths[lengths.length >> 1]!, 3)}); ${fmt(perDay, 4)} blocks a day; epoch phase at the 2020 and 2024 halvings off by at most ${fmt(phaseOff, 2)} days`,
    };
  },
};

export const hashpriceReward: Check = {
  id: "hashprice-reward",
  group: "invariant",
  claim:
    "BTC hashprice x hash rate (estimated from the day's blocks and difficulty, as published) = the day's blocks x subsidy x price + mean fee x transactions, on every sampled day; the estimate is within 35 % of the simulated hash rate; and the fee share of the reward stays under 80 % (it passed 50 % only on a few days of 2017, 2024)",
  run() {
    const days = sample(fc.integer({ min: FROM, max: REF }), 400, 31);
    let worst = 0;
    let where = "";
    let feeShareMax = 0;
    let shareWhere = "";
    let luck = 0;
    for (const day of days) {
      const hp = values("mining/RevHashRateUSD", "btc", day, day).values[0]!;
      const fees = feePriceUsd("btc", day) * txCount("btc", day);
      const reward = btcBlocks(day) * btcSubsidy(day) * dailyPrice("btc", day) + fees;
      const estimated = (btcBlocks(day) * btcDifficulty(day) * 2 ** 32) / 86_400;
      const dev = Math.abs((hp * estimated) / 1e12 / reward - 1);
      if (dev > worst) [worst, where] = [dev, iso(day)];
      luck = Math.max(luck, Math.abs(Math.log(estimated / btcHashRate(day))));
      if (fees / reward > feeShareMax) [feeShareMax, shareWhere] = [fees / reward, iso(day)];
    }
    return {
      ok: worst < 1e-9 && feeShareMax < 0.8 && luck < Math.log(1.35),
      checked: `${days.length} days 2012-2025`,
      worst: `reward identity off by ${fmt(worst)} (${where}); estimate vs hash rate at most ${fmt(Math.exp(luck), 3)}x; largest fee share ${fmt(feeShareMax, 3)} (${shareWhere})`,
    };
  },
};

export const otherRetargets: Check = {
  id: "other-retargets",
  group: "invariant",
  claim:
    "other mined chains retarget by their own rules: LTC every 3-4 days (2,016 blocks of 2.5 minutes), BCH, DOGE, XMR and DASH every block (a new level each day)",
  run() {
    const from = REF - 365;
    const runsOf = (asset: string) => {
      const v = values("mining/DiffLast", asset, from, REF).values;
      const runs: number[] = [];
      let run = 1;
      for (let i = 1; i < v.length; i++) {
        if (v[i] === v[i - 1]) run++;
        else [runs[runs.length], run] = [run, 1];
      }
      return runs.slice(1);
    };
    const ltc = runsOf("ltc");
    const perBlock = ["bch", "doge", "xmr", "dash"].map((a) => [a, Math.max(...runsOf(a))] as const);
    const ok = ltc.every((r) => r === 3 || r === 4) && perBlock.every(([, m]) => m === 1);
    return {
      ok,
      checked: "2025: LTC, BCH, DOGE, XMR, DASH",
      worst: `LTC steps ${Math.min(...ltc)}-${Math.max(...ltc)} days apart; longest unchanged run ${perBlock.map(([a, m]) => `${a} ${m}`).join(", ")} day(s)`,
    };
  },
};
