// One daily value function per metric-series endpoint, and the human labels used by
// metrics-variation. Keys are the catalog's endpoint ids as types: a series without its function, or
// a series or OHLCV endpoint without its label, does not compile.
import type { OhlcvId, SeriesId } from "../../../catalog/index.js";
import { valueNoise } from "../util/hash.js";
import { supplyOf } from "../world/circulation.js";
import { feePriceUsd } from "../world/fees.js";
import { dailyLogPrice } from "../world/market/price.js";
import { profileOf } from "../world/profiles.js";
import { difficulty, revHashRateUsd } from "./mining.js";
import {
  addresses10to100,
  addressesAboveUsd,
  exchangeReserve,
  medianTransferNative,
  metcalfeRatio,
  runningTotalUsd,
  smallBandSupply,
  supplyAbove,
  supplyAboveOneBillionth,
} from "./onchain.js";
import {
  coinDaysDestroyed,
  cvdd,
  investedCapitalInLoss,
  lthMvrv,
  lthRealizedCap,
  lthSupplyInProfit,
  realizedCapImpulse,
  sthSupplyInProfit,
  structuralSupport,
} from "./valuation.js";

export type MetricFn = (asset: string, day: number, entity: string) => number;

/** Maximum supply used by the terminal normalization (doge has none: its own supply). */
const MAX_SUPPLY: Record<string, number> = { btc: 21e6, bch: 21e6, ltc: 84e6, dash: 18.92e6, zec: 21e6 };

/** Share of supply last moved 1 week – 1 month ago: higher when the market moves (BTC 0.6–1.6M). */
function supplyRange1w1m(asset: string, day: number): number {
  const p = profileOf(asset);
  const move = Math.abs(dailyLogPrice(asset, day) - dailyLogPrice(asset, day - 30));
  return supplyOf(asset, day) * 0.04 * (1 + 2.2 * Math.min(0.5, move)) * Math.exp(0.18 * valueNoise(p.seed ^ 0x21, day, 20));
}

export const METRICS: Readonly<Record<SeriesId, MetricFn>> = {
  "market/metcalfe_ratio": (a, d) => metcalfeRatio(a, d),
  "addresses/addresses_count_range_gt_10M_USD": (a, d) => addressesAboveUsd(a, d, 1e7),
  "market/Realized_cap_impulse_long_term": (a, d) => realizedCapImpulse(a, d),
  "addresses_supply/balance_range_0_001_0_01": (a, d) => smallBandSupply(a, d),
  "exchange_flow/exchange_reserve": (a, d, e) => exchangeReserve(a, d, e),
  "addresses_supply/SplyAdrBalNtv100K": (a, d) => supplyAbove(a, d, 100_000),
  "addresses_supply/SplyAdrBalNtv100": (a, d) => supplyAbove(a, d, 100),
  "addresses_supply/SplyAdrBal1in1B": (a, d) => supplyAboveOneBillionth(a, d),
  "addresses/AdrBalUSD1MCnt": (a, d) => addressesAboveUsd(a, d, 1e6),
  "addresses/addresses_count_range_10_100": (a, d) => addresses10to100(a, d),
  "market/structural_support_lower_band": (a, d) => structuralSupport(a, d),
  "exchange_flow/running_total_usd": (a, d, e) => runningTotalUsd(a, d, e),
  "fees/fee_price_usd": (a, d) => feePriceUsd(a, d),
  "lifespan/Terminal_adjusted_cdd": (a, d) =>
    coinDaysDestroyed(a, d) * (supplyOf(a, d) / (MAX_SUPPLY[profileOf(a).base] ?? supplyOf(a, d))),
  "holder_supply/lth_supply_in_profit": (a, d) => lthSupplyInProfit(a, d),
  "holder_supply/sth_supply_in_profit": (a, d) => sthSupplyInProfit(a, d),
  "market/invested_capital_in_loss": (a, d) => investedCapitalInLoss(a, d),
  "holder_supply/Supply_range_1w_1m": (a, d) => supplyRange1w1m(a, d),
  "mining/RevHashRateUSD": (a, d) => revHashRateUsd(miningChain(a) ?? a, d),
  "mining/DiffLast": (a, d) => difficulty(miningChain(a) ?? a, d),
  "market/lth_realized_cap": (a, d) => lthRealizedCap(a, d),
  "transactions/TxTfrValMedNtv": (a, d) => medianTransferNative(a, d),
  "lifespan/Lth_mvrv": (a, d) => lthMvrv(a, d),
  "lifespan/Cvdd": (a, d) => cvdd(a, d),
};

/** The daily value function of a metric-series endpoint; undefined for any other id. */
export function metricFn(endpointId: string): MetricFn | undefined {
  return Object.hasOwn(METRICS, endpointId) ? METRICS[endpointId as SeriesId] : undefined;
}

/** The human label of a series or OHLCV endpoint; undefined for any other id. */
export function labelOf(endpointId: string): string | undefined {
  return Object.hasOwn(LABELS, endpointId) ? LABELS[endpointId as SeriesId | OhlcvId] : undefined;
}

/**
 * The chain whose proof-of-work metrics an asset carries: its own when it is mined, its host's
 * for a token on Ethereum (until the Merge), none otherwise (a proof-of-stake coin or a token on
 * a chain that is not mined has no difficulty and no hashprice).
 */
export function miningChain(asset: string): string | undefined {
  const p = profileOf(asset);
  if (p.mined) return asset;
  if (p.host === "ethereum") return "eth";
  return undefined;
}

/** First day of a series for an asset: null when it has none at all, undefined when only the asset's history limits it. */
export function firstDayOf(endpointId: string, asset: string): number | null | undefined {
  if (!endpointId.startsWith("mining/")) return undefined;
  const chain = miningChain(asset);
  if (chain === undefined) return null;
  // A token on Ethereum listed after the Merge never saw its host mined.
  const until = profileOf(chain).minedUntilDay;
  if (until !== undefined && profileOf(asset).inceptionDay > until) return null;
  return undefined;
}

/** Last day of a series whose history ends (proof-of-work metrics of ETH and its tokens end at the Merge). */
export function lastDayOf(endpointId: string, asset: string): number | undefined {
  if (!endpointId.startsWith("mining/")) return undefined;
  const chain = miningChain(asset);
  return chain === undefined ? undefined : profileOf(chain).minedUntilDay;
}

/** Human labels for metrics-variation, by endpoint id. */
export const LABELS: Readonly<Record<SeriesId | OhlcvId, string>> = {
  "derivatives/Volume_usd": "Volume (USD)",
  "derivatives/Buy_trades": "Buy trades",
  "spot/Trades": "Spot trades",
  "market/metcalfe_ratio": "Metcalfe ratio",
  "addresses/addresses_count_range_gt_10M_USD": "Addresses holding > $10M",
  "market/Realized_cap_impulse_long_term": "Realized cap impulse (long term)",
  "addresses_supply/balance_range_0_001_0_01": "Supply in 0.001–0.01 balances",
  "exchange_flow/exchange_reserve": "Exchange reserve",
  "addresses_supply/SplyAdrBalNtv100K": "Supply in addresses ≥ 100K",
  "addresses_supply/SplyAdrBalNtv100": "Supply in addresses ≥ 100",
  "addresses_supply/SplyAdrBal1in1B": "Supply in addresses ≥ 1/1B of supply",
  "addresses/AdrBalUSD1MCnt": "Addresses holding ≥ $1M",
  "addresses/addresses_count_range_10_100": "Addresses holding 10–100 BTC",
  "market/structural_support_lower_band": "Structural support (lower band)",
  "exchange_flow/running_total_usd": "Exchange net flow, running total (USD)",
  "fees/fee_price_usd": "Mean fee per transaction (USD)",
  "lifespan/Terminal_adjusted_cdd": "Terminal-adjusted CDD",
  "holder_supply/lth_supply_in_profit": "LTH supply in profit",
  "holder_supply/sth_supply_in_profit": "STH supply in profit",
  "market/invested_capital_in_loss": "Invested capital in loss (USD)",
  "holder_supply/Supply_range_1w_1m": "Supply last moved 1w–1m ago",
  "mining/RevHashRateUSD": "Hashprice (USD per TH/s per day)",
  "mining/DiffLast": "Difficulty",
  "market/lth_realized_cap": "LTH realized cap (USD)",
  "transactions/TxTfrValMedNtv": "Median transfer value (native)",
  "lifespan/Lth_mvrv": "LTH MVRV",
  "lifespan/Cvdd": "CVDD (USD)",
};
