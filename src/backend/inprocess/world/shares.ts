// How an asset's activity splits over venues, market types and symbols: fixed normalized weights
// per (asset, venue, market type, quote), so filtered series sum exactly to the unfiltered one.
import { MARKET_TYPES, type MarketType, type Venue, VENUES } from "../../../catalog/index.js";
import { gauss, hash2, unit } from "../util/hash.js";
import { Memo } from "../util/memo.js";
import { profileOf } from "./profiles.js";
import { CME_LAUNCH } from "./trading-hours.js";
import { quotesOf, VENUE_WEIGHTS } from "./venue-markets.js";

/** Venues listing dated futures only on the largest assets. */
const CME_ASSETS = new Set(Object.keys(CME_LAUNCH));

/** Which series of the additive family: derivatives volume, derivatives trades, spot trades. */
export type ShareFamily = "volume" | "trades" | "spot";

/**
 * Weights per (venue, market type) for an asset, normalized to sum to 1 (index v * 3 + m). With
 * `cmeOpen` false, CME's session is closed: its weight is 0 and the rest share everything.
 */
function venueMarketWeights(asset: string, family: ShareFamily, cmeOpen = true): Float64Array {
  const profile = profileOf(asset);
  const jitter = profile.tier === 1 ? 0.12 : profile.tier === 2 ? 0.3 : 0.45;
  const weights = new Float64Array(VENUES.length * 3);
  // Spot activity relative to derivatives: spot trades are smaller, so they weigh more by count.
  const spotScale = family === "volume" ? 0.22 : family === "trades" ? 0.32 : 1;
  let sum = 0;
  VENUES.forEach((venue, v) => {
    const [deriv, spot, futureFraction] = VENUE_WEIGHTS[venue];
    const size = Math.max(deriv, spot);
    // Smaller venues list fewer assets; the majors are everywhere, other majors on every sizeable venue.
    const listed =
      profile.tier === 1 ||
      (profile.tier === 2 && size >= 5) ||
      unit(hash2(profile.seed ^ 0x0badf00d, v)) < 0.3 + 0.68 * (size / 100) ** 0.25;
    if (!listed) return;
    const scale = Math.exp(jitter * gauss(profile.seed ^ 0x1234567, v));
    const future = venue === "cme" && (!cmeOpen || !CME_ASSETS.has(profile.base)) ? 0 : deriv * futureFraction;
    const swap = deriv * (1 - futureFraction);
    MARKET_TYPES.forEach((marketType, m) => {
      let w = marketType === "spot" ? spot * spotScale : marketType === "future" ? future : swap;
      if (family === "spot" && marketType !== "spot") w = 0;
      weights[v * 3 + m] = w * scale;
      sum += w * scale;
    });
  });
  if (sum > 0) for (let i = 0; i < weights.length; i++) weights[i]! /= sum;
  return weights;
}

export interface ShareFilter {
  exchange?: Venue;
  marketType?: MarketType;
  symbol?: string;
}

const cache = new Memo<string, number>(4096);
const weightCache = new Memo<string, Float64Array>(1024);

/**
 * Fraction of the asset's unfiltered activity matching the filter (1 without filters). Σ over the
 * 47 venues, or over the three market types, or over an asset's recognized symbols, is exactly the
 * share without that filter; a symbol of another asset (ETHUSDT on btc) has share 0.
 */
export function shareOf(asset: string, family: ShareFamily, filter: ShareFilter, cmeOpen = true): number {
  const { exchange, marketType, symbol } = filter;
  if (!exchange && !marketType && !symbol) return 1;
  const key = `${asset}|${family}|${exchange ?? ""}|${marketType ?? ""}|${symbol ?? ""}|${cmeOpen}`;
  return cache.getOr(key, () => computeShare(asset, family, filter, cmeOpen));
}

/** Whether CME's session changes this asset's venue shares (it lists the asset's futures). */
export function hasSessions(asset: string, family: ShareFamily): boolean {
  return family !== "spot" && CME_ASSETS.has(asset);
}

function weightsOf(asset: string, family: ShareFamily, cmeOpen: boolean): Float64Array {
  return weightCache.getOr(`${asset}|${family}|${cmeOpen}`, () => venueMarketWeights(asset, family, cmeOpen));
}

/**
 * A filter as runs over the cumulative weights of every (venue, market type, quote) cell, in
 * venue order: [from, to, from, to, …]. A whole count M splits over the cells by rounding
 * M × the cumulative weight, so a filter's count is Σ round(M·to) − round(M·from): whole numbers
 * that add up exactly over venues, market types and symbols.
 */
export function filterRuns(asset: string, family: ShareFamily, filter: ShareFilter, cmeOpen: boolean): Float64Array {
  const key = `${asset}|${family}|${filter.exchange ?? ""}|${filter.marketType ?? ""}|${filter.symbol ?? ""}|${cmeOpen}`;
  return runCache.getOr(key, () => {
    const weights = weightsOf(asset, family, cmeOpen);
    const ticker = asset.toUpperCase();
    const runs: number[] = [];
    let cum = 0;
    let open = false;
    VENUES.forEach((venue, v) => {
      MARKET_TYPES.forEach((mt, m) => {
        const w = weights[v * 3 + m]!;
        if (w <= 0) return;
        const quotes = quotesOf(venue, mt).filter(([q]) => q !== ticker);
        const total = quotes.reduce((s, [, qw]) => s + qw, 0);
        for (const [quote, qw] of quotes) {
          const selected =
            (!filter.exchange || venue === filter.exchange) &&
            (!filter.marketType || mt === filter.marketType) &&
            (!filter.symbol || filter.symbol === `${ticker}${quote}`);
          if (selected && !open) runs.push(cum);
          if (!selected && open) runs.push(cum);
          open = selected;
          cum += (w * qw) / total;
        }
      });
    });
    if (open) runs.push(1);
    // The last boundary is exactly 1 whatever the rounding of the sum.
    return Float64Array.from(runs, (x) => Math.min(1, x));
  });
}

const runCache = new Memo<string, Float64Array>(1024);

function computeShare(asset: string, family: ShareFamily, { exchange, marketType, symbol }: ShareFilter, cmeOpen: boolean): number {
  const weights = weightsOf(asset, family, cmeOpen);
  const baseTicker = asset.toUpperCase();
  let share = 0;
  VENUES.forEach((venue, v) => {
    if (exchange && venue !== exchange) return;
    MARKET_TYPES.forEach((mt, m) => {
      if (marketType && mt !== marketType) return;
      const w = weights[v * 3 + m]!;
      share += symbol ? w * symbolShare(baseTicker, venue, mt, symbol) : w;
    });
  });
  return share;
}

function symbolShare(baseTicker: string, venue: Venue, marketType: MarketType, symbol: string): number {
  if (!symbol.startsWith(baseTicker)) return 0;
  const quotes = quotesOf(venue, marketType).filter(([q]) => q !== baseTicker);
  const quote = symbol.slice(baseTicker.length);
  let total = 0;
  let match = 0;
  for (const [q, w] of quotes) {
    total += w;
    if (q === quote) match = w;
  }
  return total > 0 ? match / total : 0;
}

/**
 * Every symbol the asset trades under (on one venue, or on any), by weight: a symbol outside
 * this list selects nothing, so the service refuses it rather than answer zeros.
 */
export function symbolsOf(asset: string, exchange?: Venue): string[] {
  const weights = weightsOf(asset, "volume", true);
  const spot = weightsOf(asset, "spot", true);
  const ticker = asset.toUpperCase();
  const byQuote = new Map<string, number>();
  VENUES.forEach((venue, v) => {
    if (exchange && venue !== exchange) return;
    MARKET_TYPES.forEach((mt, m) => {
      const w = weights[v * 3 + m]! + spot[v * 3 + m]!;
      if (w <= 0) return;
      for (const [quote, qw] of quotesOf(venue, mt)) {
        if (quote === ticker) continue;
        byQuote.set(`${ticker}${quote}`, (byQuote.get(`${ticker}${quote}`) ?? 0) + w * qw);
      }
    });
  });
  return [...byQuote.entries()].sort((a, b) => b[1] - a[1]).map(([s]) => s);
}

/** Share of one venue in the asset's derivatives activity (for the per-exchange heatmap). */
export function derivativesShare(asset: string, venue: Venue): number {
  return (
    shareOf(asset, "volume", { exchange: venue, marketType: "swap" }) + shareOf(asset, "volume", { exchange: venue, marketType: "future" })
  );
}
