// Per-asset profile of the synthetic world: what drives its price, its scale and its start date.
// Known majors carry real-world levels; every other ticker gets plausible hashed ones.
import { dayOf, BTC_INCEPTION_DAY, ETH_INCEPTION_DAY } from "./anchors.js";
import { seedOf, unit, mix32 } from "./hash.js";
import { Memo } from "./memo.js";

export type PriceModel = "btc" | "eth" | "gold" | "stable" | "alt";

export interface Profile {
  asset: string;
  /** Ticker without a chain suffix (usdt_eth → usdt); the key of the price path. */
  base: string;
  model: PriceModel;
  seed: number;
  inceptionDay: number;
  /** Price at REF_DAY (USD). */
  refPrice: number;
  /** Circulating supply at REF_DAY (native units). */
  refSupply: number;
  /** Yearly log-growth of supply. */
  supplyGrowth: number;
  /** Scale of the idiosyncratic price noise (BTC = 1). */
  vol: number;
  /** Sensitivity of the log price to BTC's. */
  beta: number;
  /** Derivatives volume per day at REF_DAY (USD, all venues and market types). */
  refDerivVolume: number;
  /** Mean derivatives trade size (USD). */
  tradeSize: number;
  /** Spot trades per day at REF_DAY. */
  refSpotTrades: number;
  /** Listing breadth: 1 for btc/eth (every venue), 2 for other majors (every sizeable venue), 3 otherwise. */
  tier: 1 | 2 | 3;
}

type Known = [inception: string, price: number, supply: number, derivVolume: number];

/** Majors at the end of 2025 (approximate public levels). */
const KNOWN: Record<string, Known> = {
  sol: ["2020-04-10", 125, 560e6, 9e9], xrp: ["2013-08-04", 1.87, 60e9, 5e9],
  bnb: ["2017-07-25", 850, 138e6, 1.8e9], doge: ["2013-12-15", 0.125, 150e9, 3e9],
  ada: ["2017-10-01", 0.35, 36e9, 1.1e9], trx: ["2017-09-13", 0.28, 95e9, 4e8],
  ltc: ["2013-04-28", 77, 76e6, 9e8], bch: ["2017-08-01", 590, 19.9e6, 8e8],
  link: ["2017-09-20", 12.3, 680e6, 9e8], dot: ["2020-08-20", 1.8, 1.6e9, 3e8],
  xlm: ["2014-08-05", 0.21, 32e9, 2.5e8], avax: ["2020-09-22", 12.2, 430e6, 6e8],
  xmr: ["2014-05-21", 430, 18.4e6, 2e8], etc: ["2016-07-24", 12, 154e6, 2e8],
  zec: ["2016-10-28", 450, 16.3e6, 1.5e9], dash: ["2014-01-19", 40, 12.5e6, 1.2e8],
  hype: ["2024-11-29", 25, 340e6, 1.8e9], sui: ["2023-05-03", 1.45, 3.7e9, 9e8],
  ton: ["2021-08-26", 1.6, 2.5e9, 2e8], shib: ["2020-08-01", 7.2e-6, 589e12, 2e8],
  pepe: ["2023-04-17", 4e-6, 420e12, 6e8], uni: ["2020-09-17", 5.9, 630e6, 4e8],
  aave: ["2020-10-02", 150, 15e6, 4e8], bonk: ["2022-12-25", 8e-6, 88e12, 1.5e8],
  leo: ["2019-05-20", 9, 920e6, 1e6], near: ["2020-10-13", 1.55, 1.25e9, 3e8],
  ena: ["2024-04-02", 0.21, 7e9, 5e8], wld: ["2023-07-24", 0.5, 2.5e9, 3e8],
};

/** Assets that ride another asset's price path (wrapped tokens). */
const ALIAS: Record<string, string> = { wbtc: "btc", hbtc: "btc", weth: "eth", leo_eos: "leo", leo_eth: "leo", matic_eth: "pol", pol_eth: "pol" };

const STABLE = new Set([
  "usdt", "usdc", "dai", "busd", "tusd", "gusd", "husd", "usdk", "fdusd", "pyusd", "usdd", "usde",
  "usdm", "lusd", "frax", "crvusd", "susd", "ausd", "ausdt", "wusd", "susde", "sdai", "eurc", "all_stablecoins",
]);
const GOLD = new Set(["paxg", "xaut"]);
/** Chain suffixes of the spec's multi-chain tickers. */
const SUFFIX = /_(eth|trx|omni|avaxc|eos)$/;

const cache = new Memo<string, Profile>(4096);

export function baseOf(asset: string): string {
  if (asset === "all_stablecoins" || asset === "flow_native") return asset;
  return ALIAS[asset] ?? asset.replace(SUFFIX, "");
}

export function profileOf(asset: string): Profile {
  // Generators ask for the same asset's profile per point: answer repeats without a closure.
  if (asset === lastAsset) return lastProfile!;
  lastProfile = cache.getOr(asset, () => buildProfile(asset));
  lastAsset = asset;
  return lastProfile;
}

let lastAsset: string | undefined;
let lastProfile: Profile | undefined;

function buildProfile(asset: string): Profile {
  const base = baseOf(asset);
  const seed = seedOf(base);
  const h = (k: number) => unit(mix32(seed + k * 0x9e3779b9));
  const model: PriceModel = base === "btc" ? "btc" : base === "eth" ? "eth" : GOLD.has(base) ? "gold" : STABLE.has(base) ? "stable" : "alt";
  // Own inception for wrapped tokens and chain variants: they are listed later than the base.
  const ownSeed = seedOf(asset);
  const hashedInception = dayOf("2017-01-01") + Math.floor(unit(ownSeed) * (dayOf("2024-12-31") - dayOf("2017-01-01")));
  const known = KNOWN[base];
  let inceptionDay = asset === "btc" ? BTC_INCEPTION_DAY : asset === "eth" ? ETH_INCEPTION_DAY : hashedInception;
  if (known && asset === base) inceptionDay = dayOf(known[0]);
  if (asset === "all_stablecoins") inceptionDay = dayOf("2014-10-06");
  if (asset === "paxg") inceptionDay = dayOf("2019-09-05");
  if (asset === "xaut") inceptionDay = dayOf("2020-01-22");

  let refPrice: number;
  let refSupply: number;
  let refDerivVolume: number;
  switch (model) {
    case "btc":
      [refPrice, refSupply, refDerivVolume] = [87747.65, 19.968e6, 65e9];
      break;
    case "eth":
      [refPrice, refSupply, refDerivVolume] = [2940, 121.3e6, 35e9];
      break;
    case "gold":
      [refPrice, refSupply, refDerivVolume] = [4480, 2e5 + 6e5 * h(1), 2e7 + 8e7 * h(2)];
      break;
    case "stable":
      refPrice = base === "eurc" ? 1.17 : base === "susde" ? 1.21 : base === "sdai" ? 1.16 : 1;
      refSupply = base === "all_stablecoins" ? 310e9 : base === "usdt" ? 186e9 : base === "usdc" ? 75e9 : 10 ** (7 + 3 * h(3));
      refDerivVolume = 1e6 + 5e7 * h(4) ** 2;
      break;
    default:
      if (known) {
        [, refPrice, refSupply, refDerivVolume] = known;
      } else {
        refPrice = 10 ** (-5 + 7.5 * h(5) ** 1.3);
        const marketCap = 10 ** (7.3 + 2.7 * h(6));
        refSupply = marketCap / refPrice;
        refDerivVolume = marketCap * (0.02 + 0.4 * h(7) ** 2);
      }
  }
  // Wrapped tokens ride the base's price but hold a small slice of its supply.
  if (asset !== base && (model === "btc" || model === "eth")) refSupply *= 0.004 + 0.02 * unit(mix32(ownSeed));
  const stable = model === "stable";
  return {
    asset, base, model, seed, inceptionDay, refPrice, refSupply,
    supplyGrowth: stable ? 0.3 : model === "alt" ? 0.02 + 0.12 * h(8) : 0.01,
    vol: model === "btc" ? 1 : model === "eth" ? 1.25 : model === "gold" ? 0.25 : stable ? 0 : 1.3 + 1.2 * h(9),
    beta: model === "alt" ? 0.75 + 0.45 * h(10) : 1,
    refDerivVolume,
    tradeSize: model === "btc" ? 3200 : model === "eth" ? 2400 : 300 + 1500 * h(11),
    refSpotTrades: model === "btc" ? 7e6 : model === "eth" ? 5e6 : Math.max(2e3, (refDerivVolume / 1e4) * (0.3 + 0.5 * h(12))),
    tier: model === "btc" || model === "eth" ? 1 : known || base === "usdt" || base === "usdc" ? 2 : 3,
  };
}
