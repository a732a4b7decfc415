// Asset sets exactly as the service spec lists them; every other list of assets derives from these.

// prettier-ignore
export const SET_A = [
  "0g", "1inch", "2z", "a", "aave", "ace", "ada", "aero", "aioz", "akt", "alch", "algo", "ape",
  "apt", "ar", "arb", "aster", "ath", "atom", "ausd", "ausdt", "avax", "awe", "axs", "b", "banana",
  "bard", "bat", "bch", "beam", "bnb", "bonk", "brett", "bsv", "btc", "btt", "cake", "cc", "cfg",
  "cfx", "cheems", "chz", "ckb", "comp", "core", "cow", "cro", "crv", "crvusd", "ctc", "cvx",
  "cys", "dash", "deep", "dexe", "dog", "doge", "dot", "dydx", "egld", "ena", "ens", "etc", "eth",
  "ethfi", "fartcoin", "fet", "ff", "fil", "floki", "flr", "fluid", "form", "frax", "g", "gala",
  "gas", "glm", "gmx", "gno", "grass", "grt", "gwei", "h", "hbar", "hnt", "home", "hot", "hype",
  "icnt", "icp", "imx", "inch", "inj", "iota", "ip", "jasmy", "jst", "jto", "jup", "kaia", "kaito",
  "kas", "kite", "la", "ldo", "link", "lit", "lpt", "ltc", "lunc", "m", "mana", "mantra", "met",
  "mina", "mnt", "mon", "morpho", "move", "near", "neo", "night", "okb", "ondo", "op", "paxg",
  "pendle", "pengu", "pepe", "pieverse", "pippin", "pol", "pump", "pyth", "qnt", "qtum", "qubic",
  "render", "river", "rose", "rsr", "rune", "rvn", "s", "safe", "sand", "sei", "sent", "sfp",
  "shib", "siren", "skr", "sky", "snx", "sol", "spx", "stable", "stg", "strk", "stx", "sui", "sun",
  "susd", "syrup", "t", "tag", "tao", "theta", "tia", "ton", "toshi", "tria", "trump", "trx",
  "turbo", "tusd", "twt", "uai", "ub", "uni", "velo", "vet", "virtual", "vvv", "w", "wal", "wif",
  "wld", "wlfi", "wusd", "xaut", "xcn", "xdc", "xec", "xlm", "xmr", "xpl", "xrp", "xtz", "xvg",
  "yfi", "yzy", "z", "zec", "zen", "zil", "zk", "zro", "zrx",
] as const;
// prettier-ignore
export const SET_M1 = [
  "1inch", "aave", "ada", "algo", "all_stablecoins", "ant", "bat", "bch", "btc", "busd", "comp",
  "cro", "crv", "crvusd", "cvc", "dai", "dash", "dcr", "dgb", "doge", "dot", "elf", "etc", "eth",
  "eurc", "eurc_eth", "fdusd", "flow_native", "frax", "frax_eth", "ftt", "fun", "gas", "gno",
  "gusd", "hbtc", "hedg", "ht", "husd", "icp", "ldo", "lend", "leo_eos", "leo_eth", "link", "lpt",
  "lrc", "lrc_eth", "ltc", "lusd", "lusd_eth", "maid", "mana", "matic_eth", "mkr", "neo", "nxm",
  "paxg", "pol_eth", "powr", "pyusd", "pyusd_eth", "qnt", "qtum", "qtum_eth", "sdai", "sdai_eth",
  "shib", "shib_eth", "snt", "snx", "susde", "susde_eth", "sushi", "tusd", "tusd_eth", "tusd_trx",
  "uma", "uni", "usdc", "usdc_avaxc", "usdc_trx", "usdd", "usdd_eth", "usde", "usde_eth", "usdk",
  "usdm", "usdm_eth", "usdt", "usdt_avaxc", "usdt_eth", "usdt_omni", "usdt_trx", "wbtc", "weth",
  "xaut", "xlm", "xrp", "xvg", "yfi", "zec", "zrx",
] as const;
// prettier-ignore
export const SET_M2 = [
  "1inch", "aave", "ada", "algo", "all_stablecoins", "ant", "bat", "bch", "btc", "busd", "comp",
  "cro", "crv", "cvc", "dai", "dash", "dcr", "dgb", "doge", "dot", "elf", "etc", "eth", "ftt",
  "fun", "gas", "gno", "gusd", "hbtc", "hedg", "ht", "husd", "icp", "lend", "link", "lpt", "ltc",
  "maid", "mana", "mkr", "neo", "nxm", "paxg", "powr", "qnt", "snt", "snx", "sushi", "tusd", "uma",
  "uni", "usdc", "usdk", "usdt", "usdt_eth", "usdt_omni", "usdt_trx", "wbtc", "weth", "xaut",
  "xlm", "xrp", "xvg", "yfi", "zec", "zrx",
] as const;
// prettier-ignore
export const SET_X1 = [
  "1inch", "aave", "ada", "algo", "btc", "busd", "comp", "cro", "crv", "dai", "doge", "dot", "elf",
  "etc", "eth", "fdusd", "fdusd_eth", "flow_native", "fun", "gusd", "hbtc", "ht", "ldo", "leo_eth",
  "link", "lpt", "lrc", "lrc_eth", "ltc", "mana", "matic_eth", "mkr", "neo", "paxg", "pol_eth",
  "qnt", "sdai", "sdai_eth", "shib", "shib_eth", "snx", "sushi", "trx", "tusd", "tusd_eth",
  "tusd_trx", "uni", "usdc", "usdc_avaxc", "usdc_trx", "usde", "usde_eth", "usdk", "usdt",
  "usdt_avaxc", "usdt_eth", "usdt_trx", "wbtc", "weth", "xaut", "xlm", "xrp", "zec",
] as const;
// prettier-ignore
export const SET_F1 = [
  "1inch", "ada", "algo", "ant", "bch", "btc", "comp", "cvc", "dai", "dash", "dcr", "dgb", "doge",
  "etc", "eth", "ftt", "gas", "ht", "icp", "ltc", "maid", "neo", "nxm", "qnt", "snx", "sushi",
  "usdk", "usdt", "wbtc", "xaut", "xlm", "xmr", "xrp", "xvg", "yfi", "zec", "zrx",
] as const;
// prettier-ignore
export const SET_L1 = [
  "bch", "btc", "dash", "doge", "ltc", "zec",
] as const;
// prettier-ignore
export const SET_R1 = [
  "bch", "btc", "dash", "doge", "etc", "eth", "ltc", "xmr", "zec",
] as const;
// prettier-ignore
export const SET_D1 = [
  "algo", "ant", "bat", "btc", "crv", "dcr", "dgb", "fun", "gas", "hbtc", "ht", "husd", "lpt",
  "mana", "neo", "snx", "weth", "xlm", "xvg", "zec",
] as const;

/** Set A without the six stablecoins the spec removes for metrics-variation. */
export const SET_B_EXCLUDED = ["ausd", "ausdt", "crvusd", "susd", "tusd", "wusd"] as const;

/** The shape of a ticker (what the service accepts in a path before looking it up). */
export const ASSET_PATTERN = /^[a-z0-9_]{1,32}$/;

/**
 * Every ticker some listed set names, sorted. The spec's open set (transactions/TxTfrValMedNtv,
 * "any asset") is this list: a ticker the catalog knows nothing of has no chain to measure.
 */
const KNOWN: readonly string[] = [
  ...new Set<string>([SET_A, SET_M1, SET_M2, SET_X1, SET_F1, SET_L1, SET_R1, SET_D1].flat().concat(["leo_eos", "all_stablecoins"])),
].sort();

export type AssetSetId = "A" | "B" | "M1" | "M2" | "M2_LEO" | "X1" | "F1" | "L1" | "R1" | "D1" | "BTC_ONLY" | "STABLES_BTC_ETH" | "OPEN";

export interface AssetSet {
  id: AssetSetId;
  /** How the spec names or describes the set. */
  label: string;
  /** Members in spec order (the open set: every known ticker, sorted); null is kept for a set without a list. */
  members: readonly string[] | null;
}

const excludedB = new Set<string>(SET_B_EXCLUDED);

export const ASSET_SETS: Record<AssetSetId, AssetSet> = {
  A: { id: "A", label: "set A (210 derivatives and spot tickers)", members: SET_A },
  B: { id: "B", label: "set B (set A without 6 stablecoins)", members: SET_A.filter((a) => !excludedB.has(a)) },
  M1: { id: "M1", label: "set M1", members: SET_M1 },
  M2: { id: "M2", label: "set M2", members: SET_M2 },
  M2_LEO: { id: "M2_LEO", label: "set M2 plus leo_eos", members: [...SET_M2, "leo_eos"] },
  X1: { id: "X1", label: "set X1", members: SET_X1 },
  F1: { id: "F1", label: "set F1", members: SET_F1 },
  L1: { id: "L1", label: "set L1", members: SET_L1 },
  R1: { id: "R1", label: "set R1", members: SET_R1 },
  D1: { id: "D1", label: "set D1", members: SET_D1 },
  BTC_ONLY: { id: "BTC_ONLY", label: "btc only", members: ["btc"] },
  STABLES_BTC_ETH: { id: "STABLES_BTC_ETH", label: "all_stablecoins, btc, eth", members: ["all_stablecoins", "btc", "eth"] },
  OPEN: { id: "OPEN", label: `every ticker the catalog knows (${KNOWN.length})`, members: KNOWN },
};

const memberSets = new Map<AssetSetId, ReadonlySet<string>>(
  Object.values(ASSET_SETS)
    .filter((s) => s.members !== null)
    .map((s) => [s.id, new Set(s.members)]),
);

export function assetInSet(setId: AssetSetId, asset: string): boolean {
  const members = memberSets.get(setId);
  return members ? members.has(asset) : ASSET_PATTERN.test(asset);
}

/** Every ticker named by some set, sorted: the universe for suggestions and completions. */
export const KNOWN_ASSETS: readonly string[] = KNOWN;
