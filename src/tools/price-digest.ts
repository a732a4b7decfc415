// Price for get_ohlcv (and compare): OHLC candles from the backend, digested as the close's
// statistics plus the candle facts.
import type { z } from "zod";

import { type BackendResult, type CandleColumns, ServiceError } from "../backend/types.js";
import { PRICE, type Timeframe, TIMEFRAME_MS } from "../catalog/index.js";
import { seriesView, viewCandles } from "../charts/model/view-data.js";
import { requireInHistory } from "../mcp/lookup.js";
import {
  answerScale,
  type CandleFacts,
  candleFacts,
  compactCandleFacts,
  type compactCandleFactsSchema,
  compactSeriesDigest,
  renderCandleFacts,
  renderSeriesText,
  type Resample,
  type SeriesDigest,
  when,
} from "../summary/index.js";
import type { ToolContext, ToolOutput } from "./define-tool.js";
import { credits, definedOnly, digestFetched, footer, sentQuery, type SeriesOutput } from "./series-common.js";

/** End of the last candle when it has not closed by the service's "now", else undefined. */
export function openCandle(c: CandleColumns, stepMs: number, asOfMs: number | undefined): number | undefined {
  const n = c.times.length;
  if (!n || asOfMs === undefined) return undefined;
  const end = c.times[n - 1]! + stepMs;
  return end > asOfMs ? end : undefined;
}

export interface PriceRequest {
  asset: string;
  timeframe: Timeframe;
  startDate: string | undefined;
  endDate: string | undefined;
  maxPoints: number | undefined;
  /** Weekly or monthly points of the close (candle facts stay those of the timeframe's candles). */
  resample?: Resample | undefined;
}

/** Candles of a price result, whichever backend produced them. */
export function candlesOf(result: BackendResult): CandleColumns {
  if (result.kind !== "candles")
    throw new ServiceError(502, "upstream_invalid_response", "price returned no candles", { endpoint: PRICE.id });
  return result.candles;
}

/** The series digest's text with the candle facts just before its points block, with the other statistics. */
function priceLines(req: PriceRequest, digest: SeriesDigest, facts: CandleFacts, stepMs: number): string[] {
  const lines = renderSeriesText(
    {
      metric: "price",
      asset: req.asset,
      unit: "USD",
      field: "close",
      timeframe: req.timeframe,
      query: { startDate: req.startDate, endDate: req.endDate, resample: req.resample },
    },
    digest,
  ).split("\n");
  const at = lines.findIndex((l) => l.startsWith("points ("));
  const scale = answerScale(
    digest.points.map((p) => p.value),
    { usd: true },
  );
  const factLines = renderCandleFacts(facts, stepMs, scale);
  // Resampled points are weekly or monthly; the candle facts stay those of the timeframe's candles.
  if (req.resample && factLines.length) factLines[0] = `${req.timeframe} candles: ${factLines[0]}`;
  lines.splice(at < 0 ? lines.length : at, 0, ...factLines);
  return lines;
}

export async function fetchPrice(
  context: ToolContext,
  req: PriceRequest,
): Promise<
  ToolOutput<Omit<SeriesOutput, "resource"> & { candles: z.infer<typeof compactCandleFactsSchema>; lastCandleOpenUntil?: string }>
> {
  const query = definedOnly({ startDate: req.startDate, endDate: req.endDate, timeframe: req.timeframe });
  requireInHistory(context.backend, { endpoint: PRICE.id, asset: req.asset, query }, TIMEFRAME_MS[req.timeframe]);
  const result = await context.backend.fetch({ endpoint: PRICE.id, asset: req.asset, query }, context.call);
  const candles = candlesOf(result);
  const stepMs = TIMEFRAME_MS[req.timeframe];
  const digest = digestFetched(
    { times: candles.times, values: candles.close },
    { query, timeframeMs: stepMs, maxPoints: req.maxPoints, nature: PRICE.nature, ...(req.resample && { resample: req.resample }) },
    { extent: result.extent, asOfMs: result.asOfMs },
  );
  const facts = candleFacts(candles, stepMs);
  const lines = priceLines(req, digest, facts, stepMs);
  // The digest's coverage line already says when the last bucket is partial; the structured
  // result also names when the open candle ends.
  const open = openCandle(candles, stepMs, result.asOfMs);
  lines.push(footer(result.usage));
  const view = context.wantView
    ? seriesView(`${req.asset.toUpperCase()} · Price, OHLC candles (USD) · ${req.timeframe}`, [], viewCandles(candles))
    : undefined;
  return {
    view,
    text: lines.join("\n"),
    structured: {
      metric: PRICE.id,
      asset: req.asset,
      field: "close",
      unit: "USD",
      timeframe: req.timeframe,
      ...sentQuery(query),
      digest: compactSeriesDigest(digest),
      candles: compactCandleFacts(facts),
      credits: credits(result.usage),
      ...(open !== undefined && { lastCandleOpenUntil: when(new Date(open).toISOString()) }),
    },
  };
}
