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

export function quotesOf(venue: Venue, marketType: MarketType): Quotes {
  if (marketType === "spot") {
    switch (venue) {
      case "binance":
        return [
          ["USDT", 0.7],
          ["USDC", 0.15],
          ["FDUSD", 0.12],
          ["EUR", 0.03],
        ];
      case "coinbase":
      case "kraken":
      case "bitstamp":
      case "gemini":
      case "bullish":
        return FIAT_SPOT;
      case "upbit":
        return [
          ["KRW", 0.9],
          ["USDT", 0.1],
        ];
      case "bithumb":
        return [["KRW", 1]];
      case "bitflyer":
        return [["JPY", 1]];
      case "bitso":
        return [
          ["MXN", 0.7],
          ["USD", 0.3],
        ];
      default:
        return [
          ["USDT", 0.85],
          ["USDC", 0.15],
        ];
    }
  }
  if (marketType === "future")
    return venue === "cme" || venue === "coinbase" || venue === "kraken"
      ? [["USD", 1]]
      : [
          ["USD", 0.6],
          ["USDT", 0.4],
        ];
  switch (venue) {
    case "binance":
      return [
        ["USDT", 0.8],
        ["USDC", 0.1],
        ["USD", 0.1],
      ];
    case "bitmex":
    case "deribit":
    case "kraken":
    case "coinbase":
      return [
        ["USD", 0.7],
        ["USDT", 0.3],
      ];
    case "hyperliquid":
    case "dydx":
    case "drift":
    case "paradex":
    case "lighter":
    case "edgex":
    case "extended":
    case "apex":
      return DEX_PERP;
    default:
      return [
        ["USDT", 0.85],
        ["USDC", 0.15],
      ];
  }
}
