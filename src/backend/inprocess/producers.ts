// What each kind of request costs and how its answer is made, apart from the pipeline that checks,
// charges and refunds (service.ts): series columns, price candles, the heatmap, a metrics-variation.
// Each answer is the backend result of its kind, its JSON body made from the typed form on first read.
import { creditCost, DAY_MS, type Endpoint, MAX_RECORDS, TIMEFRAME_MS } from "../../catalog/index.js";
import { type BackendResult, candleRecords, resultKind, type ResultMeta, withLazy } from "../types.js";
import { bodyKey } from "./body-cache.js";
import { heatmapBody, heatmapJson } from "./encoders/heatmap-json.js";
import { recordsFromColumns, seriesJson } from "./encoders/series-json.js";
import { candleColumns } from "./readings/candles.js";
import { buildHeatmap, countBuckets, generateColumns, generateVariation, seriesExtent, type SeriesQuery } from "./readings/index.js";
import { rangeTooLarge } from "./refusals.js";
import type { Params } from "./request-params.js";
import type { SeriesCache } from "./series-cache.js";
import { dataClock } from "./world/clock.js";

export interface Producer {
  /** Credits the answer costs. */
  cost: number;
  /** Whether its body may be kept serialized for repeats (price has no REST route, so no body to keep). */
  cacheable: boolean;
  /** The instant the data runs to, and a series' whole-history extent: known before the answer is made. */
  meta: Omit<ResultMeta, "usage">;
  /** Makes the answer, after the charge. */
  produce(usage: ResultMeta["usage"]): BackendResult;
}

/** The serialized body of an answer, as the REST face sends it. */
export function bodyBytes(result: BackendResult, endpoint: Endpoint): Buffer {
  if (result.kind === "heatmap") return heatmapJson(result.heatmap);
  if (result.kind === "series" && result.columns) return seriesJson(result.columns, endpoint.field);
  return Buffer.from(JSON.stringify(result.body));
}

/**
 * The producer of a checked request; a records range over the per-response cap is refused here,
 * before any charge. `series`: generated series kept for repeats (the same body key on the same day).
 */
export function producerFor(endpoint: Endpoint, asset: string, params: Params, nowMs: number, series?: SeriesCache): Producer {
  // The instant the data runs to (the last whole minute): a bucket or candle ending after it is still open.
  const asOfMs = dataClock(nowMs);
  if (params.kind === "heatmap") {
    const { timeframe, lookback, scope, exchange } = params;
    return {
      cost: creditCost(endpoint),
      cacheable: true,
      meta: { asOfMs },
      produce: (usage) => {
        const heatmap = buildHeatmap({ asset, timeframe, lookback, scope, nowMs, ...(exchange && { exchange }) });
        return withLazy({ kind: "heatmap" as const, heatmap, usage, asOfMs }, "body", () => heatmapBody(heatmap));
      },
    };
  }
  if (params.kind === "variation") {
    return {
      cost: creditCost(endpoint),
      cacheable: true,
      meta: { asOfMs },
      produce: (usage) => {
        const body = generateVariation(asset, nowMs);
        // Beside the summary (not in its body): the daily closes of the seven days it describes.
        const lastDay = Math.floor(asOfMs / DAY_MS) * DAY_MS - DAY_MS;
        const candles = candleColumns(asset, DAY_MS, lastDay - 6 * DAY_MS, lastDay, nowMs);
        return { kind: "variation", body, candles, usage, asOfMs };
      },
    };
  }
  const { kind: _, ...resolved } = params;
  const query: SeriesQuery = { endpoint, asset, ...resolved };
  const count = countBuckets(query);
  if (count > MAX_RECORDS) throw rangeTooLarge(count, params.timeframe);
  // Where the series' data begins and ends over its whole history.
  const extent = seriesExtent(query);
  const meta = { asOfMs, ...(extent && { extent }) };
  if (resultKind(endpoint) === "candles") {
    return {
      cost: creditCost(endpoint, count),
      cacheable: false,
      meta,
      produce: (usage) => {
        const candles = candleColumns(asset, TIMEFRAME_MS[query.timeframe], query.startMs, query.endMs, nowMs);
        return withLazy({ kind: "candles" as const, candles, usage, ...meta }, "body", () => candleRecords(candles));
      },
    };
  }
  return {
    cost: creditCost(endpoint, count),
    cacheable: true,
    meta,
    produce: (usage) => {
      // Digests work on columns: ISO times and one object per point are made only for a reader
      // of `body` (a 60-day 1m series is 86,400 of each, most of a tool call's time and garbage).
      const columns = series
        ? series.columns(bodyKey(endpoint, asset, params, nowMs), nowMs, () => generateColumns(query))
        : generateColumns(query);
      return withLazy({ kind: "series" as const, columns, usage, ...meta }, "body", () => recordsFromColumns(columns, endpoint.field));
    },
  };
}
