// What get_series and get_ohlcv share: argument checks, one fetch turned into columns, the digest,
// and the structured result around it.
import { z } from "zod";
import { ENTITY_ALL, isVenue, nearestEndpoints, VENUES, type Endpoint } from "../catalog/index.js";
import { ServiceError, type TimeRecord, type Usage } from "../backend/types.js";
import { digestSeries, renderSeriesText, seriesDigestSchema, seriesFromRecords, type SeriesDigest } from "../summary/index.js";
import type { ToolContext, ToolOutput } from "./define-tool.js";
import { ToolInputError } from "./errors.js";
import { seriesResourceUri } from "../resources/uris.js";

export const creditsSchema = z.object({
  charged: z.number(),
  remaining: z.number().optional(),
});

export const seriesOutput = z.object({
  metric: z.string(),
  asset: z.string(),
  field: z.string(),
  unit: z.string(),
  timeframe: z.string(),
  query: z.record(z.string(), z.string()),
  digest: seriesDigestSchema,
  credits: creditsSchema,
  /** The full records behind the digest (reading it is a new, charged request). */
  resource: z.string(),
});
export type SeriesOutput = z.infer<typeof seriesOutput>;

/** Refuses an argument the chosen metric does not take, naming the metrics that do. */
export function onlyFor(name: string, value: unknown, endpoint: Endpoint): void {
  if (value === undefined || endpoint.params.includes(name as Endpoint["params"][number])) return;
  throw new ToolInputError("invalid_arguments", `${name} does not apply to ${endpoint.id}; remove it (see the ${name} description for the metrics that take it).`, {
    parameter: name,
  });
}

/** A venue id, lowercased; `extra` admits a further keyword such as `all`. */
export function venueArg(name: string, raw: string, extra?: string): string {
  const value = raw.trim().toLowerCase();
  if (isVenue(value) || value === extra) return value;
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
}

export async function fetchSeries(context: ToolContext, req: SeriesRequest): Promise<ToolOutput<SeriesOutput>> {
  const { endpoint, asset } = req;
  const result = await context.backend.fetch({ endpoint: endpoint.id, asset, query: req.query }, context.call);
  const { usage, columns } = result;
  let digest: SeriesDigest;
  // Columns when the backend has them (in-process): reading `body` would build every record.
  if (columns) digest = digestSeries(columns.times, columns.values, { timeframeMs: req.timeframeMs, maxPoints: req.maxPoints });
  else {
    const body = result.body;
    if (!Array.isArray(body)) {
      throw new ServiceError(502, "upstream_invalid_response", `${endpoint.id} returned no record array`, { endpoint: endpoint.id });
    }
    digest = digestRecords(body as TimeRecord[], endpoint.field, req.timeframeMs, req.maxPoints);
  }
  const query = definedOnly(req.query);
  const resource = seriesResourceUri(endpoint, asset, query);
  const text = [
    renderSeriesText({ metric: endpoint.id, asset, unit: endpoint.unit, field: endpoint.field, timeframe: req.timeframe, query: { ...query, timeframe: undefined } }, digest),
    footer(usage, resource),
  ].join("\n");
  return {
    text,
    structured: {
      metric: endpoint.id,
      asset,
      field: endpoint.field,
      unit: endpoint.unit,
      timeframe: req.timeframe,
      query,
      digest,
      credits: credits(usage),
      resource,
    },
  };
}

export function digestRecords(records: readonly TimeRecord[], field: string, timeframeMs: number, maxPoints: number | undefined): SeriesDigest {
  const { times, values } = seriesFromRecords(records, field);
  return digestSeries(times, values, { timeframeMs, maxPoints });
}

export function credits(usage: Usage): z.infer<typeof creditsSchema> {
  return { charged: usage.charged, ...(usage.creditsRemaining !== undefined && { remaining: usage.creditsRemaining }) };
}

export function footer(usage: Usage, resource?: string): string {
  const left = usage.creditsRemaining !== undefined ? `, ${usage.creditsRemaining.toLocaleString("en-US")} left` : "";
  return `credits: ${usage.charged} charged${left}${resource ? `. Full data (CSV): ${resource}` : ""}`;
}

/** The query parameters actually sent (undefined ones dropped), as tools report them. */
export function definedOnly(query: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined) out[k] = v;
  return out;
}
