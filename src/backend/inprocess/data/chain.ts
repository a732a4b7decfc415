// Per-asset on-chain state that needs history (realized prices, coin-days destroyed, CVDD),
// memoized as daily arrays grown from the asset's inception: still a pure function of
// (asset, day), since the recursion always starts at inception whatever range is asked.
import { BTC_RESERVE, ETH_RESERVE, ETH_SUPPLY, REF_DAY, STABLES_SUPPLY, anchorTable, btcSupply, interpolate } from "./anchors.js";
import { gauss, octaveNoise, u01, valueNoise, type Octave } from "./hash.js";
import { dailyLogPrice } from "./price.js";
import { Memo } from "./memo.js";
import { supplyFromPoints, trailingGrowth } from "./market/supply.js";
import { profileOf, type Profile } from "./profiles.js";

const growths = new Map<string, number>();

/**
 * Share of Tether's supply on each chain (public issuance dashboards, rounded): Omni carried it
 * all until 2018, Ethereum then Tron took over. Other variants hold a constant slice.
 */
const CHAIN_SHARES: Record<string, ReadonlyArray<readonly [string, number]>> = {
  usdt_omni: [["2014-10-06", 1], ["2017-12-31", 0.95], ["2018-12-31", 0.6], ["2019-12-31", 0.3], ["2020-12-31", 0.05], ["2022-12-31", 0.002], ["2025-12-28", 0.0005]],
  usdt_eth: [["2017-11-28", 0.02], ["2018-12-31", 0.38], ["2019-12-31", 0.6], ["2020-12-31", 0.55], ["2021-12-31", 0.5], ["2022-12-31", 0.5], ["2023-12-31", 0.5], ["2025-12-28", 0.45]],
  usdt_trx: [["2019-04-16", 0.01], ["2019-12-31", 0.1], ["2020-12-31", 0.38], ["2021-12-31", 0.45], ["2022-12-31", 0.45], ["2023-12-31", 0.48], ["2025-12-28", 0.42]],
};
const shareTables = new Map<string, ReturnType<typeof anchorTable>>();

function shareOfBase(asset: string, day: number, fixed: number): number {
  const points = CHAIN_SHARES[asset];
  if (!points) return fixed;
  let table = shareTables.get(asset);
  if (!table) shareTables.set(asset, (table = anchorTable(points)));
  return Math.exp(interpolate(table, day).log);
}

/** Circulating supply (native units) at the end of a day. */
export function supplyOf(asset: string, day: number): number {
  if (asset === "btc") return btcSupply(day);
  if (asset === "all_stablecoins") return Math.exp(interpolate(STABLES_SUPPLY, day).log);
  const profile = profileOf(asset);
  const ref = profile.reference;
  if (asset === "eth" && (!ref || ref.supply.days.length < 3)) return Math.exp(interpolate(ETH_SUPPLY, day).log);
  if (ref) {
    let growth = growths.get(ref.ticker);
    if (growth === undefined) growths.set(ref.ticker, (growth = trailingGrowth(ref.supply)));
    return shareOfBase(asset, day, profile.supplyShare) * supplyFromPoints(ref.supply, day, growth, ref.maxSupply);
  }
  // A ticker without anchors: supply grows toward its reference level by a hashed yearly rate.
  const years = (day - REF_DAY) / 365;
  const rate = profile.model === "stable" ? 0.3 : 0.02 + 0.12 * u01(profile.seed, 88);
  return profile.refSupply * Math.exp(Math.min(2, Math.max(-3, rate * years)));
}

const RESERVE_OCTAVES: readonly Octave[] = [
  { period: 60, amplitude: 0.03 }, { period: 14, amplitude: 0.01 }, { period: 3, amplitude: 0.004 }, { period: 1, amplitude: 0.002 },
];

/** Native units on all exchange wallets at the end of a day. */
export function reserveOf(asset: string, day: number): number {
  const profile = profileOf(asset);
  const table = asset === "btc" ? BTC_RESERVE : asset === "eth" ? ETH_RESERVE : undefined;
  if (table) {
    const lastDay = table.days[table.days.length - 1]!;
    const { log, distance } = interpolate(table, day);
    // Past the last anchor the outflow trend continues (−8 %/yr) for three years, then levels off.
    const trend = day > lastDay ? -0.08 * Math.min(day - lastDay, 1095) / 365 : 0;
    return Math.exp(log + trend + octaveNoise(profile.seed ^ 0x4f1bbcdc, day, RESERVE_OCTAVES, distance));
  }
  const fraction = (profile.model === "stable" ? 0.15 : 0.05) + 0.2 * u01(profile.seed, 77);
  return supplyOf(asset, day) * fraction * Math.exp(octaveNoise(profile.seed ^ 0x4f1bbcdc, day, RESERVE_OCTAVES) - 0.1 * (day - REF_DAY) / 365);
}

const GROW = 1024;
/** Days of market before the first listed price (BTC: 2009-01-03 to 2010-07-18). */
const PRE_LISTING_DAYS = 561;

/**
 * Daily arrays from inception; index = day − inception. The price-driven averages cover days
 * start..start+length−1 (ensure); the coin-days arrays, which also need supply and noise for
 * every day, are simulated only when a metric reads them (ensureCoinDays), over the same days.
 */
export class ChainState {
  readonly start: number;
  length = 0;
  /** Days the coin-days arrays (cdd, cvddRaw) cover; at most `length`. */
  coinDaysLength = 0;
  price = new Float64Array(GROW);
  /** Natural log of the price, exactly as the price path gives it. */
  logPrice = new Float64Array(GROW);
  /** Realized price: EMA of the price (τ 900 d), calibrated at the reference day. */
  realized = new Float64Array(GROW);
  /** Short-term-holder cost basis: EMA (τ 60 d). */
  sthCost = new Float64Array(GROW);
  /** Long-term-holder cost basis: EMA of the price 155 days earlier (τ 1100 d). */
  lthCost = new Float64Array(GROW);
  /** EMA of the log price (τ 60 d), for difficulty. */
  emaLog = new Float64Array(GROW);
  /** Coin-days destroyed (read only after ensureCoinDays). */
  cdd = new Float64Array(GROW);
  /** CVDD before calibration: running max of Σ(CDD·price)/age (read only after ensureCoinDays). */
  cvddRaw = new Float64Array(GROW);
  private cumCddUsd = 0;

  constructor(readonly profile: Profile) {
    this.start = profile.inceptionDay;
  }

  /** Makes the price-driven arrays cover days start..day. */
  ensure(day: number): void {
    const need = day - this.start + 1;
    if (need <= this.length) return;
    if (need > this.price.length) this.grow(Math.max(need, this.price.length * 2));
    for (let i = this.length; i < need; i++) this.step(i);
    this.length = need;
  }

  /** Makes cdd and cvddRaw cover the same days as the price-driven arrays. */
  ensureCoinDays(): void {
    for (let i = this.coinDaysLength; i < this.length; i++) this.stepCoinDays(i);
    this.coinDaysLength = this.length;
  }

  private grow(size: number): void {
    for (const key of ["price", "logPrice", "realized", "sthCost", "lthCost", "emaLog", "cdd", "cvddRaw"] as const) {
      const next = new Float64Array(size);
      next.set(this[key]);
      this[key] = next;
    }
  }

  private step(i: number): void {
    const day = this.start + i;
    const logP = dailyLogPrice(this.profile.asset, day);
    const p = Math.exp(logP);
    this.price[i] = p;
    this.logPrice[i] = logP;
    const prev = i - 1;
    const lagged = i >= 155 ? this.price[i - 155]! : this.price[0]! || p;
    if (prev < 0) {
      this.realized[i] = p;
      this.sthCost[i] = p;
      this.lthCost[i] = p;
      this.emaLog[i] = logP;
    } else {
      this.realized[i] = this.realized[prev]! + (p - this.realized[prev]!) / 900;
      this.sthCost[i] = this.sthCost[prev]! + (p - this.sthCost[prev]!) / 60;
      this.lthCost[i] = this.lthCost[prev]! + (lagged - this.lthCost[prev]!) / 1100;
      this.emaLog[i] = this.emaLog[prev]! + (logP - this.emaLog[prev]!) / 60;
    }
  }

  /** Day i of the coin-days arrays; days before i are done, and the price arrays cover day i. */
  private stepCoinDays(i: number): void {
    const { asset, seed } = this.profile;
    const day = this.start + i;
    const logP = this.logPrice[i]!;
    const p = this.price[i]!;
    const prev = i - 1;
    // Old coins move in bursts near tops (distribution) and on rare whale days.
    const momentum = i >= 180 ? logP - Math.log(this.price[i - 180]!) : 0;
    const spike = u01(seed ^ 0x12e15e35, day) < 0.012 ? 4 + 25 * u01(seed ^ 0x2f1b3c4d, day) : 1;
    const level = 0.3 * Math.exp(0.35 * gauss(seed ^ 0x7ac3d5e1, day) + 0.3 * valueNoise(seed ^ 0x5a17c9b3, day, 45));
    // Coin-days accumulate as the chain ages: a moved coin carries more of them the older the
    // market (normalized to 1 at the reference day). The market's age counts from a year before
    // listing (BTC: from genesis), as Woo's CVDD divides by the days since genesis.
    const age = i + PRE_LISTING_DAYS;
    const ageFactor = age / (REF_DAY - this.start + PRE_LISTING_DAYS);
    this.cdd[i] = supplyOf(asset, day) * level * ageFactor * (1 + Math.max(0, momentum)) * spike;
    this.cumCddUsd += this.cdd[i]! * p;
    const raw = this.cumCddUsd / age;
    this.cvddRaw[i] = prev < 0 ? raw : Math.max(this.cvddRaw[prev]!, raw);
  }
}

const states = new Memo<string, ChainState>(128);

/** The asset's state, covering at least `day` (and the reference day, for calibration). */
export function chainState(asset: string, day: number): ChainState {
  const state = states.getOr(asset, () => new ChainState(profileOf(asset)));
  state.ensure(Math.max(day, REF_DAY));
  return state;
}

/** Index of a day in the state's arrays, clamped to inception. */
export function indexOf(state: ChainState, day: number): number {
  return Math.max(0, day - state.start);
}
