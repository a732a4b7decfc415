// Daily totals of the additive OHLCV-style series (derivatives volume and buy trades, spot trades):
// driven by the price path (USD level, big moves), market maturity, weekdays and hashed noise.
import { DAY_MS, type Endpoint } from "../../../catalog/index.js";
import { gauss, seedOf, valueNoise } from "../util/hash.js";
import { dayOf, REF_DAY } from "../world/levels.js";
import { dailyLogPrice, priceAt } from "../world/market/price.js";
import { type Profile, profileOf } from "../world/profiles.js";
import type { ShareFamily } from "../world/shares.js";
import type { CascadeSeeds } from "./cascade.js";

const DERIV_MATURITY_MID = dayOf("2018-09-01");
const SPOT_MATURITY_MID = dayOf("2016-01-01");

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Growth of derivatives markets (tiny before 2016, mature by 2021), 1 at the reference day. */
function derivMaturity(day: number): number {
  return logistic((day - DERIV_MATURITY_MID) / 330) / logistic((REF_DAY - DERIV_MATURITY_MID) / 330);
}

function spotMaturity(day: number): number {
  return logistic((day - SPOT_MATURITY_MID) / 550) / logistic((REF_DAY - SPOT_MATURITY_MID) / 550);
}

/** New listings ramp up over their first weeks. */
function listingRamp(profile: Profile, day: number): number {
  const age = day - profile.inceptionDay;
  return age < 0 ? 0 : 1 - 0.85 * Math.exp(-age / 25);
}

/**
 * Saturday and Sunday trade 30–45 % less (day 0 = Thursday 1970-01-01); Christmas Day and New
 * Year's Day trade about half of a weekday (desks and their clients are away), the days around
 * them (24, 26 and 31 December) a fifth less.
 */
function weekdayFactor(day: number, depth: number): number {
  const weekday = (((day + 4) % 7) + 7) % 7; // 0 = Sunday
  const base = weekday === 0 || weekday === 6 ? 1 - depth : 1 + depth * 0.28;
  return base * holidayFactor(day);
}

function holidayFactor(day: number): number {
  const date = new Date(day * DAY_MS);
  const month = date.getUTCMonth();
  const dom = date.getUTCDate();
  if ((month === 11 && dom === 25) || (month === 0 && dom === 1)) return 0.5;
  if (month === 11 && (dom === 24 || dom === 26 || dom === 31)) return 0.8;
  return 1;
}

/**
 * Volume rises with the day's absolute log return, up to 3× (with the day's own noise, the
 * busiest days of a year run 3–5× its median day, as the market's crash and rally days do).
 */
function moveFactor(profile: Profile, day: number): { factor: number; ret: number } {
  const ret = dailyLogPrice(profile.asset, day) - dailyLogPrice(profile.asset, day - 1);
  const typical = profile.model === "stable" ? 0.002 : 0.025 * Math.max(0.4, profile.vol);
  const excess = Math.max(0, Math.abs(ret) / typical - 1);
  return { factor: Math.min(3, 1 + 0.45 * excess * excess), ret };
}

export function familyOf(endpoint: Endpoint): ShareFamily {
  return endpoint.id === "spot/Trades" ? "spot" : endpoint.id === "derivatives/Buy_trades" ? "trades" : "volume";
}

export function cascadeSeeds(asset: string, endpoint: Endpoint): CascadeSeeds {
  const base = seedOf(asset);
  return { common: base ^ 0x27d4eb2f, own: seedOf(`${asset}|${endpoint.id}`), hourly: (day) => hourlyActivity(asset, day) };
}

const activity = new Float64Array(24);

/** Hours with big price moves draw volume: 1 for a typical hour, up to 4× for a violent one. */
function hourlyActivity(asset: string, day: number): Float64Array {
  const profile = profileOf(asset);
  const typical = profile.model === "stable" ? 0.0004 : 0.004 * Math.max(0.4, profile.vol);
  let prev = Math.log(priceAt(asset, day * DAY_MS));
  for (let h = 0; h < 24; h++) {
    const next = Math.log(priceAt(asset, day * DAY_MS + (h + 1) * 3_600_000));
    const excess = Math.max(0, Math.abs(next - prev) / typical - 1);
    activity[h] = Math.min(4, 1 + 0.5 * excess * excess);
    prev = next;
  }
  return activity;
}

/** Buy share of derivatives trades: 45–55 %, mean-reverting, leaning with the day's move. */
export function buyShare(profile: Profile, day: number, ret: number): number {
  const drift = 0.025 * valueNoise(profile.seed ^ 0x165667b1, day, 9) + (0.012 * gauss(profile.seed ^ 0xd3a2646c, day)) / 1.7;
  const lean = 0.015 * Math.tanh(ret / 0.03);
  return Math.min(0.55, Math.max(0.45, 0.5 + drift + lean));
}

/** Unfiltered daily total of an additive series (USD or trades). */
export function dailyTotal(asset: string, family: ShareFamily, day: number): number {
  const profile = profileOf(asset);
  const ramp = listingRamp(profile, day);
  if (ramp === 0) return 0;
  const logRel = dailyLogPrice(asset, day) - Math.log(profile.refPrice);
  const { factor, ret } = moveFactor(profile, day);
  const noise = Math.exp(0.2 * gauss(profile.seed ^ 0x9e3779b1, day) + 0.15 * valueNoise(profile.seed ^ 0x85ebca6b, day, 20));
  if (family === "spot") {
    const own = Math.exp(0.08 * gauss(profile.seed ^ 0xc2b2ae35, day));
    return profile.refSpotTrades * Math.exp(0.45 * logRel) * spotMaturity(day) * ramp * weekdayFactor(day, 0.3) * noise * own * factor;
  }
  const volume = profile.refDerivVolume * Math.exp(0.85 * logRel) * derivMaturity(day) * ramp * weekdayFactor(day, 0.38) * noise * factor;
  if (family === "volume") return volume;
  // Trade count: volume over a mean trade size that grows slowly with price.
  const tradeSize = profile.tradeSize * Math.exp(0.4 * logRel) * Math.exp(0.06 * gauss(profile.seed ^ 0x27220a95, day));
  return (volume / tradeSize) * buyShare(profile, day, ret);
}
