// The random-day check: the largest coins' daily closes on days drawn at random (random-days-data.ts,
// none an anchor or event day) against the published closes, within 15 % for BTC and ETH and 20 %
// for the others, on at least 90 % of the days.
import { dayOf } from "../../src/backend/inprocess/world/levels.js";
import { dailyPrice } from "../../src/backend/inprocess/world/market/price.js";
import { RANDOM_DAYS } from "./random-days-data.js";

/** Largest ratio (either way) that counts as within, per coin. */
export const dayTolerance = (coin: string): number => (coin === "btc" || coin === "eth" ? 1.15 : 1.2);
/** Share of the days that must be within. */
export const DAY_TARGET = 0.9;

export interface DayRow {
  coin: string;
  days: number;
  within: number;
  median: number;
  worst: number;
  worstWhere: string;
}

/** Each coin's days served/published, and the whole. */
export function scoreDays(): { rows: DayRow[]; within: number; total: number } {
  const rows: DayRow[] = [];
  for (const [coin, list] of Object.entries(RANDOM_DAYS)) {
    const ratios = list.map(([date, close]) => ({ r: dailyPrice(coin, dayOf(date)) / close, date }));
    const off = (r: number) => Math.max(r, 1 / r);
    const sorted = ratios.map((x) => off(x.r)).sort((a, b) => a - b);
    const worst = ratios.reduce((w, x) => (off(x.r) > off(w.r) ? x : w));
    rows.push({
      coin,
      days: list.length,
      within: ratios.filter((x) => off(x.r) <= dayTolerance(coin)).length,
      median: sorted[sorted.length >> 1]!,
      worst: worst.r,
      worstWhere: worst.date,
    });
  }
  return { rows, within: rows.reduce((n, r) => n + r.within, 0), total: rows.reduce((n, r) => n + r.days, 0) };
}
