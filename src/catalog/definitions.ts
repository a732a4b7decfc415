// What a value means, where the unit and the spec's one-line purpose leave it open, and the common
// on-chain concepts the catalog does not offer, each with the nearest metric that is and how it differs.

/** By endpoint id: enough to interpret a value (sign, valuation, scale). */
export const MEANINGS: Readonly<Record<string, string>> = {
  "market/Realized_cap_impulse_long_term":
    "ln(realized cap / realized cap 365 days earlier), a 365-day log change: the % change is e^x − 1 (0.333 = +39.5 %, −0.223 = −20 %); 0 = unchanged; the embedded simulation compresses values above 2",
  "exchange_flow/running_total_usd":
    "running sum since the asset's first day of each day's net exchange flow (change in exchange balances, inflows positive) valued at that day's price; falling = net outflow",
  "lifespan/Lth_mvrv": "price / realized price of long-term holders (coins unmoved 155+ days): above 1 they hold a profit on average",
  "market/lth_realized_cap": "what long-term holders' coins (unmoved 155+ days) cost when they last moved, summed in USD",
  "market/invested_capital_in_loss":
    "what the coins now worth less than they cost (at their last move) cost, in USD; 0 at an all-time high",
  "mining/RevHashRateUSD": "miners' daily revenue (new coins and fees, in USD) per TH/s of hash rate",
  "mining/DiffLast": "mining difficulty, dimensionless; it tracks hash rate (BTC: hash rate ≈ difficulty × 2^32 / 600 hashes per second)",
  "exchange_flow/exchange_reserve": "coins held on exchange wallets (all venues, or the one named by entity_name)",
  "market/metcalfe_ratio": "ln(market cap in USD) / ln(active addresses²): a log ratio near 1 (BTC about 1.06)",
  "lifespan/Terminal_adjusted_cdd":
    "coin-days destroyed that day (coins moved × days since they last moved), scaled by circulating / maximum supply",
  "lifespan/Cvdd": "a USD price floor from cumulative value-days destroyed, kept as a running maximum: it never falls",
  "holder_supply/lth_supply_in_profit":
    "coins of long-term holders (unmoved 155+ days) whose price at their last move is at or below today's",
  "holder_supply/sth_supply_in_profit":
    "coins of short-term holders (moved within 155 days) whose price at their last move is at or below today's",
};

export interface MissingConcept {
  /** Normalized search words that name the concept (lowercase, letters and digits only). */
  names: readonly string[];
  concept: string;
  /** The nearest offered metric, and how it differs. */
  nearest: string;
  differs: string;
}

export const NOT_OFFERED: readonly MissingConcept[] = [
  {
    names: ["mvrv", "marketvaluetorealizedvalue", "mvrvratio"],
    concept: "MVRV (market cap / realized cap of all coins)",
    nearest: "lifespan/Lth_mvrv",
    differs: "the same ratio for long-term holders only (price / their realized price)",
  },
  {
    names: ["realizedprice", "realisedprice", "realizedcap", "costbasis"],
    concept: "realized price or realized cap of all coins",
    nearest: "market/lth_realized_cap",
    differs: "long-term holders' realized cap in USD only; their realized price is price / lifespan/Lth_mvrv",
  },
  {
    names: ["nupl", "netunrealizedprofit", "netunrealizedprofitloss", "unrealizedprofit"],
    concept: "NUPL (net unrealized profit / market cap)",
    nearest: "market/invested_capital_in_loss",
    differs: "the loss side only, in USD (holder_supply/lth_supply_in_profit and sth_supply_in_profit give coins in profit)",
  },
  {
    names: ["sopr", "spentoutputprofitratio"],
    concept: "SOPR (spent outputs' value at spending / at creation)",
    nearest: "lifespan/Terminal_adjusted_cdd",
    differs: "how much coin age is spent (coin-days destroyed), not the profit of what is spent",
  },
  {
    names: ["hashrate", "hashpower", "networkhashrate"],
    concept: "hash rate",
    nearest: "mining/DiffLast",
    differs:
      "difficulty, which tracks hash rate (BTC: hash rate ≈ difficulty × 2^32 / 600 per second); mining/RevHashRateUSD is revenue per TH/s, not the hash rate",
  },
  {
    names: ["funding", "fundingrate", "fundingrates"],
    concept: "funding rates",
    nearest: "liquidation_levels/heatmap",
    differs: "its top-trader long/short ratio gauges positioning; no rate paid between longs and shorts",
  },
  {
    names: ["stablecoinsupply", "stablecoinmarketcap", "stablecoinissuance", "stablecoinmints", "totalstablecoinsupply"],
    concept: "total stablecoin supply or issuance",
    nearest: "addresses_supply/SplyAdrBal1in1B",
    differs:
      "per stablecoin (usdt, usdc, dai…): supply held by addresses with at least a billionth of the supply, which is nearly all of it; exchange_flow/running_total_usd with asset all_stablecoins gives their exchange flows",
  },
  {
    names: ["etfflows", "etfflow", "etfinflows", "etfoutflows", "etfholdings", "spotetf", "etf"],
    concept: "spot ETF flows or holdings",
    nearest: "exchange_flow/exchange_reserve",
    differs: "coins on exchange wallets; ETF custody and creation/redemption flows are not in the catalog",
  },
  {
    names: ["totalfees", "feerevenue", "feestotal", "dailyfees", "networkfees"],
    concept: "total fees paid per day",
    nearest: "fees/fee_price_usd",
    differs: "the mean fee per transaction in USD, not the day's total; mining/RevHashRateUSD is miners' revenue (coins and fees) per TH/s",
  },
  {
    names: ["minerrevenue", "minersrevenue", "miningrevenue", "minerincome"],
    concept: "miners' total revenue",
    nearest: "mining/RevHashRateUSD",
    differs: "revenue per TH/s of hash rate in USD, not the network's total",
  },
  {
    names: ["ust", "ustc", "terrausd", "terraclassicusd"],
    concept: "TerraUSD (UST, now USTC)",
    nearest: "none",
    differs:
      "not a ticker here; Terra Classic's own coin is lunc, which is covered; tickers that merely contain these letters (jst, twt…) are other assets",
  },
  {
    names: ["openinterest", "oi"],
    concept: "open interest",
    nearest: "liquidation_levels/heatmap",
    differs: "open liquidation notional by price level, not the total of open contracts",
  },
];

/** Concepts the catalog does not offer that a search names (exact word, or a part of at least 4 letters). */
export function missingConcepts(text: string): MissingConcept[] {
  const q = text.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (!q) return [];
  return NOT_OFFERED.filter((c) => c.names.some((n) => n === q || (q.length >= 4 && n.length >= 4 && (n.includes(q) || q.includes(n)))));
}
