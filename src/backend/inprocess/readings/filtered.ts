// A filtered OHLCV series (one venue, market type or symbol) read minute by minute: each minute
// of the unfiltered series is split over the venues trading in that hour (CME only in its session)
// and whole trade counts are apportioned in whole numbers, so every bucket is the sum of its
// minutes and the venues add up to the unfiltered series exactly.
import { DAY_MS, MINUTE_MS } from "../../../catalog/index.js";
import { filterRuns, hasSessions, type ShareFamily, type ShareFilter, shareOf } from "../world/shares.js";
import { cmeOpen } from "../world/trading-hours.js";
import { type CascadeSeeds, fillDay, fillDayCounts } from "./cascade.js";
import { dailyTotal } from "./volumes.js";

const minutes = new Float64Array(1440);

/** Whole count of a filter out of `n`: Σ over its runs of round(n·to) − round(n·from). */
function apportion(n: number, runs: Float64Array): number {
  let c = 0;
  for (let r = 0; r < runs.length; r += 2) c += Math.round(n * runs[r + 1]!) - Math.round(n * runs[r]!);
  return c;
}

export interface FilteredQuery {
  asset: string;
  family: ShareFamily;
  filter: ShareFilter;
  seeds: CascadeSeeds;
  /** First bucket start, bucket count and step (ms). */
  first: number;
  count: number;
  step: number;
  /** Minutes at or after this instant have not happened (the data clock); Infinity for none. */
  clock: number;
}

/** Whether a filtered query needs the minute path (counts, or an asset whose CME session matters). */
export function needsMinutes(asset: string, family: ShareFamily): boolean {
  return family !== "volume" || hasSessions(asset, family);
}

export function fillFiltered(q: FilteredQuery, values: Float64Array): void {
  const { asset, family, filter, seeds, first, count, step, clock } = q;
  const counts = family !== "volume";
  const sessions = hasSessions(asset, family);
  const end = Math.min(first + count * step, clock);
  values.fill(0);
  const firstDay = Math.floor(first / DAY_MS);
  const lastDay = Math.floor((end - 1) / DAY_MS);
  for (let day = firstDay; day <= lastDay; day++) {
    const total = dailyTotal(asset, family, day);
    if (counts) fillDayCounts(seeds, day, total, "1m", minutes, 0);
    else fillDay(seeds, day, total, "1m", minutes, 0);
    const dayStart = day * DAY_MS;
    const from = Math.max(0, (first - dayStart) / MINUTE_MS);
    const to = Math.min(1440, (end - dayStart) / MINUTE_MS);
    for (let h = Math.floor(from / 60); h * 60 < to; h++) {
      const open = !sessions || cmeOpen(asset, dayStart + h * 3_600_000);
      const runs = counts ? filterRuns(asset, family, filter, open) : undefined;
      const share = counts ? 0 : shareOf(asset, family, filter, open);
      for (let m = Math.max(from, h * 60); m < Math.min(to, h * 60 + 60); m++) {
        const v = runs ? apportion(minutes[m]!, runs) : minutes[m]! * share;
        const b = Math.floor((dayStart + m * MINUTE_MS - first) / step);
        values[b]! += v;
      }
    }
  }
}
