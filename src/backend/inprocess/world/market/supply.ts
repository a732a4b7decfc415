// Circulating supply of the latent market at the end of each day: the reference's month-end
// supply points, log-linear between them (or paced by market demand), flat before the first; past the last point the growth
// of the last year goes on, halving each year, never above the maximum supply.
import { lastAtOrBefore } from "../levels.js";
import type { Points } from "./reference.js";

/** Yearly log growth over the last year of points (0 with a single point). */
export function trailingGrowth(points: Points): number {
  const { days, logs } = points;
  const n = days.length;
  if (n < 2) return 0;
  const last = days[n - 1]!;
  let i = n - 2;
  while (i > 0 && last - days[i]! < 330) i--;
  const span = last - days[i]!;
  return span > 0 ? ((logs[n - 1]! - logs[i]!) / span) * 365 : 0;
}

/**
 * Supply on `day` from points; `growth` is the yearly log growth carried past the last point.
 * `pace`, when given, is a cumulative measure of how fast supply moves (a running sum of daily
 * weights): between two points supply moves in proportion to it instead of evenly in time.
 */
export function supplyFromPoints(points: Points, day: number, growth: number, maxSupply?: number, pace?: (day: number) => number): number {
  const { days, logs } = points;
  const i = lastAtOrBefore(days, day);
  if (i < 0) return Math.exp(logs[0]!);
  const n = days.length;
  let log: number;
  if (i === n - 1) {
    // Growth that halves every year: at most about 1.44 years of the trailing rate in total.
    const years = (day - days[n - 1]!) / 365;
    const g = Math.max(-0.3, Math.min(1, growth));
    log = logs[n - 1]! + (g * (1 - 0.5 ** years)) / Math.LN2;
  } else {
    let f = (day - days[i]!) / (days[i + 1]! - days[i]!);
    if (pace) {
      const span = pace(days[i + 1]!) - pace(days[i]!);
      if (span > 0) f = (pace(day) - pace(days[i]!)) / span;
    }
    log = logs[i]! + (logs[i + 1]! - logs[i]!) * f;
  }
  const value = Math.exp(log);
  // The maximum bounds the growth past the points only: it is today's, and burns (SHIB's in 2021,
  // OKB's in 2025) lowered it below supply the points record before them.
  return maxSupply && i === n - 1 ? Math.min(value, Math.max(maxSupply, Math.exp(logs[n - 1]!))) : value;
}
