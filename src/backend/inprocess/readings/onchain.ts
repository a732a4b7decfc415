// Address, supply-band, exchange-flow and transaction metrics: closed forms over the price
// path and supply, the exchange reserves of world/custody.ts, plus memoized cumulative flows (running_total_usd).
import { gauss, hash2, normalCdf, s11, u01, unit, valueNoise } from "../util/hash.js";
import { Memo } from "../util/memo.js";
import { supplyOf } from "../world/circulation.js";
import { entityShare, exchangeTotal } from "../world/custody.js";
import { REF_DAY } from "../world/levels.js";
import { dailyLogPrice, dailyPrice } from "../world/market/price.js";
import { type Profile, profileOf } from "../world/profiles.js";

const h = (p: Profile, k: number) => u01(p.seed, 500 + k);

/** Address base grows with adoption since inception (square-root law), normalized at the reference day. */
function holders(p: Profile, day: number): number {
  const age = Math.max(1, day - p.inceptionDay + 30);
  return Math.min(1.15, Math.sqrt(age / (REF_DAY - p.inceptionDay + 30)));
}

function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** Daily active addresses (BTC ≈ 700k weekdays, 573k weekends). */
export function activeAddresses(asset: string, day: number): number {
  const p = profileOf(asset);
  const base = p.model === "btc" ? 700_000 : p.model === "eth" ? 850_000 : 10 ** (3 + 2.6 * h(p, 1));
  const w = weekday(day);
  const weekend = w === 0 || w === 6 ? 0.82 : 1;
  return (
    base *
    holders(p, day) ** 1.4 *
    weekend *
    Math.exp(0.06 * gauss(p.seed ^ 0x61c88647, day) + 0.15 * valueNoise(p.seed ^ 0x61c88647, day, 40))
  );
}

/** NVM-style Metcalfe ratio: ln(market cap) / ln(active addresses²) (BTC ≈ 1.06). */
export function metcalfeRatio(asset: string, day: number): number {
  const cap = dailyPrice(asset, day) * supplyOf(asset, day);
  return Math.log(cap) / (2 * Math.log(activeAddresses(asset, day)));
}

/**
 * Power-law tail of address balances: count of addresses holding ≥ `usd` (BTC: 148k ≥ $1M,
 * 17k ≥ $10M; ETH: ~16k ≥ $1M, ~2k ≥ $10M).
 */
function addressesAbove(asset: string, day: number, usd: number): number {
  const p = profileOf(asset);
  const major = p.model === "btc" || p.model === "eth";
  const alpha = major ? 0.93 : 0.72 + 0.18 * h(p, 2);
  const scale = p.model === "eth" ? 9_500 : 19_500;
  const cap = dailyPrice(asset, day) * supplyOf(asset, day);
  return scale * holders(p, day) * ((cap * 5e-6) / usd) ** alpha;
}

/**
 * Addresses holding ≥ $1M, and > $10M as a share of those: the share drifts on its own (how
 * concentrated the rich tail is), so the two counts are not a fixed ratio of each other, and the
 * > $10M count can never exceed the ≥ $1M count.
 */
export function addressesAboveUsd(asset: string, day: number, usd: number): number {
  const p = profileOf(asset);
  const million = addressesAbove(asset, day, 1e6) * Math.exp(0.01 * gauss(p.seed ^ 0x7b, day));
  if (usd <= 1e6) return Math.round(million);
  const major = p.model === "btc" || p.model === "eth";
  const alpha = major ? 0.93 : 0.72 + 0.18 * h(p, 2);
  const tail =
    10 ** (-alpha * Math.log10(usd / 1e6)) * Math.exp(0.07 * valueNoise(p.seed ^ 0x7c, day, 45) + 0.02 * valueNoise(p.seed ^ 0x7d, day, 7));
  return Math.min(Math.round(million), Math.round(million * Math.min(1, tail)));
}

/** BTC addresses holding 10–100 BTC (≈ 130–140k). */
export function addresses10to100(asset: string, day: number): number {
  const p = profileOf(asset);
  const s = supplyOf(asset, day) * 5e-6;
  const count = 19_500 * holders(p, day) * ((s / 10) ** 0.93 - (s / 100) ** 0.93);
  return Math.round(count * (1 + 0.02 * valueNoise(p.seed ^ 0x10, day, 90) + 0.002 * s11(p.seed ^ 0x11, day)));
}

/** Supply held in addresses with 0.001–0.01 native units: many small wallets (BTC ≈ 35–50k). */
export function smallBandSupply(asset: string, day: number): number {
  const p = profileOf(asset);
  const wallets = p.model === "btc" ? 12e6 : p.model === "eth" ? 15e6 : 10 ** (3 + 3 * h(p, 3));
  return wallets * 0.0035 * holders(p, day) * (1 + 0.015 * valueNoise(p.seed ^ 0x12, day, 60));
}

/** Supply-weighted balance distribution: lognormal in (balance / supply). [μ, σ] per asset. */
function balanceLaw(p: Profile): [number, number] {
  if (p.model === "btc") return [-11.55, 3.27];
  if (p.model === "eth") return [-4.2, 11.7];
  return [-12 + 6 * h(p, 4), 2.5 + 2.5 * h(p, 5)];
}

/**
 * Supply held in addresses with at least `threshold` native units. One law per day for every
 * threshold (its centre moves with whale consolidations, in steps, and slow drift), plus each
 * threshold's own churn (coins crossing that one boundary: a few hundredths of a unit of log
 * balance, far less than the log distance between two thresholds), so the bands nest by
 * construction (more supply above 100 than above 100K, never more than the supply) and yet move
 * with some independence.
 */
export function supplyAbove(asset: string, day: number, threshold: number): number {
  const p = profileOf(asset);
  const supply = supplyOf(asset, day);
  const [mu, sigma] = balanceLaw(p);
  const shift = 0.12 * s11(p.seed ^ 0x13, Math.floor((day + (p.seed & 31)) / 37)) + 0.03 * valueNoise(p.seed ^ 0x14, day, 45);
  const own = hash2(p.seed ^ 0x15, Math.round(Math.log2(threshold)));
  const churn = 0.03 * valueNoise(own, day, 11) + 0.006 * gauss(own, day);
  return supply * (1 - normalCdf((Math.log(threshold / supply) - mu - shift - churn) / sigma));
}

/** Supply in addresses holding at least one billionth of supply: all but dust (BTC ≈ S − 0.1M). */
export function supplyAboveOneBillionth(asset: string, day: number): number {
  return supplyAbove(asset, day, supplyOf(asset, day) * 1e-9);
}

export function exchangeReserve(asset: string, day: number, entity: string): number {
  return exchangeTotal(asset, day) * entityShare(asset, day, entity);
}

/** Running totals by `asset|entity`, index = day − inception. */
const runningTotals = new Memo<string, number[]>(256);

/** Σ of daily net flow × price since inception (USD); the same history whatever range is asked. */
export function runningTotalUsd(asset: string, day: number, entity: string): number {
  const start = profileOf(asset).inceptionDay;
  const values = runningTotals.getOr(`${asset}|${entity}`, () => []);
  let prev = values.length > 0 ? exchangeReserve(asset, start + values.length - 1, entity) : exchangeReserve(asset, start, entity);
  for (let d = start + values.length; d <= day; d++) {
    const reserve = exchangeReserve(asset, d, entity);
    values.push((values[values.length - 1] ?? 0) + (reserve - prev) * dailyPrice(asset, d));
    prev = reserve;
  }
  return day < start ? 0 : values[day - start]!;
}

/** Transactions per day (BTC ≈ 540k). */
export function txCount(asset: string, day: number): number {
  const p = profileOf(asset);
  const base = p.model === "btc" ? 540_000 : p.model === "eth" ? 1_600_000 : 10 ** (3 + 3 * h(p, 8));
  return base * holders(p, day) ** 1.2 * Math.exp(0.08 * gauss(p.seed ^ 0x19, day));
}

/** Median native units per transfer: the USD median grows slower than price (BTC ≈ 0.003 in 2025). */
export function medianTransferNative(asset: string, day: number): number {
  const p = profileOf(asset);
  const usdAtRef =
    p.model === "btc" ? 260 : p.model === "eth" ? 150 : p.model === "stable" ? 400 : 20 + 2000 * unit(hash2(p.seed, 19)) ** 2;
  const rel = Math.exp(0.3 * (dailyLogPrice(asset, day) - Math.log(p.refPrice)));
  return ((usdAtRef * rel) / dailyPrice(asset, day)) * Math.exp(0.18 * gauss(p.seed ^ 0x1a, day));
}
