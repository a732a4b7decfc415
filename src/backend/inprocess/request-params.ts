// Query-parameter validation of the in-process service: every bad value is a 400 naming the
// parameter and what it accepts. Asset coverage and range caps are checked later, by the pipeline.
import { parseDateInput } from "../../catalog/dates.js";
import {
  allowedLookbacks,
  CANONICAL_LOOKBACK,
  DATE_FORMAT_HINT,
  DAY_MS,
  DEFAULT_BUCKETS,
  editDistance,
  type Endpoint,
  ENTITY_ALL,
  heatmapColumns,
  isTimeframe,
  isVenue,
  type Lookback,
  LOOKBACKS,
  MARKET_TYPES,
  MAX_HEATMAP_COLUMNS,
  type Scope,
  SCOPES,
  SYMBOL_PATTERN,
  type Timeframe,
  TIMEFRAME_MS,
  TIMEFRAMES,
  type Venue,
  VENUES,
} from "../../catalog/index.js";
import { ServiceError } from "../types.js";
import { dataClock, lastCompleteDay, type SeriesQuery, symbolsOf } from "./readings/index.js";
import { shown } from "./router.js";

/** Timeframe of a heatmap request that names none: the (6h, 2y) view upstream clients open with. */
export const DEFAULT_HEATMAP_TIMEFRAME: Timeframe = "6h";

/** A series or OHLCV request resolved to the generators' query, less what the path gives. */
export interface RecordsParams extends Omit<SeriesQuery, "endpoint" | "asset"> {
  kind: "records";
}

export interface HeatmapParams {
  kind: "heatmap";
  asset: string;
  timeframe: Timeframe;
  lookback: Lookback;
  scope: Scope;
  exchange?: Venue;
}

export type Params = RecordsParams | HeatmapParams | { kind: "variation" };

function invalid(parameter: string, message: string, allowed?: readonly string[]): ServiceError {
  return new ServiceError(400, "invalid_parameter", message, { parameter, ...(allowed && { allowed }) });
}

/** Rejects parameters the endpoint does not take, repeated ones and empty values. */
function checkNames(endpoint: Endpoint, query: URLSearchParams): void {
  const accepted: readonly string[] = endpoint.params;
  const seen = new Set<string>();
  for (const [name, value] of query) {
    if (!accepted.includes(name)) {
      const close = accepted.find((a) => a.toLowerCase() === name.toLowerCase() || editDistance(a, name) <= 2);
      const list = accepted.length ? `accepted: ${accepted.join(", ")}` : "it accepts no query parameters";
      throw invalid(
        shown(name),
        `Unknown query parameter "${shown(name)}" for ${endpoint.id}${close ? ` (did you mean "${close}"?)` : ""}; ${list}.`,
        accepted,
      );
    }
    if (seen.has(name)) throw invalid(name, `Query parameter "${name}" is repeated; give it once.`);
    seen.add(name);
    if (value === "" && !(name === "timeframe" && endpoint.kind === "ohlcv")) {
      throw invalid(name, `Query parameter "${name}" is empty; give a value or leave it out.`);
    }
  }
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[], what: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  const lower = value.toLowerCase();
  const hint = allowed.find((a) => a === lower);
  throw invalid(
    name,
    `${name} "${shown(value)}" is not ${what}${hint ? ` (values are lowercase: "${hint}")` : ""}; use one of ${allowed.join(", ")}.`,
    allowed,
  );
}

function venue(name: string, value: string): Venue {
  if (isVenue(value)) return value;
  const lower = value.toLowerCase();
  throw invalid(
    name,
    isVenue(lower)
      ? `${name} "${shown(value)}" must be lowercase: "${lower}".`
      : `${name} "${shown(value)}" is not a known venue id; use a lowercase venue id such as binance, okx, bybit (${VENUES.length} are accepted; see the catalog).`,
  );
}

function date(name: "startDate" | "endDate", value: string): { ms: number; dateOnly: boolean } {
  const parsed = parseDateInput(value);
  if (!parsed) throw invalid(name, `${name} "${shown(value)}" is not a valid date; use ${DATE_FORMAT_HINT}.`);
  return parsed;
}

function recordsParams(endpoint: Endpoint, query: URLSearchParams, nowMs: number): RecordsParams {
  const get = (name: string) => query.get(name) ?? undefined;
  const rawTf = get("timeframe");
  // The spec: a timeframe outside the nine gives the daily series, not an error.
  const timeframe: Timeframe = rawTf !== undefined && isTimeframe(rawTf) ? rawTf : "1d";
  const start = get("startDate") === undefined ? undefined : date("startDate", get("startDate")!);
  const end = get("endDate") === undefined ? undefined : date("endDate", get("endDate")!);
  // A date-only end bound is inclusive of its whole day.
  const endInput = end && (end.dateOnly ? end.ms + DAY_MS - 1 : end.ms);
  if (start && endInput !== undefined && start.ms > endInput) {
    throw invalid(
      "startDate",
      `startDate (${shown(get("startDate")!)}) is after endDate (${shown(get("endDate")!)}); swap them or widen the range.`,
    );
  }
  const endMs = Math.min(endInput ?? nowMs, nowMs);
  // The default range ends at the last bucket that exists (the partial one now falls in; for a
  // daily metric, yesterday, as today's value appears once the day has ended).
  const tfMs = endpoint.kind === "ohlcv" ? TIMEFRAME_MS[timeframe] : DAY_MS;
  const reach = Math.min(endMs, endpoint.kind === "ohlcv" ? dataClock(nowMs) - 1 : lastCompleteDay(nowMs) * DAY_MS);
  const startMs = start ? start.ms : Math.floor(reach / tfMs) * tfMs - (DEFAULT_BUCKETS - 1) * tfMs;
  const out: RecordsParams = { kind: "records", timeframe, startMs, endMs, nowMs };
  const exchange = get("exchange");
  if (exchange !== undefined) out.exchange = venue("exchange", exchange);
  const symbol = get("symbol");
  if (symbol !== undefined) {
    if (!SYMBOL_PATTERN.test(symbol)) {
      throw invalid(
        "symbol",
        `symbol "${shown(symbol)}" must be a trading pair in upper case, <BASE><QUOTE> with 2–24 letters or digits, e.g. BTCUSDT.`,
      );
    }
    out.symbol = symbol;
  }
  const marketType = get("market_type");
  if (marketType !== undefined) out.marketType = oneOf("market_type", marketType, MARKET_TYPES, "a market type");
  const entity = get("entity_name");
  if (entity !== undefined) out.entityName = entity === ENTITY_ALL ? ENTITY_ALL : venue("entity_name", entity);
  return out;
}

function heatmapParams(query: URLSearchParams): HeatmapParams {
  const get = (name: string) => query.get(name) ?? undefined;
  const asset = get("asset");
  if (asset === undefined) throw invalid("asset", "The heatmap needs asset=<ticker>, e.g. /liquidation_levels/heatmap?asset=btc.");
  const rawTf = get("timeframe");
  const timeframe = rawTf === undefined ? DEFAULT_HEATMAP_TIMEFRAME : oneOf("timeframe", rawTf, TIMEFRAMES, "a heatmap timeframe");
  const rawLookback = get("lookback");
  const lookback = rawLookback === undefined ? CANONICAL_LOOKBACK[timeframe] : oneOf("lookback", rawLookback, LOOKBACKS, "a lookback");
  if (heatmapColumns(timeframe, lookback) > MAX_HEATMAP_COLUMNS) {
    const allowed = allowedLookbacks(timeframe);
    throw new ServiceError(
      400,
      "range_too_large",
      `lookback ${lookback} at timeframe ${timeframe} gives ${heatmapColumns(timeframe, lookback).toLocaleString("en-US")} columns, more than ${MAX_HEATMAP_COLUMNS.toLocaleString("en-US")}; with ${timeframe} use ${allowed.join(", ")}, or a larger timeframe.`,
      { parameter: "lookback", allowed },
    );
  }
  const rawExchange = get("exchange");
  const rawScope = get("scope");
  // An exchange without a scope can only mean a per-exchange view.
  const scope = rawScope === undefined ? (rawExchange === undefined ? "all" : "exchange") : oneOf("scope", rawScope, SCOPES, "a scope");
  const out: HeatmapParams = { kind: "heatmap", asset, timeframe, lookback, scope };
  if (scope === "exchange") {
    if (rawExchange === undefined)
      throw invalid("exchange", "scope=exchange needs exchange=<venue id>, e.g. exchange=binance; or use scope=all.");
    out.exchange = venue("exchange", rawExchange);
  } else if (rawExchange !== undefined) {
    throw invalid("exchange", "exchange applies only with scope=exchange; drop exchange for the all-venue view, or set scope=exchange.");
  }
  return out;
}

/**
 * A symbol must be a market of the asset (on the venue, when one is given): another asset's pair
 * (ETHUSDT on btc) would select nothing, and zeros would read as "no trading".
 */
export function checkSymbol(asset: string, params: Params): void {
  if (params.kind !== "records" || params.symbol === undefined) return;
  const symbols = symbolsOf(asset, params.exchange);
  if (symbols.includes(params.symbol)) return;
  const where = params.exchange ? ` on ${params.exchange}` : "";
  const others = params.exchange ? symbolsOf(asset) : symbols;
  const shownList = (symbols.length ? symbols : others).slice(0, 12);
  const lead = symbols.length
    ? `${asset} trades${where} as ${shownList.join(", ")}`
    : `${asset} has no market${where}; elsewhere it trades as ${shownList.join(", ")}`;
  throw invalid(
    "symbol",
    `symbol "${shown(params.symbol)}" is not a market of ${asset}${where}: ${lead}. Use one of those, or leave symbol out for all of them.`,
    symbols.length ? symbols : others,
  );
}

/** Validated parameters of a request to `endpoint`, relative to the service's `nowMs`. */
export function parseParams(endpoint: Endpoint, query: URLSearchParams, nowMs: number): Params {
  checkNames(endpoint, query);
  switch (endpoint.kind) {
    case "variation":
      return { kind: "variation" };
    case "heatmap":
      return heatmapParams(query);
    default:
      return recordsParams(endpoint, query, nowMs);
  }
}
