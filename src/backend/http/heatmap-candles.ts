// Price over the real service: it has no price endpoint, so candles are read from the heatmap's
// `df` (its price candles). Which heatmap to ask for, and how its candles become the requested
// ones, are pure functions here; HttpBackend makes the one call.
import { isoMinute, parseDateInput } from "../../catalog/dates.js";
import {
  allowedLookbacks,
  DEFAULT_BUCKETS,
  HEATMAP_ID,
  heatmapColumns,
  isTimeframe,
  type Lookback,
  LOOKBACK_MS,
  type Timeframe,
  TIMEFRAME_MS,
  TIMEFRAMES,
} from "../../catalog/index.js";
import type { Heatmap } from "../../catalog/responses.js";
import { type CandleColumns, ServiceError } from "../types.js";
import { parseBound } from "./paging.js";

export interface PricePlan {
  /** The heatmap view whose candles are read. */
  timeframe: Timeframe;
  lookback: Lookback;
  /** Requested bucket (ms): the heatmap's candles are merged into buckets of this size when coarser. */
  stepMs: number;
  /** First requested bucket start and last instant asked (inclusive). */
  startMs: number;
  endMs: number;
}

function invalid(parameter: string, message: string): ServiceError {
  return new ServiceError(400, "invalid_parameter", message, { parameter, endpoint: "price" });
}

/** First column (bucket start) of a heatmap view at `nowMs`. */
function firstColumn(timeframe: Timeframe, lookback: Lookback, nowMs: number): number {
  const step = TIMEFRAME_MS[timeframe];
  return Math.floor(nowMs / step) * step - (heatmapColumns(timeframe, lookback) - 1) * step;
}

/**
 * The cheapest heatmap view whose candles cover the requested range: the coarsest timeframe that
 * divides the requested one (fewest candles to merge), with the shortest lookback reaching back far
 * enough. Every view costs the same (one heatmap call); a range no view reaches is refused, naming
 * the earliest start each timeframe can serve.
 */
export function planPrice(query: Readonly<Record<string, string | undefined>>, nowMs: number): PricePlan {
  const raw = query.timeframe;
  const requested: Timeframe = raw !== undefined && isTimeframe(raw) ? raw : "1d";
  const stepMs = TIMEFRAME_MS[requested];
  const end = query.endDate === undefined ? nowMs : parseBound(query.endDate, true);
  if (Number.isNaN(end)) throw invalid("endDate", `endDate "${query.endDate!.slice(0, 40)}" is not a valid date.`);
  const endMs = Math.min(end, nowMs);
  let startMs: number;
  if (query.startDate === undefined) startMs = Math.floor(endMs / stepMs) * stepMs - (DEFAULT_BUCKETS - 1) * stepMs;
  else {
    const parsed = parseDateInput(query.startDate);
    if (!parsed) throw invalid("startDate", `startDate "${query.startDate.slice(0, 40)}" is not a valid date.`);
    startMs = Math.ceil(parsed.ms / stepMs) * stepMs;
  }
  if (startMs > endMs) throw invalid("startDate", "startDate is after endDate (or after now); swap them or widen the range.");
  const views = TIMEFRAMES.filter((tf) => stepMs % TIMEFRAME_MS[tf] === 0).reverse();
  for (const timeframe of views) {
    // One column of margin: the service's clock may run a little ahead of ours.
    const lookback = allowedLookbacks(timeframe).find((l) => firstColumn(timeframe, l, nowMs) + TIMEFRAME_MS[timeframe] <= startMs);
    if (lookback) return { timeframe, lookback, stepMs, startMs, endMs };
  }
  const reach = allowedLookbacks(requested).at(-1)!;
  const earliest = isoMinute(firstColumn(requested, reach, nowMs) + stepMs);
  const longest = TIMEFRAMES.at(-1)!;
  const longReach = allowedLookbacks(longest).at(-1)!;
  throw new ServiceError(
    400,
    "range_too_large",
    `Price at ${requested} is read from ${HEATMAP_ID} candles, which reach back ${reach} (${Math.round(LOOKBACK_MS[reach] / 86_400_000)} days): ` +
      `use a startDate on or after ${earliest} UTC, or a coarser timeframe (${longest} reaches back ${longReach}).`,
    { parameter: "startDate", endpoint: "price" },
  );
}

/** The heatmap's candles merged into the plan's buckets, limited to the range asked. */
export function candlesFromHeatmap(heatmap: Heatmap, plan: PricePlan): CandleColumns {
  const { stepMs, startMs, endMs } = plan;
  const times: number[] = [];
  const open: number[] = [];
  const high: number[] = [];
  const low: number[] = [];
  const close: number[] = [];
  for (const c of heatmap.df) {
    const t = Date.parse(c.date);
    if (!Number.isFinite(t) || t < startMs || t > endMs) continue;
    const bucket = Math.floor(t / stepMs) * stepMs;
    const n = times.length;
    if (n > 0 && times[n - 1] === bucket) {
      high[n - 1] = Math.max(high[n - 1]!, c.high);
      low[n - 1] = Math.min(low[n - 1]!, c.low);
      close[n - 1] = c.close;
    } else {
      times.push(bucket);
      open.push(c.open);
      high.push(c.high);
      low.push(c.low);
      close.push(c.close);
    }
  }
  return {
    times: Float64Array.from(times),
    open: Float64Array.from(open),
    high: Float64Array.from(high),
    low: Float64Array.from(low),
    close: Float64Array.from(close),
  };
}
