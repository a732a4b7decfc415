// Names people use: each ticker's name and common aliases, and each metric's plain-language
// synonyms, so "bitcoin", "usd coin" or "exchange reserve" find what the catalog calls btc, usdc
// and exchange_flow/exchange_reserve. Where a ticker's project is not known with confidence, its
// name is the ticker itself (a wrong name would mislead more than none).
import { KNOWN_ASSETS } from "./assets.js";

/** `ticker=Name|alias|alias;` entries. Chain variants (usdt_eth, leo_eos…) are named from their base. */
const NAMES = `
0g=0G|zero gravity; 1inch=1inch Network|1inch; 2z=DoubleZero; a=Vaulta|eos; aave=Aave; ace=Fusionist; ada=Cardano;
aero=Aerodrome Finance|aerodrome; aioz=AIOZ Network; akt=Akash Network|akash; alch=Alchemist AI; algo=Algorand;
all_stablecoins=All stablecoins|stablecoins; ant=Aragon; ape=ApeCoin; apt=Aptos; ar=Arweave; arb=Arbitrum; aster=Aster;
ath=Aethir; atom=Cosmos Hub|cosmos; ausd=Agora Dollar|agora usd; ausdt=AUSDT; avax=Avalanche; awe=AWE Network;
axs=Axie Infinity|axie; b=BUILDon; banana=Banana Gun; bard=Lombard; bat=Basic Attention Token; bch=Bitcoin Cash;
beam=Beam; bnb=BNB|binance coin; bonk=Bonk; brett=Brett; bsv=Bitcoin SV; btc=Bitcoin|xbt; btt=BitTorrent;
busd=Binance USD; cake=PancakeSwap; cc=Canton Coin|canton; cfg=Centrifuge; cfx=Conflux; cheems=Cheems; chz=Chiliz;
ckb=Nervos Network|nervos; comp=Compound; core=Core DAO|core; cow=CoW Protocol|cow swap; cro=Cronos|crypto.com coin;
crv=Curve DAO|curve; crvusd=Curve USD|crvusd; ctc=Creditcoin; cvc=Civic; cvx=Convex Finance|convex; cys=CYS; dai=Dai;
dash=Dash; dcr=Decred; deep=DeepBook; dexe=DeXe; dgb=DigiByte; dog=DOG•GO•TO•THE•MOON|dog go to the moon;
doge=Dogecoin|doge; dot=Polkadot; dydx=dYdX; egld=MultiversX|elrond; elf=aelf; ena=Ethena; ens=Ethereum Name Service;
etc=Ethereum Classic; eth=Ethereum|ether; ethfi=ether.fi|etherfi; eurc=Euro Coin|eurc; fartcoin=Fartcoin;
fdusd=First Digital USD; fet=Artificial Superintelligence Alliance|fetch.ai|asi; ff=Falcon Finance; fil=Filecoin;
floki=Floki; flow=Flow; flr=Flare; fluid=Fluid|instadapp; form=Four; frax=Frax; ftt=FTX Token; fun=FUNToken;
g=Gravity; gala=Gala; gas=Neo Gas|gas; glm=Golem; gmx=GMX; gno=Gnosis; grass=Grass; grt=The Graph|graph; gusd=Gemini Dollar;
gwei=GWEI; h=Humanity Protocol|humanity; hbar=Hedera; hbtc=Huobi BTC; hedg=HedgeTrade; hnt=Helium; home=Defi App;
hot=Holo|holochain; ht=Huobi Token; husd=HUSD; hype=Hyperliquid; icnt=Impossible Cloud Network; icp=Internet Computer;
imx=Immutable; inch=INCH; inj=Injective; iota=IOTA; ip=Story|story protocol; jasmy=JasmyCoin|jasmy; jst=JUST;
jto=Jito; jup=Jupiter; kaia=Kaia; kaito=Kaito; kas=Kaspa; kite=Kite; la=Lagrange; ldo=Lido DAO|lido;
lend=ETHLend (Aave LEND)|ethlend; leo=UNUS SED LEO|leo; link=Chainlink; lit=LIT; lpt=Livepeer; lrc=Loopring;
ltc=Litecoin; lunc=Terra Classic|terra luna classic|luna classic; lusd=Liquity USD; m=MemeCore; maid=MaidSafeCoin;
mana=Decentraland; mantra=MANTRA|om; matic=Polygon (MATIC)|matic; met=Meteora; mina=Mina; mkr=Maker|makerdao;
mnt=Mantle; mon=Monad; morpho=Morpho; move=Movement; near=NEAR Protocol|near; neo=Neo; night=Midnight;
nxm=Nexus Mutual; okb=OKB; ondo=Ondo; op=Optimism; paxg=PAX Gold|paxos gold; pendle=Pendle; pengu=Pudgy Penguins;
pepe=Pepe; pieverse=Pieverse; pippin=Pippin; pol=Polygon|pol; powr=Powerledger; pump=Pump.fun|pump fun;
pyth=Pyth Network|pyth; pyusd=PayPal USD; qnt=Quant; qtum=Qtum; qubic=Qubic; render=Render; river=River;
rose=Oasis Network|oasis; rsr=Reserve Rights; rune=THORChain; rvn=Ravencoin; s=Sonic|fantom; safe=Safe; sand=The Sandbox|sandbox;
sdai=Savings Dai; sei=Sei; sent=Sentient; sfp=SafePal; shib=Shiba Inu; siren=SIREN; skr=SKR; sky=Sky; snt=Status;
snx=Synthetix; sol=Solana; spx=SPX6900; stable=Stable; stg=Stargate Finance|stargate; strk=Starknet; stx=Stacks;
sui=Sui; sun=Sun; susd=sUSD|synthetix usd; susde=Ethena Staked USDe|staked usde; sushi=SushiSwap|sushi; syrup=Maple Finance|maple;
t=Threshold; tag=TAG; tao=Bittensor; theta=Theta Network|theta; tia=Celestia; ton=Toncoin|the open network;
toshi=Toshi; tria=TRIA; trump=Official Trump|trump; trx=Tron; turbo=Turbo; tusd=TrueUSD; twt=Trust Wallet Token;
uai=UAI; ub=UB; uma=UMA; uni=Uniswap; usdc=USD Coin|usdc; usdd=USDD; usde=Ethena USDe|usde; usdk=USDK;
usdm=Mountain Protocol USD; usdt=Tether|usdt; velo=Velo; vet=VeChain; virtual=Virtuals Protocol|virtuals;
vvv=Venice Token|venice; w=Wormhole; wal=Walrus; wbtc=Wrapped Bitcoin; weth=Wrapped Ether; wif=dogwifhat;
wld=Worldcoin|world; wlfi=World Liberty Financial; wusd=WUSD; xaut=Tether Gold; xcn=Onyxcoin; xdc=XDC Network;
xec=eCash; xlm=Stellar; xmr=Monero; xpl=Plasma; xrp=XRP|ripple; xtz=Tezos; xvg=Verge; yfi=yearn.finance|yearn;
yzy=YZY; z=Z; zec=Zcash; zen=Horizen; zil=Zilliqa; zk=ZKsync; zro=LayerZero; zrx=0x Protocol|0x
`;

/** Chains named by ticker suffixes (`usdt_trx` is Tether on Tron). */
const CHAINS: Record<string, string> = {
  eth: "Ethereum",
  trx: "Tron",
  avaxc: "Avalanche C-Chain",
  omni: "Omni Layer",
  eos: "EOS",
  native: "native",
};

const BASES = new Map<string, string[]>();
for (const entry of NAMES.split(";")) {
  const [ticker, names] = entry.trim().split("=") as [string, string];
  BASES.set(
    ticker,
    names.split("|").map((n) => n.trim()),
  );
}

/** Comparable form of a name: lowercase words of letters and digits ("ether.fi" → "ether fi"). */
export function normalizeName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

function namesOf(ticker: string): string[] {
  const own = BASES.get(ticker);
  if (own) return own;
  const cut = ticker.lastIndexOf("_");
  const base = cut > 0 ? BASES.get(ticker.slice(0, cut)) : undefined;
  const chain = cut > 0 ? CHAINS[ticker.slice(cut + 1)] : undefined;
  if (!base || !chain) return [ticker.toUpperCase()];
  return [chain === "native" ? base[0]! : `${base[0]} on ${chain}`];
}

/** Each known ticker's name first, then its aliases. */
export const ASSET_NAMES: ReadonlyMap<string, readonly string[]> = new Map(KNOWN_ASSETS.map((t) => [t, namesOf(t)]));

export function assetName(ticker: string): string | undefined {
  return ASSET_NAMES.get(ticker)?.[0];
}

const NORMALIZED = [...ASSET_NAMES].map(([ticker, names]) => ({ ticker, names: names.map(normalizeName) }));

/**
 * Tickers whose name or an alias matches the text: exact matches when there are any ("ether" → eth),
 * else names that start with it, else names that contain it (at least 3 characters).
 */
export function assetsByName(text: string, pool?: readonly string[]): string[] {
  const q = normalizeName(text);
  if (!q) return [];
  const allowed = pool && new Set(pool);
  const rows = NORMALIZED.filter((r) => !allowed || allowed.has(r.ticker));
  const exact = rows.filter((r) => r.names.includes(q));
  if (exact.length) return exact.map((r) => r.ticker);
  const prefix = rows.filter((r) => r.names.some((n) => n.startsWith(q)));
  if (prefix.length || q.length < 3) return prefix.map((r) => r.ticker);
  return rows.filter((r) => r.names.some((n) => n.includes(q))).map((r) => r.ticker);
}

/** Plain-language synonyms of each metric, by endpoint id (and `price`). */
export const METRIC_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  "derivatives/Volume_usd": ["perp volume", "perpetual volume", "futures volume", "derivatives volume", "trading volume"],
  "derivatives/Buy_trades": ["buy trades", "taker buys", "perp trades"],
  "spot/Trades": ["spot trades", "spot trade count", "trade count"],
  "market/metcalfe_ratio": ["metcalfe", "network value to addresses"],
  "addresses/addresses_count_range_gt_10M_USD": ["whales", "whale addresses", "10m addresses"],
  "market/Realized_cap_impulse_long_term": ["realized cap impulse", "capital inflow", "capital outflow"],
  "addresses_supply/balance_range_0_001_0_01": ["small holders", "retail supply", "shrimp supply"],
  "exchange_flow/exchange_reserve": ["exchange reserve", "exchange balance", "coins on exchanges"],
  "addresses_supply/SplyAdrBalNtv100K": ["whale supply", "100k holders", "whales"],
  "addresses_supply/SplyAdrBalNtv100": ["large holders supply", "100 coin holders"],
  "addresses_supply/SplyAdrBal1in1B": ["one billionth holders", "holders supply"],
  "addresses/AdrBalUSD1MCnt": ["millionaire addresses", "1m addresses", "whales"],
  "addresses/addresses_count_range_10_100": ["sharks", "10 to 100 btc addresses"],
  "market/structural_support_lower_band": ["structural support", "support band", "price floor"],
  "exchange_flow/running_total_usd": ["exchange net flow", "netflow", "cumulative exchange flow"],
  "fees/fee_price_usd": ["fees", "transaction fee", "average fee"],
  "lifespan/Terminal_adjusted_cdd": ["coin days destroyed", "cdd", "dormancy"],
  "holder_supply/lth_supply_in_profit": ["long term holders in profit", "lth supply in profit", "supply in profit"],
  "holder_supply/sth_supply_in_profit": ["short term holders in profit", "sth supply in profit", "supply in profit"],
  "market/invested_capital_in_loss": ["capital in loss", "unrealized loss"],
  "holder_supply/Supply_range_1w_1m": ["hodl waves", "young supply", "1 week to 1 month supply"],
  "mining/RevHashRateUSD": ["hash price", "hashprice", "miner revenue"],
  "mining/DiffLast": ["difficulty", "mining difficulty"],
  "market/lth_realized_cap": ["realized cap", "lth realized cap", "long term holder cost basis"],
  "transactions/TxTfrValMedNtv": ["median transfer", "transfer value", "transaction size"],
  "lifespan/Lth_mvrv": ["mvrv", "lth mvrv", "market value to realized value"],
  "lifespan/Cvdd": ["cvdd", "price floor", "cumulative value days destroyed"],
  "derivatives/metrics-variation": ["metrics variation", "24h change", "overview"],
  "liquidation_levels/heatmap": ["liquidation heatmap", "liquidations", "liquidation levels"],
  price: ["price", "ohlc", "candles", "close"],
};

/** Metric ids with a synonym containing the text (normalized), in catalog order. */
export function metricsBySynonym(text: string): string[] {
  const q = normalizeName(text);
  if (q.length < 3) return [];
  return Object.entries(METRIC_SYNONYMS)
    .filter(([, words]) => words.some((w) => normalizeName(w).includes(q)))
    .map(([id]) => id);
}
