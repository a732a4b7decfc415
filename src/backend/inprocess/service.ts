// The in-process service pipeline: route → auth → restriction → params → coverage → rate window →
// credits → data. The rate window and credit checks and the debit are one atomic step of the
// metering store, shared by every process that uses it. The REST face and InProcessBackend both
// call handle(); neither has another path to the data.
import { isoDay } from "../../catalog/dates.js";
import { covers, type Endpoint, gateOf, HEATMAP_ID, metricById, PRICE } from "../../catalog/index.js";
import { incidentRef } from "../../incidents.js";
import { log } from "../../log.js";
import {
  type BackendBody,
  type BackendResult,
  type Charge,
  chargeOf,
  type RequestSpan,
  resultOfBody,
  ServiceError,
  withLazy,
} from "../types.js";
import { type BodyCache, bodyKey } from "./body-cache.js";
import type { KeyRecord, KeyStore } from "./keys.js";
import { type MeteringStore, type MeterStatus, StoreUnavailableError } from "./metering/index.js";
import { bodyBytes, producerFor } from "./producers.js";
import { keyedHeaders } from "./rate-window.js";
import { dataClock, inceptionMs, seriesExtent } from "./readings/index.js";
import {
  assetNotSupported,
  credentials,
  creditsExhausted,
  failure,
  type HeaderBag,
  metricNotAllowed,
  rateLimited,
  unauthorized,
} from "./refusals.js";
import { checkSymbol, parseParams } from "./request-params.js";
import { route, shown } from "./router.js";
import { SeriesCache } from "./series-cache.js";

export type { HeaderBag };

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
  /** The JSON body as objects (a success's made on first read); the REST face serializes it. */
  readonly body: BackendBody | { error: Record<string, unknown> };
  /** The success body already serialized (UTF-8 JSON), when the service keeps a body cache. */
  bytes?: Buffer;
  /** A success's answer by kind, which the backend hands on as is (a cached repeat's is parsed from `bytes` on first read). */
  readonly result?: BackendResult;
  /** Set on every non-2xx response. */
  error?: ServiceError;
  /** Credits charged and left, on keyed responses; `charge` takes a charged response back whole when it cannot be delivered. */
  usage?: { charged: number; creditsRemaining: number; charge?: Charge };
}

export interface ServiceOptions {
  keys: KeyStore;
  store: MeteringStore;
  /** "Now" of the data (pinned by CRYPTO_METRICS_NOW). */
  now: () => number;
  /**
   * Clock of the rate windows, epoch ms (tests drive it). Unset: the store's own clock, real even
   * when `now` is pinned (the machine's for SQLite, the database server's for PostgreSQL).
   */
  rateClock?: () => number;
  /**
   * Serialized success bodies kept for repeated requests (the REST face's, made by
   * createInProcessService from its `bodyCacheBytes`; unset: none). A body is a pure function of
   * the resolved request, so a repeat gets the same bytes without generating or serializing them
   * again. Auth, limits and charging still run every time.
   */
  bodies?: BodyCache;
  /** Generated series kept for repeats within the service clock's day (default: one of SERIES_CACHE_BYTES). */
  series?: SeriesCache;
}

export class InProcessService {
  private readonly store: MeteringStore;
  private readonly rateClock: (() => number) | undefined;
  private readonly bodies: BodyCache | undefined;
  readonly series: SeriesCache;

  constructor(private readonly options: ServiceOptions) {
    this.store = options.store;
    this.rateClock = options.rateClock;
    this.bodies = options.bodies;
    this.series = options.series ?? new SeriesCache();
  }

  /** The keys and accounts this service recognises. */
  get keys(): KeyStore {
    return this.options.keys;
  }

  /** Credits a key has left, or undefined for an unknown key. */
  async creditsRemaining(presentedKey: string): Promise<number | undefined> {
    const key = this.options.keys.lookup(presentedKey);
    return key && (await this.store.status(key, this.rateClock?.())).creditsRemaining;
  }

  async handle(req: ServiceRequest): Promise<ServiceResponse> {
    return this.guarded(req.path, async (keyed) => {
      const { endpoint, asset: pathAsset } = route(req.path);
      if (req.method !== "GET") {
        const err = new ServiceError(405, "method_not_allowed", `${shown(req.method)} is not allowed; every endpoint answers GET only.`);
        return failure(err, { Allow: "GET" });
      }
      return this.serve(keyed(req.headers), endpoint, pathAsset, req.query);
    });
  }

  /**
   * OHLC candles of an asset's reference market, through the same pipeline as every endpoint
   * (auth → restriction → params → coverage → rate window → credits), charged like an OHLCV series.
   * It has no REST route: the real service has none either (its clients read the heatmap's candles).
   * A key restricted to some metrics needs the row's gate.
   */
  async handlePrice(req: { asset: string; query: URLSearchParams; headers: HeaderBag }): Promise<ServiceResponse> {
    return this.guarded("price", async (keyed) => this.serve(keyed(req.headers), PRICE, req.asset, req.query));
  }

  /**
   * The range a records request asks and its series' history as of now, read without a key, a
   * charge or any data: undefined for other endpoints and for requests serving would refuse.
   */
  span(endpointId: string, asset: string, query: URLSearchParams): RequestSpan | undefined {
    const endpoint = metricById(endpointId);
    if (!endpoint || (endpoint.kind !== "series" && endpoint.kind !== "ohlcv") || !covers(endpoint, asset)) return undefined;
    try {
      const params = parseParams(endpoint, query, this.options.now());
      if (params.kind !== "records") return undefined;
      checkSymbol(asset, params);
      const { kind: _, ...resolved } = params;
      const history = seriesExtent({ endpoint, asset, ...resolved }) ?? null;
      return { startMs: params.startMs, endMs: params.endMs, history };
    } catch {
      return undefined;
    }
  }

  /**
   * Credits each request would cost and the key's balance and window, checked up to the charge as
   * serving checks them (an unknown key, a restriction, a bad parameter or coverage throws); nothing
   * is charged and the window is not touched.
   */
  async quote(
    presentedKey: string,
    requests: ReadonlyArray<{ endpoint: Endpoint; asset: string; query: URLSearchParams }>,
  ): Promise<{ costs: number[]; creditsRemaining: number; rate: MeterStatus["rate"] }> {
    const key = this.options.keys.lookup(presentedKey);
    if (!key) throw unauthorized("The API key is not recognised; check the key you send (X-Api-Key or Authorization: Bearer).");
    const nowMs = this.options.now();
    const costs = requests.map(
      (r) => this.prepare(key, r.endpoint, r.endpoint.id === HEATMAP_ID ? undefined : r.asset, r.query, nowMs).producer.cost,
    );
    const meter = await this.statusOf(key);
    if (!meter)
      throw new ServiceError(503, "store_unavailable", "The metering store cannot answer now; retry shortly.", { retryAfterS: 1 });
    return { costs, creditsRemaining: meter.creditsRemaining, rate: meter.rate };
  }

  /** Endpoint ids a presented key may call (null: all), or undefined for an unknown key. */
  entitlements(presentedKey: string): readonly string[] | null | undefined {
    const key = this.options.keys.lookup(presentedKey);
    return key && (key.metrics ? [...key.metrics] : null);
  }

  /** Runs `serve` with authentication and turns what it throws into an error response. */
  private async guarded(
    what: string,
    serve: (keyed: (headers: HeaderBag) => KeyRecord) => Promise<ServiceResponse>,
  ): Promise<ServiceResponse> {
    let key: KeyRecord | undefined;
    const keyed = (headers: HeaderBag): KeyRecord => {
      const presented = credentials(headers);
      if (presented === undefined) throw unauthorized("No API key: send X-Api-Key: <key> or Authorization: Bearer <key>.");
      key = this.options.keys.lookup(presented);
      if (!key) throw unauthorized("The API key is not recognised; check the key you send (X-Api-Key or Authorization: Bearer).");
      return key;
    };
    try {
      return await serve(keyed);
    } catch (err) {
      if (err instanceof ServiceError) {
        const extra: Record<string, string> = err.status === 401 ? { "WWW-Authenticate": 'Bearer realm="crypto-metrics"' } : {};
        if (err.details.retryAfterS !== undefined) extra["Retry-After"] = String(err.details.retryAfterS);
        const meter = key && err.code !== "store_unavailable" ? await this.statusOf(key) : undefined;
        return failure(err, { ...extra, ...(key && meter && keyedHeaders(key, meter)) }, meter);
      }
      log.error("unexpected failure while serving a request", {
        path: shown(what),
        key: (key as KeyRecord | undefined)?.label,
        error: (err as Error)?.message,
      });
      const internal = new ServiceError(
        500,
        "internal",
        "The service failed unexpectedly; nothing was charged. Retry, and report it if it persists.",
      );
      const meter = key && (await this.statusOf(key));
      return failure(internal, key && meter ? keyedHeaders(key, meter) : {}, meter);
    }
  }

  /** The pipeline after authentication up to the charge: gate, params, coverage; the producer of the answer. */
  private prepare(key: KeyRecord, endpoint: Endpoint, pathAsset: string | undefined, query: URLSearchParams, nowMs: number) {
    if (key.metrics && !key.metrics.has(gateOf(endpoint))) throw metricNotAllowed(key.metrics, endpoint);
    const params = parseParams(endpoint, query, nowMs);
    const asset = pathAsset ?? (params.kind === "heatmap" ? params.asset : "");
    if (!covers(endpoint, asset)) throw assetNotSupported(endpoint, asset);
    checkSymbol(asset, params);
    // A heatmap needs at least one candle: none exists before the asset's market opens.
    if (params.kind === "heatmap" && inceptionMs(asset) >= dataClock(nowMs)) {
      const listed = isoDay(inceptionMs(asset));
      throw new ServiceError(
        404,
        "asset_not_supported",
        `${asset} has no market before ${listed}: the heatmap has no column yet. Ask again once it trades, or pick another asset.`,
        { endpoint: endpoint.id, asset },
      );
    }
    return { producer: producerFor(endpoint, asset, params, nowMs, this.series), asset, params };
  }

  /**
   * An answer made again as of its own "now" (an earlier charged answer's), for a view loading its
   * data: the checks up to the charge run as for any request (key, restriction, params, coverage),
   * then the data; nothing is charged and the rate window is not touched.
   */
  async replay(
    req: { endpoint: Endpoint; asset: string; query: URLSearchParams; headers: HeaderBag },
    nowMs: number,
  ): Promise<ServiceResponse> {
    return this.guarded(req.endpoint.id, async (keyed) => {
      const key = keyed(req.headers);
      const pathAsset = req.endpoint.id === HEATMAP_ID ? undefined : req.asset;
      const { producer } = this.prepare(key, req.endpoint, pathAsset, req.query, nowMs);
      const meter = await this.statusOf(key);
      const usage = { charged: 0, creditsRemaining: meter?.creditsRemaining ?? 0 };
      const answer = producer.produce(usage);
      return withLazy({ status: 200, headers: {}, usage, result: answer }, "body", () => answer.body);
    });
  }

  /** The pipeline after authentication: gate, params, coverage, then the charge, the producer, and a refund when it fails. */
  private async serve(key: KeyRecord, endpoint: Endpoint, pathAsset: string | undefined, query: URLSearchParams): Promise<ServiceResponse> {
    const nowMs = this.options.now();
    const { producer, asset, params } = this.prepare(key, endpoint, pathAsset, query, nowMs);
    const cost = producer.cost;

    const outcome = await this.chargeOf(key, cost);
    const headers = keyedHeaders(key, outcome);
    if (!outcome.ok && outcome.reason === "rate_limited")
      return failure(rateLimited(key, outcome), { "Retry-After": String(outcome.retryAfterS), ...headers }, outcome);
    if (!outcome.ok) return failure(creditsExhausted(cost, outcome.creditsRemaining), headers, outcome);
    // A face that cannot deliver the response (its client gone) takes the charge back whole, once.
    const charge = chargeOf(
      cost,
      () => this.store.refund(key, outcome.request, cost),
      (why, refundErr) =>
        log.error(`a charge for ${why} could not be refunded`, { key: key.label, credits: cost, error: (refundErr as Error).message }),
    );
    const usage = { charged: cost, creditsRemaining: outcome.creditsRemaining };
    const cacheKey = this.bodies && producer.cacheable ? bodyKey(endpoint, asset, params, nowMs) : undefined;
    const cached = cacheKey === undefined ? undefined : this.bodies!.get(cacheKey);
    const delivery = { status: 200, headers, usage: { ...usage, charge } };
    if (cached) {
      // A repeat served from the cache: the objects are rebuilt only if a caller asks for them.
      const repeat = withLazy({ ...delivery, bytes: cached }, "result", () =>
        resultOfBody(endpoint, JSON.parse(cached.toString("utf8")) as BackendBody, { usage, ...producer.meta }),
      );
      return withLazy(repeat, "body", () => repeat.result.body);
    }
    let answer: BackendResult;
    let bytes: Buffer | undefined;
    try {
      answer = producer.produce(usage);
      if (cacheKey !== undefined) this.bodies!.set(cacheKey, (bytes = bodyBytes(answer, endpoint)));
    } catch (err) {
      // Charged but not served: give the credits and the window's place back before answering 500.
      await charge.refund("a failed request");
      throw err;
    }
    return withLazy({ ...delivery, result: answer, ...(bytes && { bytes }) }, "body", () => answer.body);
  }

  /** The store's atomic charge; a store that cannot answer is a retryable 503, never a free request. */
  private async chargeOf(key: KeyRecord, cost: number) {
    try {
      return await this.store.charge(key, cost, this.rateClock?.());
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      // Where the store is and what failed stay in the operator's log; the caller gets the reference.
      const ref = incidentRef(err.message);
      log.warn("metering store unavailable", { ref, store: this.store.location, error: err.message });
      throw new ServiceError(503, "store_unavailable", `${err.client} Reference ${ref} in the server log.`, { retryAfterS: 1 });
    }
  }

  /** Balance and window for the headers of an uncharged answer; none when the store cannot say. */
  private async statusOf(key: KeyRecord): Promise<MeterStatus | undefined> {
    try {
      return await this.store.status(key, this.rateClock?.());
    } catch {
      return undefined;
    }
  }

  /** Closes the metering store; the service answers nothing afterwards. */
  async close(): Promise<void> {
    await this.store.close();
  }
}
