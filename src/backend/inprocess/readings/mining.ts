// Mining metrics: difficulty (BTC's on block epochs, difficulty.ts; other chains' by their own
// retarget rules) and hashprice (miner revenue per unit of hash rate per day, USD).
import { type Octave, octaveNoise, u01 } from "../util/hash.js";
import { chainState, indexOf } from "../world/chain.js";
import { btcBlocks, btcDifficulty } from "../world/difficulty.js";
import { feePriceUsd } from "../world/fees.js";
import { btcSubsidy, dayOf, ETH_DIFFICULTY, interpolate, MERGE_DAY, REF_DAY } from "../world/levels.js";
import { dailyPrice } from "../world/market/price.js";
import { profileOf } from "../world/profiles.js";
import { txCount } from "./onchain.js";

/**
 * How often the other chains retarget, in days: LTC every 2,016 blocks of 2.5 minutes (3.5 days),
 * Qubic once an epoch (a week); the rest (BCH, BSV and XEC by ASERT, DOGE by DigiShield, DASH by
 * Dark Gravity Wave, ETC, XMR, ZEC, KAS, DGB, RVN and the others) every block, which a daily
 * series shows as a smooth line.
 */
const RETARGET_DAYS: Record<string, number> = { ltc: 3.5, qubic: 7 };
const EPOCH_ORIGIN = dayOf("2025-12-20");

const EPOCH_OCTAVES: readonly Octave[] = [
  { period: 112, amplitude: 0.05 },
  { period: 28, amplitude: 0.025 },
];

/** The day whose hash rate sets a chain's difficulty on `day`: the start of its retarget epoch, or the day itself. */
function retargetDay(asset: string, day: number): number {
  const every = RETARGET_DAYS[asset];
  return every ? Math.floor(EPOCH_ORIGIN + Math.floor((day - EPOCH_ORIGIN) / every) * every) : day;
}

/** Difficulty of the last block of a day. ETH's stops at the Merge (proof of stake afterwards). */
export function difficulty(asset: string, day: number): number {
  const profile = profileOf(asset);
  // Whole numbers, as difficulty is published (and the 2025 anchor reads exactly 1.4826e14).
  if (profile.model === "btc") return btcDifficulty(day);
  if (asset === "eth") {
    // Ethash retargeted every block: a smooth daily series.
    const { log, distance } = interpolate(ETH_DIFFICULTY, Math.min(day, MERGE_DAY));
    return Math.exp(log + octaveNoise(profile.seed ^ 0x33, day, EPOCH_OCTAVES, distance));
  }
  // Other chains: hash rate chases the smoothed price, hardware efficiency adds ~20 %/yr.
  const start = retargetDay(asset, day);
  const state = chainState(asset, Math.max(start, profile.inceptionDay));
  const ref = state.emaLog[indexOf(state, REF_DAY)]!;
  const ema = state.emaLog[indexOf(state, start)]!;
  const base = 10 ** (3 + 9 * u01(profile.seed, 41));
  return base * Math.exp(0.8 * (ema - ref) + (0.2 * (start - REF_DAY)) / 365);
}

/** BTC hash rate in TH/s estimated from the day's blocks and difficulty. */
function btcHashRateTHs(day: number): number {
  return (btcBlocks(day) * btcDifficulty(day) * 2 ** 32) / 86_400 / 1e12;
}

/** ETH hash rate in TH/s implied by difficulty (D / 13.3 s). */
function ethHashRateTHs(day: number): number {
  return difficulty("eth", day) / 13.3 / 1e12;
}

/** ETH block reward by era (5, 3, then 2 ETH), ~6,500 blocks a day. */
function ethIssuance(day: number): number {
  const reward = day < dayOf("2017-10-16") ? 5 : day < dayOf("2019-02-28") ? 3 : 2;
  return 6500 * reward;
}

/**
 * Hashprice per algorithm at the reference day for chains whose own is not computed from
 * difficulty (USD per TH/s per day; a miner earns the same per hash on every chain of an
 * algorithm, merged LTC+DOGE mining paid together).
 */
const HASHPRICE_AT_REF: Record<string, number> = {
  scrypt: 940,
  x11: 65,
  equihash: 6e7,
  randomx: 3.7e7,
  blake3: 1.1e3,
  kheavyhash: 2.5,
  "other-pow": 50,
};
/** The chain whose revenue and difficulty set its algorithm's hashprice. */
const LEAD: Record<string, string> = { sha256: "btc", ethash: "eth", etchash: "eth", scrypt: "ltc" };

/** Hashprice of the chain that leads an algorithm: (issuance + fees) / hash rate, or the algorithm's level moved by price over difficulty. */
function leadHashprice(chain: string, algorithm: string, day: number): number {
  const profile = profileOf(chain);
  const price = dailyPrice(chain, day);
  const fees = feePriceUsd(chain, day) * txCount(chain, day);
  // BTC: the day's blocks times subsidy, plus the day's fees, over the hash rate those blocks
  // imply at the day's difficulty (blocks x D x 2^32 per day, as the published estimate is made).
  if (profile.model === "btc") return (btcBlocks(day) * btcSubsidy(day) * price + fees) / btcHashRateTHs(day);
  if (chain === "eth") return (ethIssuance(day) * price + fees) / ethHashRateTHs(day);
  const level = HASHPRICE_AT_REF[algorithm] ?? 50;
  return level * (price / dailyPrice(chain, REF_DAY)) * (difficulty(chain, REF_DAY) / difficulty(chain, day));
}

/** LTC's block subsidy (2.5-minute blocks, 576 a day), halving every 840,000 blocks. */
function ltcSubsidy(day: number): number {
  return day < dayOf("2015-08-25") ? 50 : day < dayOf("2019-08-05") ? 25 : day < dayOf("2023-08-02") ? 12.5 : 6.25;
}

/** DOGE's block subsidy (1-minute blocks, 1,440 a day) while merge-mined with LTC: 62,500, 31,250, then a fixed 10,000 from block 600,000. */
function dogeSubsidy(day: number): number {
  return day < dayOf("2014-12-15") ? 62_500 : day < dayOf("2015-02-26") ? 31_250 : 10_000;
}

/** DOGE has been merge-mined with LTC (AuxPoW) since block 371,337. */
const MERGED_FROM = dayOf("2014-09-11");

/** A chain's mining reward on a day (USD): blocks x subsidy at its price, plus fees. */
function rewardUsd(chain: "ltc" | "doge", day: number): number {
  const issued = chain === "ltc" ? 576 * ltcSubsidy(day) : 1_440 * dogeSubsidy(day);
  return issued * dailyPrice(chain, day) + feePriceUsd(chain, day) * txCount(chain, day);
}

/**
 * Hashprice: what a unit of hash rate earns per day in USD. Chains sharing an algorithm pay
 * within a few percent of each other (hash rate moves to the better-paying chain): BCH and BSV
 * follow BTC; ETC followed ETH until the Merge, when ETH's hash rate flooded it (a tenth of the
 * pay, recovering toward a third). Merge-mined DOGE is different: the same scrypt hash rate
 * secures LTC and DOGE at once, so each chain's hashprice is its own reward over that shared rate,
 * and DOGE's is LTC's times the ratio of their rewards (about 6x in 2025).
 */
export function revHashRateUsd(asset: string, day: number): number {
  const profile = profileOf(asset);
  const algorithm = profile.mined ?? "other-pow";
  const spread = Math.exp(0.02 * octaveNoise(profile.seed ^ 0x4a5b, day, SPREAD_OCTAVES));
  if (asset === "etc" && day > MERGE_DAY) {
    const recovery = 0.1 + 0.25 * (1 - Math.exp(-(day - MERGE_DAY) / 365));
    return leadHashprice("eth", "ethash", MERGE_DAY) * (dailyPrice("etc", day) / dailyPrice("etc", MERGE_DAY)) * recovery * spread;
  }
  if (asset === "doge" && day >= MERGED_FROM)
    return leadHashprice("ltc", algorithm, day) * (rewardUsd("doge", day) / rewardUsd("ltc", day));
  const lead = LEAD[algorithm] ?? asset;
  const value = leadHashprice(lead, algorithm, day);
  return lead === asset ? value : value * spread;
}

const SPREAD_OCTAVES: readonly Octave[] = [
  { period: 30, amplitude: 0.6 },
  { period: 3, amplitude: 0.4 },
];
