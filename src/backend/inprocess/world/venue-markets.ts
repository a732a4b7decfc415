// What each venue trades: the size of its derivatives and spot books with the dated-future part of
// its derivatives, and the quote currencies of its markets with their weights.
import type { MarketType, Venue } from "../../../catalog/index.js";

/** [perpetual + dated derivatives weight, spot weight, dated-future fraction of derivatives]. */
export const VENUE_WEIGHTS: Record<Venue, readonly [number, number, number]> = {
  binance: [100, 100, 0.05],
  okx: [45, 25, 0.08],
  bybit: [45, 20, 0.04],
  bitget: [40, 12, 0.01],
  gate: [22, 12, 0.02],
  htx: [10, 8, 0.1],
  bitmex: [4, 0, 0.1],
  bitfinex: [1.5, 3, 0],
  deribit: [6, 0, 0.35],
  kraken: [2, 8, 0.3],
  kucoin: [8, 8, 0],
  cme: [8, 0, 1],
  dydx: [1.5, 0, 0],
  coinex: [3, 3, 0],
  bingx: [12, 3, 0],
  coinbase: [3, 35, 0.3],
  gemini: [0.5, 2, 0],
  cryptocom: [10, 12, 0],
  hyperliquid: [25, 0, 0],
  bitunix: [6, 1, 0],
  mexc: [20, 12, 0],
  whitebit: [8, 5, 0],
  aster: [10, 0, 0],
  lighter: [8, 0, 0],
  edgex: [3, 0, 0],
  drift: [1, 0, 0],
  paradex: [1.5, 0, 0],
  extended: [1, 0, 0],
  apex: [1.5, 0, 0],
  phemex: [5, 2, 0],
  bitmart: [4, 3, 0],
  woo: [2, 1, 0],
  blofin: [3, 0.5, 0],
  lbank: [4, 3, 0],
  poloniex: [0.5, 1, 0],
  bitstamp: [0, 6, 0],
  upbit: [0, 14, 0],
  bithumb: [0, 8, 0],
  bitflyer: [0.5, 3, 0],
  delta: [1.5, 0, 0],
  btse: [1, 0.5, 0],
  toobit: [2, 1, 0],
  ascendex: [0.5, 0.5, 0],
  bitrue: [1, 1, 0],
  backpack: [1, 1, 0],
  bullish: [0.5, 3, 0],
  bitso: [0, 1, 0],
};

type Quotes = ReadonlyArray<readonly [quote: string, weight: number]>;
const FIAT_SPOT: Quotes = [
  ["USD", 0.75],
  ["EUR", 0.15],
  ["USDC", 0.05],
  ["USDT", 0.05],
];
const DEX_PERP: Quotes = [["USD", 1]];

/** The usual quote mix of a market: USDT and USDC. */
const STABLE_QUOTES: Quotes = [
  ["USDT", 0.85],
  ["USDC", 0.15],
];
const USD_ONLY: Quotes = [["USD", 1]];

const SPOT_QUOTES: Partial<Record<Venue, Quotes>> = {
  binance: [
    ["USDT", 0.7],
    ["USDC", 0.15],
    ["FDUSD", 0.12],
    ["EUR", 0.03],
  ],
  coinbase: FIAT_SPOT,
  kraken: FIAT_SPOT,
  bitstamp: FIAT_SPOT,
  gemini: FIAT_SPOT,
  bullish: FIAT_SPOT,
  upbit: [
    ["KRW", 0.9],
    ["USDT", 0.1],
  ],
  bithumb: [["KRW", 1]],
  bitflyer: [["JPY", 1]],
  bitso: [
    ["MXN", 0.7],
    ["USD", 0.3],
  ],
};

/** Dated futures settle in USD at the regulated venues; elsewhere partly in USDT. */
const FUTURE_QUOTES: Quotes = [
  ["USD", 0.6],
  ["USDT", 0.4],
];
const USD_FUTURES = new Set<Venue>(["cme", "coinbase", "kraken"]);

const INVERSE_SWAPS: Quotes = [
  ["USD", 0.7],
  ["USDT", 0.3],
];
const SWAP_QUOTES: Partial<Record<Venue, Quotes>> = {
  binance: [
    ["USDT", 0.8],
    ["USDC", 0.1],
    ["USD", 0.1],
  ],
  bitmex: INVERSE_SWAPS,
  deribit: INVERSE_SWAPS,
  kraken: INVERSE_SWAPS,
  coinbase: INVERSE_SWAPS,
  hyperliquid: DEX_PERP,
  dydx: DEX_PERP,
  drift: DEX_PERP,
  paradex: DEX_PERP,
  lighter: DEX_PERP,
  edgex: DEX_PERP,
  extended: DEX_PERP,
  apex: DEX_PERP,
};

export function quotesOf(venue: Venue, marketType: MarketType): Quotes {
  if (marketType === "spot") return SPOT_QUOTES[venue] ?? STABLE_QUOTES;
  if (marketType === "future") return USD_FUTURES.has(venue) ? USD_ONLY : FUTURE_QUOTES;
  return SWAP_QUOTES[venue] ?? STABLE_QUOTES;
}
