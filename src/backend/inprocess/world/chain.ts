// Per-asset on-chain state that needs history (realized prices, coin-days destroyed, CVDD),
// memoized as daily arrays grown from the asset's inception: still a pure function of
// (asset, day), since the recursion always starts at inception whatever range is asked.
import { gauss, u01, valueNoise } from "../util/hash.js";
import { Memo } from "../util/memo.js";
import { supplyOf } from "./circulation.js";
import { REF_DAY } from "./levels.js";
import { dailyLogPrice } from "./market/price.js";
import { type Profile, profileOf } from "./profiles.js";

const GROW = 1024;
/** Age (days unmoved) from which a coin counts as held long term (Glassnode's threshold). */
const LTH_AGE_DAYS = 155;
/** Daily share of the short-term pool that moves, and the share of a day's movers still unmoved at 155 days. */
const STH_SPEND_RATE = 0.01;
const STH_SURVIVAL = (1 - STH_SPEND_RATE) ** LTH_AGE_DAYS;
/** Daily share of the long-term pool that moves; more by LTH_SPEND_HEAT per unit of log(price / realized price) beyond LTH_SPEND_FROM. */
const LTH_SPEND_RATE = 0.0008;
const LTH_SPEND_HEAT = 4;
const LTH_SPEND_FROM = 0.7;
/** Old hands sell into a mania at most ~5× their usual rate: most of them (founders, stakers, cold storage) never move. */
const LTH_HEAT_MAX = 1;
const HEAT_FROM_RATIO = Math.exp(LTH_SPEND_FROM);
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
  /** Days the holder arrays (lthCost, realizedCost, moved) cover; at most `length`. */
  holdersLength = 0;
  price = new Float64Array(GROW);
  /** Natural log of the price, exactly as the price path gives it. */
  logPrice = new Float64Array(GROW);
  /** Slow average of the price (EMA, τ 900 d): how far the price runs above it sets how hard long-term holders sell; the structural band hangs under it. */
  realized = new Float64Array(GROW);
  /** Short-term-holder cost basis: EMA (τ 60 d). */
  sthCost = new Float64Array(GROW);
  /** Long-term-holder cost basis (before calibration): the cost of the coins unmoved for 155 days or more (read only after ensureHolders). */
  lthCost = new Float64Array(GROW);
  /** Realized price (before calibration): what all the coins of both pools cost when they last moved, per coin (read only after ensureHolders). */
  realizedCost = new Float64Array(GROW);
  /** Coins that moved on each day (spent or newly issued): 155 days later, those still unmoved come of age. */
  moved = new Float64Array(GROW);
  /** EMA of the log price (τ 60 d), for difficulty. */
  emaLog = new Float64Array(GROW);
  /** Coin-days destroyed (read only after ensureCoinDays). */
  cdd = new Float64Array(GROW);
  /** CVDD before calibration: running max of Σ(CDD·price)/age (read only after ensureCoinDays). */
  cvddRaw = new Float64Array(GROW);
  private cumCddUsd = 0;
  /** The two holder pools (coins) and what the long-term one paid (USD), after the last day stepped. */
  private lthCoins = 0;
  private lthPaid = 0;
  private sthCoins = 0;
  /** What the short-term pool paid (USD). */
  private sthPaid = 0;
  /** Supply on the last day of a whole week since inception, and the coins issued per day over that week. */
  private lastSupply = 0;
  private issuedPerDay = 0;

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

  /** Makes lthCost and realizedCost cover the same days as the price-driven arrays (read only after this). */
  ensureHolders(): void {
    if (this.holdersLength < this.length) this.stepHolders(this.holdersLength, this.length);
    this.holdersLength = this.length;
  }

  /** Makes cdd and cvddRaw cover the same days as the price-driven arrays. */
  ensureCoinDays(): void {
    for (let i = this.coinDaysLength; i < this.length; i++) this.stepCoinDays(i);
    this.coinDaysLength = this.length;
  }

  private grow(size: number): void {
    for (const key of [
      "price",
      "logPrice",
      "realized",
      "sthCost",
      "lthCost",
      "realizedCost",
      "moved",
      "emaLog",
      "cdd",
      "cvddRaw",
    ] as const) {
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
    if (prev < 0) {
      this.realized[i] = p;
      this.sthCost[i] = p;
      this.emaLog[i] = logP;
    } else {
      this.realized[i] = this.realized[prev]! + (p - this.realized[prev]!) / 900;
      this.sthCost[i] = this.sthCost[prev]! + (p - this.sthCost[prev]!) / 60;
      this.emaLog[i] = this.emaLog[prev]! + (logP - this.emaLog[prev]!) / 60;
    }
  }

  /**
   * The long-term holders' cost, from the coins themselves. Every day a share of the short-term
   * pool moves (1 % a day: most young coins are traded again within months) and a smaller share of
   * the long-term pool (0.08 % a day, up to ~5× that when the price runs far above the realized
   * price and old hands distribute); moved and newly issued coins start a new age at today's price.
   * The coins that moved 155 days ago and have not moved since come of age and join the long-term
   * pool at what they were bought for, so its cost climbs in the months after a top (its buyers
   * come of age) and the pool's spending leaves its cost as it was. At the listing day every coin
   * counts as long held, at the first price. What both pools paid over their coins is the realized
   * price: a coin's cost is the price of the day it last moved, whichever pool holds it. Fitted on
   * BTC against Glassnode's published LTH cost basis (~$22.2k in January 2023, ~$21k in December
   * 2023, ~$38k in December 2025) and LTH MVRV
   * (~0.7 at the 2018 and 2022 lows, 3.5–4.5 at the 2021 top): research/upstream.md.
   */
  private stepHolders(from: number, to: number): void {
    // One loop over locals: it runs once per asset over its whole history, mostly before V8 has
    // optimized anything, where a call per day costs more than the arithmetic.
    const { price, realized, moved, lthCost, realizedCost } = this;
    const asset = this.profile.asset;
    let lth = this.lthCoins;
    let paid = this.lthPaid;
    let sth = this.sthCoins;
    let sthPaid = this.sthPaid;
    let last = this.lastSupply;
    let issued = this.issuedPerDay;
    for (let i = from; i < to; i++) {
      const p = price[i]!;
      if (i === 0) {
        last = supplyOf(asset, this.start);
        lth = last;
        paid = last * p;
        sth = 0;
        sthPaid = 0;
        moved[0] = 0;
      } else {
        // New coins per day, from the supply a week apart (read weekly: supply curves are smooth,
        // and reading it daily cost more than the rest of the loop).
        if (i % 7 === 0) {
          const supply = supplyOf(asset, this.start + i);
          issued = Math.max(0, supply - last) / 7;
          last = supply;
        }
        const ratio = p / realized[i]!;
        const lthRate =
          ratio > HEAT_FROM_RATIO
            ? LTH_SPEND_RATE * (1 + LTH_SPEND_HEAT * Math.min(LTH_HEAT_MAX, Math.log(ratio) - LTH_SPEND_FROM))
            : LTH_SPEND_RATE;
        const spentLth = lthRate * lth;
        const spentSth = STH_SPEND_RATE * sth;
        const comingOfAge = i >= LTH_AGE_DAYS ? moved[i - LTH_AGE_DAYS]! * STH_SURVIVAL : 0;
        const agedPaid = i >= LTH_AGE_DAYS ? comingOfAge * price[i - LTH_AGE_DAYS]! : 0;
        // Spent short-term coins leave at the pool's mean cost; all moved coins re-enter it at today's price.
        const sthSpentPaid = sth > 0 ? spentSth * (sthPaid / sth) : 0;
        paid = paid * (1 - lthRate) + agedPaid;
        lth = lth - spentLth + comingOfAge;
        moved[i] = spentSth + spentLth + issued;
        sthPaid = Math.max(0, sthPaid - sthSpentPaid - agedPaid + moved[i]! * p);
        sth = Math.max(0, sth - spentSth - comingOfAge + moved[i]!);
      }
      lthCost[i] = lth > 0 ? paid / lth : p;
      realizedCost[i] = lth + sth > 0 ? (paid + sthPaid) / (lth + sth) : p;
    }
    this.lthCoins = lth;
    this.lthPaid = paid;
    this.sthCoins = sth;
    this.sthPaid = sthPaid;
    this.lastSupply = last;
    this.issuedPerDay = issued;
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
