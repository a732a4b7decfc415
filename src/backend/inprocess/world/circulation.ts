// Circulating supply and exchange reserves of each asset at the end of a day: BTC's issuance, the
// reference supply points (stablecoins minted at the market's pace between them, a token on several
// chains split by chain), a hashed growth rate for tickers without anchors, and the coins held on
// exchange wallets.
import { type Octave, octaveNoise, u01 } from "../util/hash.js";
import {
  type AnchorTable,
  anchorTable,
  BTC_INCEPTION_DAY,
  BTC_RESERVE_POINTS,
  btcSupply,
  ETH_RESERVE_POINTS,
  ETH_SUPPLY,
  interpolate,
  REF_DAY,
  STABLES_SUPPLY,
} from "./levels.js";
import { publishedReservesOf } from "./market/calendar.js";
import { dailyLogPrice } from "./market/price.js";
import { supplyFromPoints, trailingGrowth } from "./market/supply.js";
import { profileOf } from "./profiles.js";

const growths = new Map<string, number>();

/**
 * Share of Tether's supply on each chain (public issuance dashboards, rounded): Omni carried it
 * all until 2018, Ethereum then Tron took over. Other variants hold a constant slice.
 */
const CHAIN_SHARES: Record<string, ReadonlyArray<readonly [string, number]>> = {
  usdt_omni: [
    ["2014-10-06", 1],
    ["2017-12-31", 0.95],
    ["2018-12-31", 0.6],
    ["2019-12-31", 0.3],
    ["2020-12-31", 0.05],
    ["2022-12-31", 0.002],
    ["2025-12-28", 0.0005],
  ],
  usdt_eth: [
    ["2017-11-28", 0.02],
    ["2018-12-31", 0.38],
    ["2019-12-31", 0.6],
    ["2020-12-31", 0.55],
    ["2021-12-31", 0.5],
    ["2022-12-31", 0.5],
    ["2023-12-31", 0.5],
    ["2025-12-28", 0.45],
  ],
  usdt_trx: [
    ["2019-04-16", 0.01],
    ["2019-12-31", 0.1],
    ["2020-12-31", 0.38],
    ["2021-12-31", 0.45],
    ["2022-12-31", 0.45],
    ["2023-12-31", 0.48],
    ["2025-12-28", 0.42],
  ],
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
    const pace = profile.model === "stable" ? mintPace : undefined;
    return shareOfBase(asset, day, profile.supplyShare) * supplyFromPoints(ref.supply, day, growth, ref.maxSupply, pace);
  }
  // A ticker without anchors: supply grows toward its reference level by a hashed yearly rate.
  const years = (day - REF_DAY) / 365;
  const rate = profile.model === "stable" ? 0.3 : 0.02 + 0.12 * u01(profile.seed, 88);
  return profile.refSupply * Math.exp(Math.min(2, Math.max(-3, rate * years)));
}

/** First day of the mint-pace table (BTC's 200th day) and the table: the running sum of daily mint weights. */
const PACE_FROM = BTC_INCEPTION_DAY + 200;
let paceTable: Float64Array | undefined;

/**
 * How fast stablecoins are minted, cumulated by day: a day's weight is e^(2·x), x = BTC's log
 * distance from its 200-day average (within ±1). Dollar tokens are minted when traders bring cash
 * for a rising market and redeemed when it falls, so between two supply points a stablecoin grows
 * in the hot months (Tether's 2021: most of the year's growth in its first five) and idles in the
 * cold ones.
 */
function mintPace(day: number): number {
  if (!paceTable) {
    const n = 22_280 - PACE_FROM;
    paceTable = new Float64Array(n);
    let window = 0;
    for (let d = PACE_FROM - 200; d < PACE_FROM; d++) window += dailyLogPrice("btc", d);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const d = PACE_FROM + i;
      const log = dailyLogPrice("btc", d);
      const x = Math.max(-1, Math.min(1, log - window / 200));
      sum += Math.exp(2 * x);
      paceTable[i] = sum;
      window += log - dailyLogPrice("btc", d - 200);
    }
  }
  const i = day - PACE_FROM;
  return i < 0 ? 0 : paceTable[Math.min(i, paceTable.length - 1)]! + (i >= paceTable.length ? i - paceTable.length + 1 : 0);
}

const RESERVE_OCTAVES: readonly Octave[] = [
  { period: 60, amplitude: 0.03 },
  { period: 14, amplitude: 0.01 },
  { period: 3, amplitude: 0.004 },
  { period: 1, amplitude: 0.002 },
];

const RESERVE_POINTS: Record<string, ReadonlyArray<readonly [string, number]>> = { btc: BTC_RESERVE_POINTS, eth: ETH_RESERVE_POINTS };
const reserveTables = new Map<string, AnchorTable>();

/**
 * The dated totals that pin a coin's exchange reserve (BTC, ETH), or undefined: the levels of
 * levels.ts and the published totals of the calendar ("reserves") together, by day.
 */
export function reserveTable(asset: string): AnchorTable | undefined {
  const points = RESERVE_POINTS[asset];
  if (!points) return undefined;
  let table = reserveTables.get(asset);
  if (!table) reserveTables.set(asset, (table = anchorTable([...points, ...publishedReservesOf(asset)])));
  return table;
}

/** Days of the published totals that pin a coin's exchange reserve (BTC, ETH), or undefined. */
export function reserveAnchorDays(asset: string): Float64Array | undefined {
  return reserveTable(asset)?.days;
}

/** Native units on all exchange wallets at the end of a day, before the calendar's dated flows (custody.ts adds them). */
export function reserveOf(asset: string, day: number): number {
  const profile = profileOf(asset);
  const table = reserveTable(asset);
  if (table) {
    const lastDay = table.days[table.days.length - 1]!;
    const { log, distance } = interpolate(table, day);
    // Past the last anchor the outflow trend continues (−8 %/yr) for three years, then levels off.
    const trend = day > lastDay ? (-0.08 * Math.min(day - lastDay, 1095)) / 365 : 0;
    return Math.exp(log + trend + octaveNoise(profile.seed ^ 0x4f1bbcdc, day, RESERVE_OCTAVES, distance));
  }
  const fraction = (profile.model === "stable" ? 0.15 : 0.05) + 0.2 * u01(profile.seed, 77);
  return (
    supplyOf(asset, day) * fraction * Math.exp(octaveNoise(profile.seed ^ 0x4f1bbcdc, day, RESERVE_OCTAVES) - (0.1 * (day - REF_DAY)) / 365)
  );
}
