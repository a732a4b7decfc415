// The in-process service pipeline: route → auth → restriction → params → coverage → rate window →
// credits → data, synchronous from the credit check to the durable charge. The REST face and
// InProcessBackend both call handle(); neither has another path to the data.
import { ASSET_PATTERN, ASSET_SETS, coverage, covers, creditCost, KNOWN_ASSETS, MAX_RECORDS, nearestAssets, TIMEFRAME_MS, DAY_MS, type Endpoint } from "../../catalog/index.js";
import { log } from "../../log.js";
import { ServiceError, type BackendBody, type SeriesColumns } from "../types.js";
import { bodyKey, createBodyCache, type BodyCache } from "./body-cache.js";
import { CreditLedger } from "./credits.js";
import { countBuckets, generateColumns, generateHeatmap, generateVariation, recordsFromColumns, type SeriesQuery } from "./data/index.js";
import type { KeyRecord, KeyStore } from "./keys.js";
import { policyHeader, rateLimitHeader, RateLimiter } from "./rate-window.js";
import { parseParams, type Params } from "./request-params.js";
import { route, shown } from "./router.js";
import type { UsageStore } from "./usage-store.js";

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface ServiceRequest {
  method: string;
  /** Path without the query string, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  /** Header names in lowercase (as node:http gives them). */
  headers: HeaderBag;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  /** The JSON body as objects; the REST face serializes it, the backend hands it on as is. */
  body: BackendBody | { error: Record<string, unknown> };
  /** The success body already serialized (UTF-8 JSON), when the service keeps a body cache. */
  bytes?: Buffer;
  /** A series' records as columns; `body` is then built from them only when read. */
  columns?: SeriesColumns;
  /** Set on every non-2xx response. */
  error?: ServiceError;
  /** Credits charged and left, on keyed responses. */
  usage?: { charged: number; creditsRemaining: number };
}

export interface ServiceOptions {
  keys: KeyStore;
  usage: UsageStore;
  /** "Now" of the data (pinned by CRYPTO_METRICS_NOW). */
  now: () => number;
  /** Clock of the rate windows: monotonic, real even when `now` is pinned. */
  monotonicNow?: () => number;
  /**
   * Bytes of serialized success bodies kept for repeated requests (the REST face sets it; unset or
   * 0: none). A body is a pure function of the resolved request, so a repeat gets the same bytes
   * without generating or serializing them again. Auth, limits and charging still run every time.
   */
  bodyCacheBytes?: number;
}

const COVERAGE_LIST_MAX = 24;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return typeof v === "string" ? v : Array.isArray(v) ? v.join(", ") : undefined;
}

/** The presented key; 400 when X-Api-Key and a Bearer token disagree. */
function credentials(headers: HeaderBag): string | undefined {
  const apiKey = header(headers, "x-api-key")?.trim() || undefined;
  const auth = header(headers, "authorization")?.trim();
  const bearer = auth && /^bearer\s+/i.test(auth) ? auth.replace(/^bearer\s+/i, "").trim() || undefined : undefined;
  if (apiKey !== undefined && bearer !== undefined && apiKey !== bearer) {
    throw new ServiceError(400, "conflicting_credentials", "X-Api-Key and Authorization: Bearer carry different keys; send one key, in either header.");
  }
  return apiKey ?? bearer;
}

function unauthorized(message: string): ServiceError {
  return new ServiceError(401, "unauthorized", message);
}

function assetNotSupported(endpoint: Endpoint, asset: string): ServiceError {
  const members = coverage(endpoint);
  const set = ASSET_SETS[endpoint.assetSet];
  const lower = asset.toLowerCase();
  const inSet = lower !== asset && covers(endpoint, lower) ? [lower] : members ? nearestAssets(asset, members) : [];
  // A known ticker is the one meant: look-alikes (btc for eth, or the ticker itself) would mislead.
  // Otherwise, with no close ticker in the set, the one meant may be a known ticker the endpoint lacks.
  const near = KNOWN_ASSETS.includes(asset) ? [] : inSet.length ? inSet : nearestAssets(asset);
  const covered = members === null
    ? `takes any lowercase ticker matching ${ASSET_PATTERN.source}`
    : members.length <= COVERAGE_LIST_MAX ? `covers ${members.join(", ")}` : `covers the ${members.length} assets of ${set.label}`;
  const either = inSet.length ? "" : ` (not covered here either)`;
  const hint = near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(" or ")}${either}?` : "";
  return new ServiceError(
    404,
    "asset_not_supported",
    `Asset "${shown(asset)}" is not covered by ${endpoint.id} (it ${covered}).${hint} The catalog lists each endpoint's coverage.`,
    { endpoint: endpoint.id, asset: shown(asset), allowed: near },
  );
}

function rangeTooLarge(count: number, timeframe: keyof typeof TIMEFRAME_MS): ServiceError {
  const days = Math.floor((MAX_RECORDS * TIMEFRAME_MS[timeframe]) / DAY_MS);
  return new ServiceError(
    400,
    "range_too_large",
    `The range holds ${count.toLocaleString("en-US")} records at ${timeframe}, more than the ${MAX_RECORDS.toLocaleString("en-US")} per response; ` +
      `narrow startDate/endDate to at most ${days.toLocaleString("en-US")} days at ${timeframe}, or use a coarser timeframe.`,
    { parameter: "startDate" },
  );
}

export class InProcessService {
  private readonly limiter = new RateLimiter();
  private readonly ledger: CreditLedger;
  private readonly monotonicNow: () => number;
  private readonly bodies: BodyCache | undefined;

  constructor(private readonly options: ServiceOptions) {
    this.ledger = new CreditLedger(options.usage);
    this.monotonicNow = options.monotonicNow ?? (() => performance.now());
    const bytes = options.bodyCacheBytes ?? 0;
    this.bodies = bytes > 0 ? createBodyCache(bytes) : undefined;
  }

  /** Credits a key has left, or undefined for an unknown key. */
  creditsRemaining(presentedKey: string): number | undefined {
    const key = this.options.keys.lookup(presentedKey);
    return key && this.ledger.remaining(key);
  }

  handle(req: ServiceRequest): ServiceResponse {
    let key: KeyRecord | undefined;
    try {
      const { endpoint, asset: pathAsset } = route(req.path);
      if (req.method !== "GET") {
        const err = new ServiceError(405, "method_not_allowed", `${shown(req.method)} is not allowed; every endpoint answers GET only.`);
        return this.failure(err, { Allow: "GET" });
      }
      const presented = credentials(req.headers);
      if (presented === undefined) throw unauthorized("No API key: send X-Api-Key: <key> or Authorization: Bearer <key>.");
      key = this.options.keys.lookup(presented);
      if (!key) throw unauthorized("The API key is not recognised; check the key you send (X-Api-Key or Authorization: Bearer).");
      return this.serve(key, endpoint, pathAsset, req.query);
    } catch (err) {
      if (err instanceof ServiceError) {
        const extra: Record<string, string> = err.status === 401 ? { "WWW-Authenticate": 'Bearer realm="crypto-metrics"' } : {};
        if (err.details.retryAfterS !== undefined) extra["Retry-After"] = String(err.details.retryAfterS);
        return this.failure(err, { ...extra, ...(key && this.keyedHeaders(key)) }, key);
      }
      log.error("unexpected failure while serving a request", { path: shown(req.path), key: key?.label, error: (err as Error)?.message });
      const internal = new ServiceError(500, "internal", "The service failed unexpectedly; nothing was charged. Retry, and report it if it persists.");
      return this.failure(internal, key ? this.keyedHeaders(key) : {}, key);
    }
  }

  private serve(key: KeyRecord, endpoint: Endpoint, pathAsset: string | undefined, query: URLSearchParams): ServiceResponse {
    if (key.metrics && !key.metrics.has(endpoint.id)) {
      throw new ServiceError(403, "metric_not_allowed", `This key may not call ${endpoint.id}; nothing was charged. Use a metric the key's plan allows, or a key that includes it.`, { endpoint: endpoint.id });
    }
    const nowMs = this.options.now();
    const params = parseParams(endpoint, query, nowMs);
    const asset = pathAsset ?? (params.kind === "heatmap" ? params.asset : "");
    if (!covers(endpoint, asset)) throw assetNotSupported(endpoint, asset);
    let series: SeriesQuery | undefined;
    let cost: number;
    if (params.kind === "records") {
      series = this.seriesQuery(endpoint, asset, params);
      const count = countBuckets(series);
      if (count > MAX_RECORDS) throw rangeTooLarge(count, params.timeframe);
      cost = creditCost(endpoint, count);
    } else {
      cost = creditCost(endpoint);
    }

    const window = this.limiter.window(key.id, key.rateLimit);
    const mono = this.monotonicNow();
    const decision = window.check(mono);
    if (!decision.ok) {
      throw new ServiceError(
        429,
        "rate_limited",
        `Rate limit of ${key.rateLimit.requests} requests per ${key.rateLimit.windowSeconds} s reached; retry in ${decision.retryAfterS} s.`,
        { retryAfterS: decision.retryAfterS, creditsRemaining: this.ledger.remaining(key) },
      );
    }
    const reservation = this.ledger.tryReserve(key, cost);
    if (!reservation) {
      const left = this.ledger.remaining(key);
      throw new ServiceError(402, "credits_exhausted", `This request costs ${cost} credit${cost === 1 ? "" : "s"} and the key has ${left} left; nothing was charged. Wait for the balance to be renewed or use another key.`, { creditsRemaining: left });
    }
    window.record(mono);
    const cacheKey = this.bodies && bodyKey(endpoint, asset, params, nowMs);
    let bytes = cacheKey === undefined ? undefined : this.bodies!.get(cacheKey);
    let body: BackendBody | undefined;
    let columns: SeriesColumns | undefined;
    try {
      if (bytes === undefined) {
        if (series) columns = generateColumns(series);
        else body = this.generate(endpoint, asset, params, nowMs);
        if (cacheKey !== undefined) {
          bytes = Buffer.from(JSON.stringify(body ?? recordsFromColumns(columns!, endpoint.field)));
          this.bodies!.set(cacheKey, bytes);
        }
      }
      this.ledger.commit(reservation);
    } finally {
      this.ledger.refund(reservation);
    }
    const headers = this.keyedHeaders(key);
    const usage = { charged: cost, creditsRemaining: this.ledger.remaining(key) };
    if (body) return { status: 200, headers, body, ...(bytes && { bytes }), usage };
    if (columns) {
      // Digests work on columns: ISO times and one object per point are made only for a reader
      // of `body` (a 60-day 1m series is 86,400 of each, most of a tool call's time and garbage).
      const cols = columns;
      let records: BackendBody | undefined;
      return { status: 200, headers, columns: cols, ...(bytes && { bytes }), usage, get body() { return (records ??= recordsFromColumns(cols, endpoint.field)); } };
    }
    // A repeat served from the cache: the objects are rebuilt only if a caller asks for them.
    const cached = bytes!;
    let parsed: BackendBody | undefined;
    return { status: 200, headers, bytes: cached, usage, get body() { return (parsed ??= JSON.parse(cached.toString("utf8")) as BackendBody); } };
  }

  private seriesQuery(endpoint: Endpoint, asset: string, { kind: _, ...resolved }: Extract<Params, { kind: "records" }>): SeriesQuery {
    return { endpoint, asset, ...resolved };
  }

  private generate(endpoint: Endpoint, asset: string, params: Params, nowMs: number): BackendBody {
    if (params.kind === "heatmap") {
      const { timeframe, lookback, scope, exchange } = params;
      return generateHeatmap({ asset, timeframe, lookback, scope, nowMs, ...(exchange && { exchange }) });
    }
    return generateVariation(asset, nowMs);
  }

  private keyedHeaders(key: KeyRecord): Record<string, string> {
    const { remaining, resetS } = this.limiter.window(key.id, key.rateLimit).status(this.monotonicNow());
    return {
      "RateLimit-Policy": policyHeader(key.policyName, key.rateLimit),
      RateLimit: rateLimitHeader(key.policyName, remaining, resetS),
      "X-Credits-Remaining": String(this.ledger.remaining(key)),
    };
  }

  private failure(error: ServiceError, headers: Record<string, string>, key?: KeyRecord): ServiceResponse {
    return {
      status: error.status,
      headers,
      body: error.toBody(),
      error,
      ...(key && { usage: { charged: 0, creditsRemaining: this.ledger.remaining(key) } }),
    };
  }

  /** Makes spent credits durable; the service answers nothing afterwards. */
  close(): void {
    this.options.usage.close();
  }
}
