// What get_series and get_ohlcv share: argument checks, one fetch turned into columns, the digest,
// and the structured result around it.
import { z } from "zod";

import { type BackendResult, ServiceError, type TimeRecord, type Usage } from "../backend/types.js";
import {
  type Endpoint,
  ENTITY_ALL,
  isTimeframe,
  isVenue,
  nearestEndpoints,
  type SeriesNature,
  type Timeframe,
  TIMEFRAMES,
  VENUES,
} from "../catalog/index.js";
import { seriesResourceUri } from "../catalog/uris.js";
import type { ChartView } from "../charts/model/types.js";
import { metricTitle, seriesLine, seriesView } from "../charts/model/view-data.js";
import { viewField } from "../charts/model/view-schema.js";
import { ToolInputError } from "../mcp/errors.js";
import { requireInHistory } from "../mcp/lookup.js";
import { formatCount } from "../summary/format/grouped.js";
import { displayUnit } from "../summary/format/scale.js";
import { parseDateArg } from "../summary/series/range-coverage.js";
import { seriesFromRecords } from "../summary/series/records.js";
import { digestResampled, type Resample, resampleProblem, RESAMPLES } from "../summary/series/resample.js";
import { digestSeries, type SeriesDigest } from "../summary/series/series.js";
// Each from its own module, not the summary index: a call of get_series loads the series digest and
// none of the heatmap, variation or compare digests.
import { compactSeriesDigest, compactSeriesDigestSchema } from "../summary/series/series-compact.js";
import { renderSeriesText } from "../summary/series/series-text.js";
import type { ToolContext, ToolOutput } from "./define-tool.js";

export const creditsSchema = z.object({
  charged: z.number(),
  remaining: z.number().optional(),
});

export const seriesOutput = z.object({
  metric: z.string(),
  asset: z.string(),
  field: z.string(),
  unit: z.string().describe("of every value below"),
  timeframe: z.string(),
  query: z.record(z.string(), z.string()).optional().describe("the parameters sent, when any"),
  marketTypes: z.string().optional().describe("what the figures aggregate when market_type was not sent"),
  digest: compactSeriesDigestSchema,
  credits: creditsSchema,
  resource: z.string().optional().describe("the full records as CSV (reading it is a new, charged request)"),
  ...viewField,
});
export type SeriesOutput = z.infer<typeof seriesOutput>;

/** Refuses an argument the chosen metric does not take, naming the metrics that do. */
export function onlyFor(name: string, value: unknown, endpoint: Endpoint): void {
  if (value === undefined || endpoint.params.includes(name as Endpoint["params"][number])) return;
  throw new ToolInputError(
    "invalid_arguments",
    `${name} does not apply to ${endpoint.id}; remove it (see the ${name} description for the metrics that take it).`,
    {
      parameter: name,
    },
  );
}

/** Venues known under another name, or gone: said plainly rather than answered with look-alike ids. */
const VENUE_FATES: Readonly<Record<string, string>> = {
  huobi: 'Huobi is now HTX: use exchange "htx".',
  huobiglobal: 'Huobi is now HTX: use exchange "htx".',
  ftx: "FTX collapsed in November 2022 and is not a venue here; its data is not in the catalog. Pick a current venue, e.g. binance, okx, bybit, coinbase.",
  ftxus: "FTX US collapsed in November 2022 and is not a venue here. Pick a current venue, e.g. coinbase, kraken.",
};

/** A venue id, lowercased; `extra` admits a further keyword such as `all`. */
export function venueArg(name: string, raw: string, extra?: string): string {
  const value = raw.trim().toLowerCase();
  if (isVenue(value) || value === extra) return value;
  const fate = VENUE_FATES[value.replace(/[^a-z0-9]/g, "")];
  if (fate)
    throw new ToolInputError("invalid_arguments", `${name} "${value}": ${fate}`, {
      parameter: name,
      ...(fate.includes('"htx"') && { suggestions: ["htx"] }),
    });
  const near = nearestEndpoints(value, VENUES, 3);
  const hint = near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : "";
  throw new ToolInputError(
    "invalid_arguments",
    `${name} "${raw.slice(0, 40)}" is not a known venue id.${hint} Accepted: ${extra ? `${extra} or ` : ""}one of ${VENUES.length} lowercase ids, e.g. binance, okx, bybit, coinbase.`,
    { parameter: name, suggestions: near },
  );
}

export function entityArg(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : venueArg("entity_name", raw, ENTITY_ALL);
}

export interface SeriesRequest {
  endpoint: Endpoint;
  asset: string;
  /** Spec-named query parameters; undefined ones are omitted. */
  query: Record<string, string | undefined>;
  timeframe: string;
  timeframeMs: number;
  maxPoints: number | undefined;
  /** Calendar re-bucketing of the answer (checked by `resampleArg` before the fetch). */
  resample?: Resample;
}

/** The optional `resample` argument: its values say what it does, and every word here is paid on each tools/list. */
export const resampleParam = z.enum(RESAMPLES).optional();

/** Refuses a resample the series' buckets cannot be aggregated into, before anything is charged. */
export function resampleArg(resample: Resample | undefined, timeframe: string, timeframeMs: number): Resample | undefined {
  if (resample === undefined) return undefined;
  const problem = resampleProblem(resample, timeframeMs);
  if (problem)
    throw new ToolInputError("invalid_arguments", `${problem} (timeframe ${timeframe}).`, {
      parameter: "resample",
      suggestions: [...RESAMPLES],
    });
  return resample;
}

export async function fetchSeries(context: ToolContext, req: SeriesRequest): Promise<ToolOutput<SeriesOutput>> {
  const { endpoint, asset } = req;
  requireInHistory(context.backend, { endpoint: endpoint.id, asset, query: req.query }, req.timeframeMs);
  const result = await context.backend.fetch({ endpoint: endpoint.id, asset, query: req.query }, context.call);
  const { usage } = result;
  const columns = result.kind === "series" ? result.columns : undefined;
  // Columns when the backend has them (in-process): reading `body` would build every record.
  let series: { times: ArrayLike<number>; values: ArrayLike<number> };
  if (columns) series = columns;
  else {
    const body = result.body;
    if (!Array.isArray(body)) {
      throw new ServiceError(502, "upstream_invalid_response", `${endpoint.id} returned no record array`, { endpoint: endpoint.id });
    }
    series = seriesFromRecords(body as TimeRecord[], endpoint.field);
  }
  const digest = columns
    ? digestKept(columns, { ...req, nature: endpoint.nature }, { extent: result.extent, asOfMs: result.asOfMs })
    : digestFetched(series, { ...req, nature: endpoint.nature }, { extent: result.extent, asOfMs: result.asOfMs });
  const query = definedOnly(req.query);
  let view: ChartView | null | undefined;
  if (context.wantView) {
    const venue = query.exchange ?? query.entity_name;
    const unit = displayUnit(endpoint.unit, asset);
    const title = metricTitle(asset, endpoint.purpose, unit, req.timeframe, venue);
    // A flow is an amount per bucket: bars, not a line through the buckets.
    view = seriesView(title, [seriesLine(endpoint.field, unit, series.times, series.values, undefined, endpoint.nature === "flow")]);
  }
  const resource = seriesResourceUri(endpoint, asset, query);
  const unit = displayUnit(endpoint.unit, asset);
  // Without market_type the derivatives endpoints aggregate every market type, spot included: say so.
  const marketTypes = endpoint.params.includes("market_type") && !query.market_type ? { market_type: "all (spot, swap, future)" } : {};
  const heading = {
    metric: endpoint.id,
    asset,
    unit,
    field: endpoint.field,
    timeframe: req.timeframe,
    query: { ...query, ...marketTypes, timeframe: undefined, resample: req.resample },
    ...(endpoint.meaning && { meaning: endpoint.meaning }),
  };
  const rendered = renderedOnce(digest, heading);
  const text = [rendered.text, footer(usage, resource)].join("\n");
  return {
    text,
    structured: {
      metric: endpoint.id,
      asset,
      field: endpoint.field,
      unit,
      timeframe: req.timeframe,
      ...sentQuery(query),
      ...(marketTypes.market_type && { marketTypes: marketTypes.market_type }),
      digest: rendered.compact,
      credits: credits(usage),
      resource,
    },
    view,
  };
}

/**
 * The digest of fetched columns: nature-aware, with the asked range (from the query's dates), the
 * history and "now" when the backend reported them, re-bucketed on request. Any tool with columns
 * (price candles' closes too, as `level`) gets the same digest.
 */
export function digestFetched(
  series: { times: ArrayLike<number>; values: ArrayLike<number> },
  req: Pick<SeriesRequest, "query" | "timeframeMs" | "maxPoints" | "resample"> & { nature: SeriesNature },
  known: Pick<BackendResult, "extent" | "asOfMs">,
): SeriesDigest {
  const nature = req.nature;
  const context = {
    requestedFromMs: parseDateArg(req.query.startDate),
    requestedToMs: parseDateArg(req.query.endDate),
    extent: known.extent,
    asOfMs: known.asOfMs,
  };
  const opts = { timeframeMs: req.timeframeMs, maxPoints: req.maxPoints, nature, ...context };
  return req.resample ? digestResampled(series.times, series.values, req.resample, opts) : digestSeries(series.times, series.values, opts);
}

/**
 * The text and compact form of a digest for a heading: the same for a kept digest read again with
 * the same request (the footer, with the credits of each call, is written apart). Neither is changed
 * by what sends it.
 */
const RENDERED = new WeakMap<SeriesDigest, { key: string; text: string; compact: ReturnType<typeof compactSeriesDigest> }>();

function renderedOnce(digest: SeriesDigest, heading: Parameters<typeof renderSeriesText>[0]) {
  const key = JSON.stringify(heading);
  const kept = RENDERED.get(digest);
  if (kept?.key === key) return kept;
  const made = { key, text: renderSeriesText(heading, digest), compact: compactSeriesDigest(digest) };
  RENDERED.set(digest, made);
  return made;
}

/**
 * Digests of columns handed on more than once: the in-process service answers a repeated read of a
 * series on the same day with the same columns, and a digest is a pure function of the columns and
 * the request (the asked range, the history, "now", the point budget, a resampling), so a repeat
 * reuses it. Held as long as the columns are (the service drops them at the day's end); a few
 * requests per series at most. Digests are read, never changed, by what renders them.
 */
const KEPT_DIGESTS = new WeakMap<object, Map<string, SeriesDigest>>();
const KEPT_PER_SERIES = 8;

function digestKept(
  columns: { times: Float64Array; values: Float64Array },
  req: Pick<SeriesRequest, "query" | "timeframeMs" | "maxPoints" | "resample"> & { nature: SeriesNature },
  known: Pick<BackendResult, "extent" | "asOfMs">,
): SeriesDigest {
  const key = JSON.stringify([
    req.query.startDate,
    req.query.endDate,
    req.timeframeMs,
    req.maxPoints,
    req.resample,
    req.nature,
    known.extent,
    known.asOfMs,
  ]);
  let kept = KEPT_DIGESTS.get(columns.times);
  const hit = kept?.get(key);
  if (hit) return hit;
  const digest = digestFetched(columns, req, known);
  if (!kept) KEPT_DIGESTS.set(columns.times, (kept = new Map()));
  if (kept.size >= KEPT_PER_SERIES) kept.delete(kept.keys().next().value!);
  kept.set(key, digest);
  return digest;
}

export function digestRecords(
  records: readonly TimeRecord[],
  field: string,
  timeframeMs: number,
  maxPoints: number | undefined,
): SeriesDigest {
  const { times, values } = seriesFromRecords(records, field);
  return digestSeries(times, values, { timeframeMs, maxPoints });
}

export function credits(usage: Usage): z.infer<typeof creditsSchema> {
  return { charged: usage.charged, ...(usage.creditsRemaining !== undefined && { remaining: usage.creditsRemaining }) };
}

export function footer(usage: Usage, resource?: string): string {
  const left = usage.creditsRemaining !== undefined ? `, ${formatCount(usage.creditsRemaining)} left` : "";
  return `credits: ${usage.charged} charged${left}${resource ? `. Full data (CSV): ${resource}` : ""}`;
}

/** `{query}` without the timeframe (reported on its own), or nothing when no other parameter was sent. */
export function sentQuery(query: Record<string, string>): { query?: Record<string, string> } {
  const { timeframe: _, ...rest } = query;
  return Object.keys(rest).length > 0 ? { query: rest } : {};
}

/** The query parameters actually sent (undefined ones dropped), as tools report them. */
export function definedOnly(query: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined) out[k] = v;
  return out;
}

/** A timeframe argument given as text (the tools whose schema keeps it short): one of the nine, or refused. */
export function timeframeArg(value: string | undefined): Timeframe | undefined {
  if (value === undefined || isTimeframe(value)) return value;
  throw new ToolInputError("invalid_arguments", `timeframe must be one of ${TIMEFRAMES.join(", ")} (got "${value.slice(0, 8)}").`, {
    parameter: "timeframe",
    suggestions: [...TIMEFRAMES],
  });
}
