// The Backend over the real service: entitlement-guarded cache, coalescing of identical calls,
// paging of ranges wider than one response, and the resilient fetcher underneath.
import { createHash } from "node:crypto";

import { Agent, type Dispatcher } from "undici";

import { type Endpoint, endpointById, HEATMAP_ID, PRICE_ID, VARIATION_ID } from "../../catalog/index.js";
import type { Heatmap } from "../../catalog/responses.js";
import {
  API_KEY_PATTERN,
  type Backend,
  type BackendBody,
  type BackendContext,
  type BackendRequest,
  type BackendResult,
  candleRecords,
  type DataOrigin,
  type Quote,
  resultOfBody,
  ServiceError,
  type TimeRecord,
} from "../types.js";
import { type BreakerState, CircuitBreaker } from "./breaker.js";
import { ResponseCache, ttlFor } from "./cache.js";
import { Coalescer } from "./coalesce.js";
import { type Fetched, UpstreamFetcher } from "./fetcher.js";
import { candlesFromHeatmap, planPrice } from "./heatmap-candles.js";
import { type HttpBackendOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { mergeWindows, planWindows } from "./paging.js";
import { quoteRequest } from "./quote.js";
import { buildUpstreamRequest, type UpstreamRequest } from "./request.js";
import { withDailyCloses } from "./variation-closes.js";

/** SHA-256 of a key: the only form in which keys are compared, stored or logged (by prefix). */
function keyDigest(apiKey: string | undefined): string {
  return createHash("sha256")
    .update(apiKey ?? "")
    .digest("hex");
}

/** Cached bodies are shared; freezing them turns an accidental mutation into an error. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A caller-owned top level over the shared, frozen records (sorting a copy must not throw). */
function own(body: BackendBody): BackendBody {
  return Array.isArray(body) ? (body.slice() as BackendBody) : { ...body };
}

export class HttpBackend implements Backend {
  readonly kind = "http" as const;
  readonly origin: DataOrigin;
  private readonly options: ResolvedOptions;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  /** One circuit: a backend talks to the one upstream origin of its base URL. */
  private readonly breaker: CircuitBreaker;
  private readonly cache: ResponseCache;
  private readonly flights = new Coalescer<Fetched & { receivedMs: number }>();
  private readonly fetcher: UpstreamFetcher;
  /** The balance the service last reported per key digest: all a quote can know of credits left. */
  private readonly balances = new Map<string, number>();

  constructor(options: HttpBackendOptions) {
    this.options = resolveOptions(options);
    this.origin = { kind: "service", host: new URL(this.options.origin).host };
    const { timeouts } = this.options;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        connect: { timeout: timeouts.connectMs },
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
      });
    this.cache = new ResponseCache(this.options.cache, this.options.now);
    const { origin, log } = this.options;
    this.breaker = new CircuitBreaker(this.options.breaker, this.options.now, (state) => {
      if (state === "open") log.warn("upstream circuit open: failing fast until the cooldown ends", { origin });
      else log.info(`upstream circuit ${state}`, { origin });
    });
    this.fetcher = new UpstreamFetcher(this.options, this.dispatcher, this.breaker);
  }

  /** State of the circuit for the configured upstream (for diagnostics and tests). */
  get circuit(): BreakerState {
    return this.breaker.current;
  }

  get cacheStats(): { entries: number; bytes: number } {
    return this.cache.stats;
  }

  async fetch(request: BackendRequest, context: BackendContext = {}): Promise<BackendResult> {
    return this.read(request, context);
  }

  /** Costs by the catalog's documented rules, 0 where the cache answers; the rate window is the service's alone. */
  async quote(requests: readonly BackendRequest[], context: BackendContext = {}): Promise<Quote> {
    const digest = keyDigest(context.apiKey ?? this.options.apiKey);
    const env = {
      nowMs: this.options.now(),
      perWindow: this.options.perWindow,
      cached: (endpoint: Endpoint, cacheKey: string) => this.cache.lookup(digest, endpoint.id, cacheKey) !== undefined,
    };
    const costs = requests.map((r) => quoteRequest(r, env));
    const left = this.balances.get(digest);
    return { costs, ...(left !== undefined && { creditsRemaining: left }) };
  }

  /**
   * An earlier answer for a view loading its data, from the response cache only: the upstream is
   * not asked again (it would charge), so an answer no longer cached is refused (410).
   */
  async replay(request: BackendRequest, asOfMs: number, context: BackendContext = {}): Promise<BackendResult> {
    return this.read(request, context, asOfMs);
  }

  /** `replayAsOfMs`: read the cache only, planning windows as of that time. */
  private async read(request: BackendRequest, context: BackendContext, replayAsOfMs?: number): Promise<BackendResult> {
    if (request.endpoint === PRICE_ID) return this.fetchPrice(request, context, replayAsOfMs);
    const endpoint = endpointById(request.endpoint);
    if (!endpoint) {
      throw new ServiceError(404, "not_found", `Unknown endpoint "${request.endpoint.slice(0, 80)}"; list_assets shows the endpoint ids.`, {
        endpoint: request.endpoint.slice(0, 80),
      });
    }
    context.signal?.throwIfAborted();
    const apiKey = context.apiKey ?? this.options.apiKey;
    if (apiKey !== undefined && !API_KEY_PATTERN.test(apiKey)) {
      throw new ServiceError(401, "unauthorized", "The API key contains characters a header cannot carry; check CRYPTO_METRICS_API_KEY.");
    }
    const digest = keyDigest(apiKey);
    const now = replayAsOfMs ?? this.options.now();
    const windows = planWindows(endpoint, request.query, now, this.options.perWindow);
    if (!windows) {
      // Our clock stands in for the service's "now" (as for price): the asked range and a partial last bucket read from it.
      const cacheOnly = replayAsOfMs !== undefined;
      const one = { asOfMs: now, ...(await this.fetchOne(endpoint, request, apiKey, digest, context.signal, cacheOnly)) };
      if (endpoint.id !== VARIATION_ID) return one;
      return withDailyCloses(one, request.asset, now, (price) => this.fetchPrice(price, context, replayAsOfMs));
    }

    if (windows.length * this.options.perWindow > this.options.maxTotal) {
      throw new ServiceError(
        400,
        "range_too_large",
        `The range spans about ${windows.length * this.options.perWindow} buckets, more than the ${this.options.maxTotal} one call may assemble; narrow startDate/endDate or use a coarser timeframe.`,
        {
          parameter: "startDate",
          endpoint: endpoint.id,
          asset: request.asset,
        },
      );
    }
    const parts: TimeRecord[][] = [];
    let receivedMs = Infinity;
    let charged = 0;
    let creditsRemaining: number | undefined;
    for (const [i, window] of windows.entries()) {
      const windowed = { ...request, query: { ...request.query, ...window } };
      const part = await this.fetchOne(endpoint, windowed, apiKey, digest, context.signal, replayAsOfMs !== undefined);
      parts.push(part.body as TimeRecord[]);
      receivedMs = Math.min(receivedMs, part.receivedMs ?? Infinity);
      charged += part.usage.charged;
      creditsRemaining = part.usage.creditsRemaining ?? creditsRemaining;
      context.onProgress?.({ done: i + 1, total: windows.length, message: `window ${i + 1} of ${windows.length}` });
    }
    return {
      kind: "series",
      asOfMs: now,
      body: mergeWindows(parts),
      usage: creditsRemaining === undefined ? { charged } : { charged, creditsRemaining },
      ...(Number.isFinite(receivedMs) && { receivedMs }),
    };
  }

  /** Price candles read from the heatmap view that covers the range (one heatmap call, its cost). */
  private async fetchPrice(request: BackendRequest, context: BackendContext, replayAsOfMs?: number): Promise<BackendResult> {
    const asOfMs = replayAsOfMs ?? this.options.now();
    const plan = planPrice(request.query, asOfMs);
    const { timeframe, lookback } = plan;
    const result = await this.read({ endpoint: HEATMAP_ID, asset: request.asset, query: { timeframe, lookback } }, context, replayAsOfMs);
    const candles = candlesFromHeatmap(result.body as Heatmap, plan);
    // Our clock stands in for the service's: the heatmap's last column is the candle open at its "now".
    return {
      kind: "candles",
      body: candleRecords(candles),
      candles,
      usage: result.usage,
      asOfMs,
      ...(result.receivedMs !== undefined && { receivedMs: result.receivedMs }),
    };
  }

  async close(): Promise<void> {
    this.cache.clear();
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async fetchOne(
    endpoint: Endpoint,
    request: BackendRequest,
    apiKey: string | undefined,
    digest: string,
    signal?: AbortSignal,
    cacheOnly = false,
  ): Promise<BackendResult> {
    const upstream = buildUpstreamRequest(endpoint, request);
    const cached = this.cache.lookup(digest, endpoint.id, upstream.cacheKey);
    if (cached) return resultOfBody(endpoint, own(cached.body), { usage: { charged: 0 }, receivedMs: cached.receivedMs });
    if (cacheOnly)
      throw new ServiceError(
        410,
        "not_found",
        `The service's answer for ${endpoint.id} is no longer cached; ask again (a new, charged call).`,
        {
          endpoint: endpoint.id,
        },
      );
    // Coalesce only among callers of the same key: each key's entitlement is its own.
    const { value, leader } = await this.flights.run(`${digest}\n${upstream.cacheKey}`, signal, (shared) =>
      this.load(upstream, request.query, apiKey, digest, shared),
    );
    const usage = leader
      ? value.usage
      : { charged: 0, ...(value.usage.creditsRemaining !== undefined && { creditsRemaining: value.usage.creditsRemaining }) };
    return resultOfBody(endpoint, own(value.body), { usage, receivedMs: value.receivedMs });
  }

  private async load(
    upstream: UpstreamRequest,
    query: BackendRequest["query"],
    apiKey: string | undefined,
    digest: string,
    signal: AbortSignal,
  ): Promise<Fetched & { receivedMs: number }> {
    const endpointId = upstream.endpoint.id;
    let fetched: Fetched & { receivedMs: number };
    try {
      fetched = { ...(await this.fetcher.fetch(upstream, apiKey, signal)), receivedMs: this.options.now() };
    } catch (error) {
      if (error instanceof ServiceError) {
        if (error.details.creditsRemaining !== undefined) this.balances.set(digest, error.details.creditsRemaining);
        if (error.code === "unauthorized" || error.code === "credits_exhausted") this.cache.revoke(digest);
        else if (error.code === "metric_not_allowed") this.cache.revoke(digest, endpointId);
      }
      throw error;
    }
    if (fetched.usage.creditsRemaining !== undefined) this.balances.set(digest, fetched.usage.creditsRemaining);
    deepFreeze(fetched.body);
    this.cache.grant(digest, endpointId);
    // With the balance at 0 the upstream may have cut the answer short: never share it.
    if (fetched.usage.creditsRemaining !== 0) {
      this.cache.store(upstream.cacheKey, fetched.body, fetched.bytes, ttlFor(upstream.endpoint, query), fetched.receivedMs);
    }
    return fetched;
  }
}
