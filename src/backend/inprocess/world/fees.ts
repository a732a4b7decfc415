// The fee market: mean fee per transaction (USD) from block-space demand. Where the event
// calendar knows a chain (BTC), a level per era (from 2017 the month's median of the published daily
// means: Blockchain.com's charts to 2024, Coin Metrics' community data in 2025, as anchors.json's
// sources name them) plus congestion waves that lift it by up to two orders of magnitude for days to
// weeks, each sized to the published daily mean at its peak; elsewhere a level that follows the
// price, with the remembered congestion episodes.
import { gauss, u01, valueNoise } from "../util/hash.js";
import { dayOf, lastAtOrBefore } from "./levels.js";
import { feeLevelsOf, type Wave, wavesOf } from "./market/calendar.js";
import { dailyLogPrice } from "./market/price.js";
import type { Points } from "./market/reference.js";
import { type Profile, profileOf } from "./profiles.js";

/** A wave is felt for this many e-folding times on either side of its peak. */
const WAVE_REACH = 7;

/**
 * Log of the level on a day, before waves and noise. Between two points the fee in coin terms
 * (what the queue for block space bids, in satoshis) moves log-linearly and the USD fee is that at
 * the day's price, so a rally between two points raises the USD fee with it; past the last point it
 * moves with the square root of the price.
 */
function calmLog(asset: string, levels: Points, day: number): number {
  const { days, logs } = levels;
  const i = lastAtOrBefore(days, day);
  if (i < 0) return logs[0]!;
  const p = dailyLogPrice(asset, day);
  if (i === days.length - 1) return logs[i]! + 0.5 * (p - dailyLogPrice(asset, days[i]!));
  const f = (day - days[i]!) / (days[i + 1]! - days[i]!);
  const coin0 = logs[i]! - dailyLogPrice(asset, days[i]!);
  const coin1 = logs[i + 1]! - dailyLogPrice(asset, days[i + 1]!);
  return coin0 + (coin1 - coin0) * f + p;
}

/**
 * Lift of the mean fee (log) per daily sigma of a price move beyond the first, by days since the
 * move: 0.1 in all, most of it the day after (a 3-sigma day lifts the fee about a fifth over the days
 * it takes to clear). Fitted to the published daily means 2019-2025 against their month's median,
 * which already carries a volatile month's higher level: after a move of 4 sigma or more the day's
 * mean stood about a fifth above its month's median (2017-2024), not double.
 */
const RUSH_SPREAD = [0.02, 0.05, 0.03] as const;

/** A wave's weight on a day: 1 at its peak, falling off exponentially on either side. */
function weight(w: Wave, day: number): number {
  const d = day - w.peakDay;
  const scale = d < 0 ? w.rise : w.decay;
  return Math.abs(d) > WAVE_REACH * scale ? 0 : Math.exp(-Math.abs(d) / scale);
}

function calendarFee(asset: string, p: Profile, levels: Points, day: number): number {
  const calm = calmLog(asset, levels, day);
  let lift = 0;
  let strongest = 0;
  for (const w of wavesOf(asset)) {
    const k = weight(w, day);
    if (k === 0) continue;
    // The lift at the peak takes the day's calm level to the published peak.
    lift += k * Math.max(0, Math.log(w.usd) - calmLog(asset, levels, w.peakDay));
    strongest = Math.max(strongest, k);
  }
  // A big price move sends coins to and from exchanges: past a daily sigma, demand for block space
  // rises with the size of the move. The queue it builds clears at the rate blocks allow, so the
  // lift is spread over the move's day and the two after it, most of it the day after.
  let rush = 0;
  for (let k = 0; k < RUSH_SPREAD.length; k++) {
    const move = Math.abs(dailyLogPrice(asset, day - k) - dailyLogPrice(asset, day - k - 1)) / p.sigma;
    rush += RUSH_SPREAD[k]! * Math.max(0, move - 1);
  }
  // Day-to-day demand noise, quiet on a wave's peak (its published level) and loud between them.
  const quiet = 1 - strongest;
  const noise = quiet * (0.18 * gauss(p.seed ^ 0x17, day) + 0.22 * valueNoise(p.seed ^ 0x18, day, 9) + rush);
  return Math.exp(calm + lift + noise);
}

/** Fee-market congestion episodes of chains without a calendar: [day, peak multiplier, width in days]. */
const CONGESTION: Record<string, ReadonlyArray<readonly [number, number, number]>> = {
  eth: [
    [dayOf("2017-12-10"), 15, 10],
    [dayOf("2020-09-17"), 60, 25],
    [dayOf("2021-05-12"), 120, 20],
    [dayOf("2021-11-10"), 90, 25],
    [dayOf("2022-05-01"), 60, 5],
    [dayOf("2024-03-10"), 20, 15],
  ],
};

/** Mean fee per transaction in USD (BTC ≈ $0.5 at the end of 2025, $128 on the 2024 halving day). */
export function feePriceUsd(asset: string, day: number): number {
  const p = profileOf(asset);
  const levels = feeLevelsOf(p.base);
  if (levels) return calendarFee(p.base, p, levels, day);
  const base = p.model === "eth" ? 0.2 : 10 ** (-3.3 + 3 * u01(p.seed, 507));
  const rel = Math.exp(0.5 * (dailyLogPrice(asset, day) - Math.log(p.refPrice)));
  let congestion = 0;
  for (const [center, peak, width] of CONGESTION[p.base] ?? []) congestion += Math.log(peak) * Math.exp(-(((day - center) / width) ** 2));
  return base * rel * Math.exp(congestion + 0.25 * gauss(p.seed ^ 0x17, day) + 0.35 * valueNoise(p.seed ^ 0x18, day, 30));
}
