// The 47 venue ids accepted by `exchange` (lowercased ccxt ids; the spec does not list them).

export const VENUES = [
  "binance", "okx", "bybit", "bitget", "gate", "htx", "bitmex", "bitfinex", "deribit", "kraken",
  "kucoin", "cme", "dydx", "coinex", "bingx", "coinbase", "gemini", "cryptocom", "hyperliquid",
  "bitunix", "mexc", "whitebit", "aster", "lighter", "edgex", "drift", "paradex", "extended", "apex",
  "phemex", "bitmart", "woo", "blofin", "lbank", "poloniex", "bitstamp", "upbit", "bithumb",
  "bitflyer", "delta", "btse", "toobit", "ascendex", "bitrue", "backpack", "bullish", "bitso",
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
