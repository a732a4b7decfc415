// The 47 venue ids accepted by `exchange` (lowercased ccxt ids; the spec does not list them).

export const VENUES = [
  "binance",
  "okx",
  "bybit",
  "bitget",
  "gate",
  "htx",
  "bitmex",
  "bitfinex",
  "deribit",
  "kraken",
  "kucoin",
  "cme",
  "dydx",
  "coinex",
  "bingx",
  "coinbase",
  "gemini",
  "cryptocom",
  "hyperliquid",
  "bitunix",
  "mexc",
  "whitebit",
  "aster",
  "lighter",
  "edgex",
  "drift",
  "paradex",
  "extended",
  "apex",
  "phemex",
  "bitmart",
  "woo",
  "blofin",
  "lbank",
  "poloniex",
  "bitstamp",
  "upbit",
  "bithumb",
  "bitflyer",
  "delta",
  "btse",
  "toobit",
  "ascendex",
  "bitrue",
  "backpack",
  "bullish",
  "bitso",
] as const;

export type Venue = (typeof VENUES)[number];

const venueSet = new Set<string>(VENUES);
export function isVenue(value: string): value is Venue {
  return venueSet.has(value);
}

/**
 * Custodial entities accepted by `entity_name` on the exchange-flow series (the spec leaves the
 * values open): `all` (every exchange, the default) or a venue id.
 */
export const ENTITY_ALL = "all";

export type MarketKind = "perp" | "future" | "spot";

/**
 * How each venue writes an asset's market there, as its own API names it: the USD(T/C)-margined
 * perpetual where it lists perpetuals (a future at CME, the home-currency spot pair at the venues
 * that list spot only). `{B}` is the upper-case ticker, `{X}` the same with BTC written XBT (BitMEX,
 * Kraken Futures, KuCoin Futures), `{b}` lower case. From the venues' API documentation and
 * research/upstream.md §6 (OKX BTC-USDT-SWAP, Deribit BTC-PERPETUAL, BitMEX XBTUSD, Hyperliquid BTC).
 */
const MARKETS: Record<Venue, readonly [template: string, kind: MarketKind]> = {
  binance: ["{B}USDT", "perp"],
  okx: ["{B}-USDT-SWAP", "perp"],
  bybit: ["{B}USDT", "perp"],
  bitget: ["{B}USDT", "perp"],
  gate: ["{B}_USDT", "perp"],
  htx: ["{B}-USDT", "perp"],
  bitmex: ["{X}USD", "perp"],
  bitfinex: ["t{B}F0:USTF0", "perp"],
  deribit: ["{B}-PERPETUAL", "perp"],
  kraken: ["PF_{X}USD", "perp"],
  kucoin: ["{X}USDTM", "perp"],
  cme: ["{B}", "future"],
  dydx: ["{B}-USD", "perp"],
  coinex: ["{B}USDT", "perp"],
  bingx: ["{B}-USDT", "perp"],
  coinbase: ["{B}-PERP-INTX", "perp"],
  gemini: ["{B}GUSDPERP", "perp"],
  cryptocom: ["{B}USD-PERP", "perp"],
  hyperliquid: ["{B}", "perp"],
  bitunix: ["{B}USDT", "perp"],
  mexc: ["{B}_USDT", "perp"],
  whitebit: ["{B}_PERP", "perp"],
  aster: ["{B}USDT", "perp"],
  lighter: ["{B}", "perp"],
  edgex: ["{B}USD", "perp"],
  drift: ["{B}-PERP", "perp"],
  paradex: ["{B}-USD-PERP", "perp"],
  extended: ["{B}-USD", "perp"],
  apex: ["{B}-USDT", "perp"],
  phemex: ["{B}USDT", "perp"],
  bitmart: ["{B}USDT", "perp"],
  woo: ["PERP_{B}_USDT", "perp"],
  blofin: ["{B}-USDT", "perp"],
  lbank: ["{B}USDT", "perp"],
  poloniex: ["{B}_USDT_PERP", "perp"],
  bitstamp: ["{b}usd", "spot"],
  upbit: ["KRW-{B}", "spot"],
  bithumb: ["{B}_KRW", "spot"],
  bitflyer: ["{B}_JPY", "spot"],
  delta: ["{B}USD", "perp"],
  btse: ["{B}-PERP", "perp"],
  toobit: ["{B}-SWAP-USDT", "perp"],
  ascendex: ["{B}-PERP", "perp"],
  bitrue: ["E-{B}-USDT", "perp"],
  backpack: ["{B}_USDC_PERP", "perp"],
  bullish: ["{B}-USDC-PERP", "perp"],
  bitso: ["{b}_mxn", "spot"],
};

/** An asset's market at a venue as the venue writes it (Hyperliquid's BTC perpetual is `BTC`, OKX's `BTC-USDT-SWAP`). */
export function venueMarket(venue: Venue, base: string): { symbol: string; kind: MarketKind } {
  const [template, kind] = MARKETS[venue];
  const upper = base.toUpperCase();
  const symbol = template
    .replace("{B}", upper)
    .replace("{X}", upper === "BTC" ? "XBT" : upper)
    .replace("{b}", base.toLowerCase());
  return { symbol, kind };
}
