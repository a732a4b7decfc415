// Valuation and holder-cohort metrics (realized cap, LTH/STH cost bases, MVRV, CVDD, supply in
// profit): lognormal cost-basis cohorts around memoized realized prices, calibrated to 2025 levels.
import { u01, valueNoise } from "../util/hash.js";
import { Memo } from "../util/memo.js";
import { type ChainState, chainState, indexOf } from "../world/chain.js";
import { supplyOf } from "../world/circulation.js";
import { costDistribution } from "../world/cohorts.js";
import { REF_DAY } from "../world/levels.js";
import { profileOf } from "../world/profiles.js";

interface Calibration {
  realized: number;
  /** The slow price average's scale, set so that it meets the realized-price target at the reference day. */
  average: number;
  sth: number;
  lth: number;
  cvdd: number;
}

/** Targets at the reference day: BTC realized price $56.2k, STH cost $105k, LTH MVRV 2.3, CVDD $44.5k. */
const TARGETS: Record<string, { realized: number; sth: number; lthMvrv: number; cvdd: number }> = {
  btc: { realized: 56_200, sth: 105_000, lthMvrv: 2.3, cvdd: 44_500 },
  eth: { realized: 2_746, sth: 3_350, lthMvrv: 1.2, cvdd: 1_800 },
};

const calibrations = new Memo<string, Calibration>(1024);

function calibration(asset: string, state: ChainState): Calibration {
  return calibrations.getOr(asset, () => calibrate(asset, state));
}

function calibrate(asset: string, state: ChainState): Calibration {
  const profile = profileOf(asset);
  const i = indexOf(state, REF_DAY);
  const price = state.price[i]!;
  const h = (k: number) => u01(profile.seed, 300 + k);
  const target = TARGETS[asset] ?? {
    realized: price * (0.55 + 0.7 * h(1)),
    sth: price * (0.85 + 0.4 * h(2)),
    lthMvrv: 0.7 + 1.6 * h(3),
    cvdd: price * (0.25 + 0.3 * h(4)),
  };
  let cvdd: number | undefined;
  let lth: number | undefined;
  let realized: number | undefined;
  return {
    // The realized price is what the holder pools paid for their coins, so it reads them too.
    get realized() {
      if (realized === undefined) {
        state.ensureHolders();
        realized = target.realized / state.realizedCost[i]!;
      }
      return realized;
    },
    average: target.realized / state.realized[i]!,
    sth: target.sth / state.sthCost[i]!,
    // The holder pools are simulated only when an LTH metric reads them, as coin-days are.
    get lth() {
      if (lth === undefined) {
        state.ensureHolders();
        lth = price / target.lthMvrv / state.lthCost[i]!;
      }
      return lth;
    },
    // Coin-days are simulated only when a metric reads them (CVDD, CDD), not for every valuation.
    get cvdd() {
      if (cvdd === undefined) {
        state.ensureCoinDays();
        cvdd = Math.min(target.cvdd / state.cvddRaw[i]!, floorScale(state, i));
      }
      return cvdd;
    },
  };
}

/**
 * CVDD is a floor: its constant is the largest that keeps it under the price on every day from
 * the asset's third year to the reference day (Woo fitted his 6,000,000 to the bottoms the same
 * way). The first two years of price discovery are left out, as for BTC's 2010–2011.
 */
function floorScale(state: ChainState, refIndex: number): number {
  let scale = Infinity;
  for (let j = Math.min(730, refIndex); j <= refIndex; j++) {
    const ratio = (0.985 * state.price[j]!) / state.cvddRaw[j]!;
    if (ratio < scale) scale = ratio;
  }
  return scale;
}

function at(asset: string, day: number): { state: ChainState; i: number; c: Calibration; price: number } {
  const state = chainState(asset, day);
  const i = indexOf(state, day);
  return { state, i, c: calibration(asset, state), price: state.price[i]! };
}

/** `at`, with the holder pools stepped through the day (what the LTH and realized costs read). */
function atHolders(asset: string, day: number): ReturnType<typeof at> {
  const a = at(asset, day);
  a.state.ensureHolders();
  return a;
}

/**
 * Realized price: what the coins cost when they last moved, per coin (the holder pools' paid
 * over their coins). BTC: ~$41k at the turn of 2025, $56.2k at the reference day.
 */
export function realizedPrice(asset: string, day: number): number {
  const { state, i, c } = atHolders(asset, day);
  return state.realizedCost[i]! * c.realized;
}

export function realizedCap(asset: string, day: number): number {
  return realizedPrice(asset, day) * supplyOf(asset, day);
}

/**
 * Long-term realized-cap impulse: the 365-day log change of realized cap (BTC ≈ +0.4 at the end
 * of 2025), softly bounded above 2 so the wild early years stay on the chart's scale.
 */
export function realizedCapImpulse(asset: string, day: number): number {
  const state = chainState(asset, day);
  const prior = Math.max(state.start, day - 365);
  const x = Math.log(realizedCap(asset, day) / realizedCap(asset, prior));
  return x > 2 ? 2 + Math.tanh(x - 2) : x;
}

/** Price over the long-term holders' cost basis (1 at break-even; ~0.7 at cycle lows, 3.5–4.5 at BTC's 2021 top). */
export function lthMvrv(asset: string, day: number): number {
  const { state, i, c, price } = atHolders(asset, day);
  return price / (state.lthCost[i]! * c.lth);
}

/** LTH cost basis: what the coins unmoved for 155 days or more cost when they last moved. */
export function lthCostBasis(asset: string, day: number): number {
  return at(asset, day).price / lthMvrv(asset, day);
}

/** Share of supply held longer than 155 days: falls as holders distribute into rallies. */
export function lthSupply(asset: string, day: number): number {
  const { state, i, price } = at(asset, day);
  const before = state.price[Math.max(0, i - 180)]!;
  const share = 0.7 - 0.07 * Math.tanh(3 * Math.log(price / before)) + 0.01 * valueNoise(state.profile.seed ^ 0x3a, day, 30);
  return supplyOf(asset, day) * share;
}

export function sthSupply(asset: string, day: number): number {
  return supplyOf(asset, day) - lthSupply(asset, day);
}

/** Index of a day in the cost distribution (clamped to listing). */
function costAt(asset: string, day: number): { i: number; d: ReturnType<typeof costDistribution> } {
  const d = costDistribution(asset, day);
  return { d, i: Math.max(0, day - d.start) };
}

/** LTH supply whose cost is at or below the price: all of it at an all-time high. */
export function lthSupplyInProfit(asset: string, day: number): number {
  const { d, i } = costAt(asset, day);
  return lthSupply(asset, day) * d.lthProfit[i]!;
}

export function sthSupplyInProfit(asset: string, day: number): number {
  const { d, i } = costAt(asset, day);
  return sthSupply(asset, day) * d.sthProfit[i]!;
}

/**
 * What the coins held above the price cost: a part of the realized cap (never more), zero at an
 * all-time high, largest after a fall from the top.
 */
export function investedCapitalInLoss(asset: string, day: number): number {
  const { d, i } = costAt(asset, day);
  // loss / realized cap = lossPerCoin / meanCost.
  return realizedCap(asset, day) * (d.lossPerCoin[i]! / d.meanCost[i]!);
}

export function lthRealizedCap(asset: string, day: number): number {
  return lthSupply(asset, day) * lthCostBasis(asset, day);
}

/** CVDD: monotone by construction (running max of the cumulative value-days destroyed per day of age). */
export function cvdd(asset: string, day: number): number {
  const { state, i, c } = at(asset, day);
  state.ensureCoinDays();
  return state.cvddRaw[i]! * c.cvdd;
}

export function coinDaysDestroyed(asset: string, day: number): number {
  const { state, i } = at(asset, day);
  state.ensureCoinDays();
  return state.cdd[i]!;
}

const bandScales = new Memo<string, number>(1024);

/**
 * A lower price band under a slow average of the price (EMA, τ 900 d, equal to the realized
 * price at the reference day): 0.78 of it, or less where the asset's own bear markets went
 * deeper (the band is fitted under the price from its third year to the reference day, as CVDD
 * is), so it behaves as the floor it is named for.
 */
export function structuralSupport(asset: string, day: number): number {
  const scale = bandScales.getOr(asset, () => {
    const state = chainState(asset, REF_DAY);
    const ref = indexOf(state, REF_DAY);
    const c = calibration(asset, state);
    let k = 0.78;
    for (let j = Math.min(730, ref); j <= ref; j++) k = Math.min(k, (0.985 * state.price[j]!) / (state.realized[j]! * c.average));
    return k;
  });
  const { state, i, c } = at(asset, day);
  return scale * state.realized[i]! * c.average;
}
