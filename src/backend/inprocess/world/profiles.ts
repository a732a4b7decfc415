// Per-asset profile of the latent market: listing and end of trading, reference price and supply,
// volatility, what its price follows (itself, a base coin for wrapped tokens and chain variants, a
// peg, gold), mining and host chain. Levels come from the reference anchors; a ticker the anchors
// do not describe gets hashed levels and is marked synthetic.
import { mix32, seedOf, unit } from "../util/hash.js";
import { Memo } from "../util/memo.js";
import { BTC_INCEPTION_DAY, dayOf } from "./levels.js";
import { type Reference, referenceOf } from "./market/reference.js";

export type PriceModel = "btc" | "eth" | "gold" | "stable" | "alt";

export interface Profile {
  asset: string;
  /** Ticker whose price path this asset trades on (usdt_eth → usdt, wbtc → btc). */
  base: string;
  model: PriceModel;
  seed: number;
  /** First day with data (listing; a chain variant's or wrapped token's own). */
  inceptionDay: number;
  /** Last day with data when trading ended (a dead or migrated token). */
  endDay?: number;
  /** Price at REF_DAY (USD). */
  refPrice: number;
  /** Circulating supply at REF_DAY (native units). */
  refSupply: number;
  /** Daily log volatility of the price path. */
  sigma: number;
  /** Scale of the idiosyncratic price noise relative to BTC (BTC = 1). */
  vol: number;
  /** Derivatives volume per day at REF_DAY (USD, all venues and market types). */
  refDerivVolume: number;
  /** Mean derivatives trade size (USD). */
  tradeSize: number;
  /** Spot trades per day at REF_DAY. */
  refSpotTrades: number;
  /** Listing breadth: 1 for btc/eth (every venue), 2 for other majors (every sizeable venue), 3 otherwise. */
  tier: 1 | 2 | 3;
  /** Proof-of-work algorithm while mined, and the day mining ended (ETH: the Merge). */
  mined?: string;
  minedUntilDay?: number;
  /** Host chain of a token ("ethereum", "solana", …); undefined for a coin of its own chain. */
  host?: string;
  /** The reference entry the levels come from; undefined for a synthetic ticker. */
  reference?: Reference;
  /** Share of the reference's supply this ticker holds (a chain variant's slice of its base). */
  supplyShare: number;
}

/** Derivatives volume per day at the end of 2025 (USD, all venues) where public figures exist. */
const DERIV_VOLUME: Record<string, number> = {
  btc: 65e9,
  eth: 35e9,
  sol: 9e9,
  xrp: 5e9,
  bnb: 1.8e9,
  doge: 3e9,
  ada: 1.1e9,
  trx: 4e8,
  ltc: 9e8,
  bch: 8e8,
  link: 9e8,
  dot: 3e8,
  xlm: 2.5e8,
  avax: 6e8,
  xmr: 2e8,
  etc: 2e8,
  zec: 1.5e9,
  dash: 1.2e8,
  hype: 1.8e9,
  sui: 9e8,
  ton: 2e8,
  shib: 2e8,
  pepe: 6e8,
  uni: 4e8,
  aave: 4e8,
  bonk: 1.5e8,
  leo: 1e6,
  near: 3e8,
  ena: 5e8,
  wld: 3e8,
};

/**
 * Chain variants and wrapped tokens: [ticker whose price and listing they follow, share of its
 * supply, own listing day]. A wrapped token with reference anchors of its own uses them for supply.
 */
const VARIANTS: Record<string, readonly [string, number, string?]> = {
  usdt_eth: ["usdt", 0.45, "2017-11-28"],
  usdt_trx: ["usdt", 0.42, "2019-04-16"],
  usdt_omni: ["usdt", 0.0005],
  usdt_avaxc: ["usdt", 0.005, "2021-09-28"],
  usdc_trx: ["usdc", 0.003, "2021-06-16"],
  usdc_avaxc: ["usdc", 0.02, "2021-09-28"],
  tusd_eth: ["tusd", 0.7],
  tusd_trx: ["tusd", 0.3, "2021-01-20"],
  eurc_eth: ["eurc", 0.6],
  frax_eth: ["frax", 0.8],
  lrc_eth: ["lrc", 0.95],
  lusd_eth: ["lusd", 1],
  pyusd_eth: ["pyusd", 0.6],
  qtum_eth: ["qtum", 0.001],
  sdai_eth: ["sdai", 1],
  shib_eth: ["shib", 1],
  susde_eth: ["susde", 0.9],
  usdd_eth: ["usdd", 0.05],
  usde_eth: ["usde", 0.9],
  usdm_eth: ["usdm", 0.6],
  fdusd_eth: ["fdusd", 0.6],
  matic_eth: ["pol", 0.1],
  pol_eth: ["pol", 0.05, "2023-10-25"],
  leo_eth: ["leo", 0.97],
  leo_eos: ["leo", 0.03, "2019-05-20"],
  wbtc: ["btc", 0.0065, "2019-01-31"],
  hbtc: ["btc", 0.00002, "2020-02-20"],
  weth: ["eth", 0.024, "2017-12-18"],
};

/** Stablecoins by ticker when the anchors do not say (a peg of "usd" in the anchors also counts). */
const STABLE = new Set([
  "usdt",
  "usdc",
  "dai",
  "busd",
  "tusd",
  "gusd",
  "husd",
  "usdk",
  "fdusd",
  "pyusd",
  "usdd",
  "usde",
  "usdm",
  "lusd",
  "frax",
  "crvusd",
  "susd",
  "ausd",
  "ausdt",
  "wusd",
  "all_stablecoins",
]);
const GOLD = new Set(["paxg", "xaut"]);

const cache = new Memo<string, Profile>(4096);

export function profileOf(asset: string): Profile {
  return cache.getOr(asset, buildProfile);
}

/**
 * Daily log volatility from the anchors: the spread of month-to-month log returns, each scaled to
 * a day (÷ √days), taken robustly (median absolute return ÷ 0.6745, a normal's σ). Crypto months
 * trend (SOL ×50 in 2021, BNB ×14 in 2021-Q1), so a mean of squares measures the trends, not the
 * days: it put BNB at 6.9 % a day where the market's 2021–2025 figure is ~3.5–4 %. Too few
 * monthly returns: the mean of squares over every gap, which can only overstate.
 */
function sigmaOf(ref: Reference | undefined, model: PriceModel, h: number): number {
  if (model === "stable") return ref?.peg === "eur" ? 0.004 : 0.0012;
  if (model === "gold") return 0.006;
  if (model === "btc") return 0.024;
  if (model === "eth") return 0.034;
  if (ref && ref.closes.days.length >= 4) {
    const { days, logs } = ref.closes;
    let sum = 0;
    let n = 0;
    const monthly: number[] = [];
    for (let i = 1; i < days.length; i++) {
      const gap = days[i]! - days[i - 1]!;
      if (gap < 20) continue;
      const r = logs[i]! - logs[i - 1]!;
      sum += r ** 2 / gap;
      n++;
      if (gap <= 100) monthly.push(Math.abs(r) / Math.sqrt(gap));
    }
    const clamp = (v: number) => Math.min(0.1, Math.max(0.002, v));
    if (monthly.length >= MIN_MONTHLY_RETURNS) {
      monthly.sort((a, b) => a - b);
      const mid = monthly.length >> 1;
      const median = monthly.length % 2 ? monthly[mid]! : (monthly[mid - 1]! + monthly[mid]!) / 2;
      return clamp(Math.min(median / 0.6745, Math.sqrt(sum / n)));
    }
    if (n >= 3) return clamp(Math.sqrt(sum / n));
  }
  return 0.035 + 0.025 * h;
}

/** Monthly returns a robust volatility needs (a year of months). */
const MIN_MONTHLY_RETURNS = 12;

function buildProfile(asset: string): Profile {
  const variant = VARIANTS[asset];
  const base = variant?.[0] ?? asset;
  const seed = seedOf(base);
  const h = (k: number) => unit(mix32(seed + k * 0x9e3779b9));
  const own = referenceOf(asset);
  const ref = referenceOf(base) ?? own;
  const peg = ref?.peg;
  const model = modelOf(asset, base, peg);

  const inceptionDay = inceptionOf(asset, variant, own, ref);

  let refPrice: number;
  let refSupply: number;
  if (ref) {
    refPrice = ref.refPrice;
    refSupply = ref.refSupply;
  } else if (model === "stable") {
    refPrice = 1;
    refSupply = asset === "all_stablecoins" ? 310e9 : 10 ** (7 + 3 * h(3));
  } else {
    refPrice = 10 ** (-5 + 7.5 * h(5) ** 1.3);
    refSupply = 10 ** (7.3 + 2.7 * h(6)) / refPrice;
  }
  // A variant holds a slice of its base's supply unless it has its own anchors (wbtc, weth).
  const supplyShare = own && own !== ref ? 1 : variant ? variant[1] : 1;
  const supplyRef = own && own !== ref ? own : ref;
  if (supplyRef) refSupply = supplyRef.refSupply * (own && own !== ref ? 1 : supplyShare);
  const marketCap = refPrice * refSupply;
  const sigma = sigmaOf(ref, model, h(9));
  const stable = model === "stable";
  const refDerivVolume = DERIV_VOLUME[asset] ?? (stable ? 1e6 + 5e7 * h(4) ** 2 : Math.max(2e5, marketCap * (0.02 + 0.3 * h(7) ** 2)));
  const major = model === "btc" || model === "eth";
  const profile: Profile = {
    asset,
    base,
    model,
    seed,
    inceptionDay,
    refPrice,
    refSupply,
    sigma,
    vol: stable ? 0 : sigma / 0.024,
    refDerivVolume,
    tradeSize: model === "btc" ? 3200 : model === "eth" ? 2400 : 300 + 1500 * h(11),
    refSpotTrades: model === "btc" ? 7e6 : model === "eth" ? 5e6 : Math.max(2e3, (refDerivVolume / 1e4) * (0.3 + 0.5 * h(12))),
    tier: major ? 1 : DERIV_VOLUME[asset] !== undefined || base === "usdt" || base === "usdc" ? 2 : 3,
    supplyShare,
  };
  if (ref) profile.reference = supplyRef ?? ref;
  const endDay = (own ?? ref)?.delistedDay;
  if (endDay !== undefined) profile.endDay = endDay;
  setChain(profile, variant !== undefined && base !== asset, ref);
  return profile;
}

/** A wrapped BTC or ETH trades on the coin's price but is a token of its own (an "alt" on chain). */
function modelOf(asset: string, base: string, peg: string | undefined): PriceModel {
  if (asset === "btc" || asset === "eth") return asset;
  if (peg === "gold" || GOLD.has(base)) return "gold";
  if (peg === "usd" || peg === "eur" || STABLE.has(base)) return "stable";
  return "alt";
}

/** The first day an asset trades: its listing, no earlier than its variant's start; BTC's genesis; a hashed day otherwise. */
function inceptionOf(
  asset: string,
  variant: (typeof VARIANTS)[string] | undefined,
  own: ReturnType<typeof referenceOf>,
  ref: ReturnType<typeof referenceOf>,
): number {
  if (asset === "btc") return BTC_INCEPTION_DAY;
  if (asset === "all_stablecoins") return dayOf("2014-10-06");
  if (own && own !== ref) return own.listedDay;
  const day = ref?.listedDay ?? dayOf("2017-01-01") + Math.floor(unit(seedOf(asset)) * (dayOf("2024-12-31") - dayOf("2017-01-01")));
  return variant?.[2] ? Math.max(day, dayOf(variant[2])) : day;
}

/** Mining and host follow the chain the ticker lives on: a wrapped or bridged token is not mined. */
function setChain(profile: Profile, bridged: boolean, ref: ReturnType<typeof referenceOf>): void {
  const asset = profile.asset;
  if (!bridged) {
    if (ref?.mined) profile.mined = ref.mined;
    else if (ref?.minedUntilDay !== undefined) profile.mined = "other-pow";
    if (ref?.minedUntilDay !== undefined) profile.minedUntilDay = ref.minedUntilDay;
    if (ref?.host) profile.host = ref.host;
  } else {
    profile.host = asset.endsWith("_trx")
      ? "tron"
      : asset.endsWith("_avaxc")
        ? "avalanche"
        : asset.endsWith("_omni")
          ? "omni"
          : asset.endsWith("_eos")
            ? "eos"
            : "ethereum";
  }
  if (asset === "btc") profile.mined ??= "sha256";
  if (asset === "eth") {
    profile.mined ??= "ethash";
    profile.minedUntilDay ??= dayOf("2022-09-15");
  }
}
