// Mining metrics: difficulty as a step function (one level per ~14-day retarget epoch) and
// hashprice (miner revenue per unit of hash rate per day, USD).
import { BTC_DIFFICULTY, ETH_DIFFICULTY, MERGE_DAY, REF_DAY, btcSubsidy, dayOf, interpolate } from "./anchors.js";
import { chainState, indexOf } from "./chain.js";
import { octaveNoise, u01, type Octave } from "./hash.js";
import { dailyPrice } from "./price.js";
import { profileOf } from "./profiles.js";
import { feePriceUsd, txCount } from "./onchain.js";

/** Retarget epochs are 14 days, aligned so that one starts on the last BTC anchor (2025-12-20). */
export const EPOCH_DAYS = 14;
const EPOCH_ORIGIN = dayOf("2025-12-20");

const EPOCH_OCTAVES: readonly Octave[] = [
  { period: 8 * EPOCH_DAYS, amplitude: 0.05 }, { period: 2 * EPOCH_DAYS, amplitude: 0.025 },
];

/** First day of the epoch containing `day`. */
export function epochStart(day: number): number {
  return EPOCH_ORIGIN + Math.floor((day - EPOCH_ORIGIN) / EPOCH_DAYS) * EPOCH_DAYS;
}

/** Past the last anchor, difficulty follows hash rate: +1.2 % per epoch on average, bounded noise. */
function btcTarget(day: number): number {
  const lastDay = BTC_DIFFICULTY.days[BTC_DIFFICULTY.days.length - 1]!;
  const { log, distance } = interpolate(BTC_DIFFICULTY, day);
  const trend = day > lastDay ? 0.012 * ((day - lastDay) / EPOCH_DAYS) * Math.exp(-(day - lastDay) / 1500) : 0;
  return Math.exp(log + trend + octaveNoise(0x0d1ff1a5, day, EPOCH_OCTAVES, distance));
}

/** Difficulty of the last block of a day. ETH's stops at the Merge (proof of stake afterwards). */
export function difficulty(asset: string, day: number): number {
  const profile = profileOf(asset);
  // Whole numbers, as difficulty is published (and the 2025 anchor reads exactly 1.4826e14).
  if (profile.model === "btc") return Math.round(btcTarget(epochStart(day)));
  if (asset === "eth") {
    // Ethash retargeted every block: a smooth daily series.
    const { log, distance } = interpolate(ETH_DIFFICULTY, Math.min(day, MERGE_DAY));
    return Math.exp(log + octaveNoise(profile.seed ^ 0x33, day, EPOCH_OCTAVES, distance));
  }
  // Other chains: hash rate chases the smoothed price, hardware efficiency adds ~20 %/yr.
  const start = epochStart(day);
  const state = chainState(asset, Math.max(start, profile.inceptionDay));
  const ref = state.emaLog[indexOf(state, REF_DAY)]!;
  const ema = state.emaLog[indexOf(state, start)]!;
  const base = 10 ** (3 + 9 * u01(profile.seed, 41));
  return base * Math.exp(0.8 * (ema - ref) + (0.2 * (start - REF_DAY)) / 365);
}

/** Hash rate in TH/s implied by difficulty: BTC D·2³²/600 s, ETH D/13.3 s. */
function hashRateTHs(asset: string, day: number): number {
  const d = difficulty(asset, day);
  return profileOf(asset).model === "btc" ? (d * 2 ** 32) / 600 / 1e12 : d / 13.3 / 1e12;
}

/** ETH block reward by era (5, 3, then 2 ETH), ~6,500 blocks a day. */
function ethIssuance(day: number): number {
  const reward = day < dayOf("2017-10-16") ? 5 : day < dayOf("2019-02-28") ? 3 : 2;
  return 6500 * reward;
}

/** Hashprice: (issuance + fees) in USD per TH/s per day (BTC ≈ 0.0374 at the end of 2025). */
export function revHashRateUsd(asset: string, day: number): number {
  const profile = profileOf(asset);
  const price = dailyPrice(asset, day);
  const fees = feePriceUsd(asset, day) * txCount(asset, day);
  if (profile.model === "btc") return (144 * btcSubsidy(day) * price + fees) / hashRateTHs(asset, day);
  if (asset === "eth") return (ethIssuance(day) * price + fees) / hashRateTHs(asset, day);
  // Other chains: revenue per difficulty unit scaled to a hashed hashprice level at the reference day.
  const level = 10 ** (-2.5 + 2 * u01(profile.seed, 42));
  const rel = (price / profile.refPrice) * (difficulty(asset, REF_DAY) / difficulty(asset, day));
  return level * rel;
}
