// Time series of the service: bucket grid, history bounds and columnar/record generation for
// the OHLCV-style and metric-series endpoints.
import { DAY_MS, type Endpoint, type MarketType, type Timeframe, TIMEFRAME_MS, type Venue } from "../../../catalog/index.js";
import type { TimeRecord } from "../../../catalog/responses.js";
import { recordsFromColumns } from "../encoders/series-json.js";
import { dataClock, lastCompleteDay, MINUTE_MS } from "../world/clock.js";
import { profileOf } from "../world/profiles.js";
import { shareOf } from "../world/shares.js";
import { BUCKETS_PER_DAY, fillDay, fillDayCounts } from "./cascade.js";
import { fillFiltered, needsMinutes } from "./filtered.js";
import { firstDayOf, lastDayOf, metricFn } from "./metrics.js";
import { cascadeSeeds, dailyTotal, familyOf } from "./volumes.js";

export interface SeriesQuery {
  endpoint: Endpoint;
  asset: string;
  timeframe: Timeframe;
  startMs: number;
  endMs: number;
  exchange?: Venue;
  symbol?: string;
  marketType?: MarketType;
  entityName?: string;
  /**
   * The service's now: buckets end at the data clock (the last whole minute), the bucket it falls
   * in holds what happened so far, and a daily metric appears once its day has ended. Without it,
   * the whole generated history is served (tests and benchmarks of the generators).
   */
  nowMs?: number;
}

/** First instant with data for the asset (UTC ms, start of its inception day). */
export function inceptionMs(asset: string): number {
  return profileOf(asset).inceptionDay * DAY_MS;
}

/**
 * Last instant with data when the history ends (ETH mining at the Merge, a dead token's last
 * trading day), else undefined. Metric series: the start of their last day.
 */
export function seriesEndMs(endpoint: Endpoint, asset: string): number | undefined {
  const last = lastDayOf(endpoint.id, asset);
  const end = profileOf(asset).endDay;
  const day = last === undefined ? end : end === undefined ? last : Math.min(last, end);
  if (day === undefined) return undefined;
  return endpoint.kind === "ohlcv" ? (day + 1) * DAY_MS - 1 : day * DAY_MS;
}

/** Last instant a query may reach given its now: the data clock (OHLCV) or the last complete day (metrics). */
function nowLimit(endpoint: Endpoint, nowMs: number | undefined): number {
  if (nowMs === undefined) return Infinity;
  return endpoint.kind === "ohlcv" ? dataClock(nowMs) - 1 : lastCompleteDay(nowMs) * DAY_MS;
}

/**
 * First and last bucket starts of the asset's whole history for this endpoint and step, as of
 * the query's now (undefined when the series has no data at all, e.g. difficulty of a coin that
 * is not mined).
 */
export function seriesExtent(q: SeriesQuery): { firstMs: number; lastMs: number } | undefined {
  const { first, count, step } = grid({ ...q, startMs: -Infinity, endMs: Infinity });
  if (count === 0) return undefined;
  return { firstMs: first, lastMs: first + (count - 1) * step };
}

/** First instant with data of a series for an asset (undefined: none at all). */
function seriesStartMs(endpoint: Endpoint, asset: string): number | undefined {
  const first = firstDayOf(endpoint.id, asset);
  if (first === null) return undefined;
  return Math.max(inceptionMs(asset), (first ?? -Infinity) * DAY_MS);
}

/** Metric series are daily whatever timeframe is passed; OHLCV uses the requested one. */
function stepOf(q: SeriesQuery): number {
  return q.endpoint.kind === "ohlcv" ? TIMEFRAME_MS[q.timeframe] : DAY_MS;
}

/** First bucket start and count of the buckets inside [startMs, endMs] ∩ the asset's history. */
function grid(q: SeriesQuery): { first: number; count: number; step: number } {
  const step = stepOf(q);
  const begin = seriesStartMs(q.endpoint, q.asset);
  if (begin === undefined) return { first: 0, count: 0, step };
  const lo = Math.max(q.startMs, begin);
  const end = seriesEndMs(q.endpoint, q.asset);
  const hi = Math.min(q.endMs, end ?? Infinity, nowLimit(q.endpoint, q.nowMs));
  const first = Math.ceil(lo / step) * step;
  const last = Math.floor(hi / step) * step;
  if (!Number.isFinite(first) || !Number.isFinite(last) || last < first) return { first: 0, count: 0, step };
  return { first, count: Math.round((last - first) / step) + 1, step };
}

/** Records the query returns, computed in O(1). */
export function countBuckets(q: SeriesQuery): number {
  return grid(q).count;
}

const dayScratch = new Float64Array(1440);

export function generateColumns(q: SeriesQuery): { times: Float64Array; values: Float64Array } {
  const { first, count, step } = grid(q);
  const times = new Float64Array(count);
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) times[i] = first + i * step;
  if (count === 0) return { times, values };
  if (q.endpoint.kind === "ohlcv") fillOhlcv(q, first, count, step, values);
  else fillMetric(q, first, count, values);
  return { times, values };
}

function fillMetric(q: SeriesQuery, first: number, count: number, values: Float64Array): void {
  const fn = metricFn(q.endpoint.id);
  if (!fn) throw new Error(`no generator for ${q.endpoint.id}`);
  const entity = q.entityName ?? "all";
  const firstDay = Math.round(first / DAY_MS);
  for (let i = 0; i < count; i++) values[i] = fn(q.asset, firstDay + i, entity);
}

function fillOhlcv(q: SeriesQuery, first: number, count: number, step: number, values: Float64Array): void {
  const family = familyOf(q.endpoint);
  // The spot Trades endpoint has no market types: a market_type filter, if passed, is ignored there.
  const filter = { exchange: q.exchange, symbol: q.symbol, marketType: family === "spot" ? undefined : q.marketType };
  const seeds = cascadeSeeds(q.asset, q.endpoint);
  const clock = q.nowMs === undefined ? Infinity : dataClock(q.nowMs);
  const filtered = filter.exchange !== undefined || filter.marketType !== undefined || filter.symbol !== undefined;
  if (filtered && needsMinutes(q.asset, family)) {
    fillFiltered({ asset: q.asset, family, filter, seeds, first, count, step, clock }, values);
    return;
  }
  // Trade counts are whole numbers at every timeframe; volumes are not.
  const fill = family === "volume" ? fillDay : fillDayCounts;
  const share = shareOf(q.asset, family, filter);
  const perDay = BUCKETS_PER_DAY[q.timeframe];
  const firstDay = Math.floor(first / DAY_MS);
  const lastDay = Math.floor((first + (count - 1) * step) / DAY_MS);
  let written = 0;
  for (let day = firstDay; day <= lastDay; day++) {
    const total = share === 0 ? 0 : dailyTotal(q.asset, family, day) * share;
    // Index of this day's first bucket relative to the first requested bucket.
    const dayOffset = Math.round((day * DAY_MS - first) / step);
    if (dayOffset >= 0 && dayOffset + perDay <= count) {
      fill(seeds, day, total, q.timeframe, values, dayOffset);
      written += perDay;
      continue;
    }
    fill(seeds, day, total, q.timeframe, dayScratch, 0);
    const from = Math.max(0, -dayOffset);
    const to = Math.min(perDay, count - dayOffset);
    for (let b = from; b < to; b++) values[dayOffset + b] = dayScratch[b]!;
    written += to - from;
  }
  if (written !== count) throw new Error(`bucket bookkeeping: wrote ${written} of ${count}`);
  // The bucket "now" falls in holds its minutes up to the data clock, no more.
  const lastStart = first + (count - 1) * step;
  if (lastStart + step > clock) {
    const day = Math.floor(lastStart / DAY_MS);
    const total = share === 0 ? 0 : dailyTotal(q.asset, family, day) * share;
    fill(seeds, day, total, "1m", dayScratch, 0);
    let sum = 0;
    for (let m = (lastStart - day * DAY_MS) / MINUTE_MS, stop = (clock - day * DAY_MS) / MINUTE_MS; m < stop; m++) sum += dayScratch[m]!;
    values[count - 1] = sum;
  }
}

/** `{time, [field]: value}` records, ascending. */
export function generateRecords(q: SeriesQuery): TimeRecord[] {
  return recordsFromColumns(generateColumns(q), q.endpoint.field);
}
