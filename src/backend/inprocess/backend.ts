// The in-process Backend: builds the service path of a request and runs it through the same
// pipeline as the REST face, handing body objects on without serializing them.
import { afterCloseEvents, monotonicMs, slow } from "../../after-poll.js";
import { type Endpoint, HEATMAP_ID, metricById, nearestEndpoints, pathOf, PRICE } from "../../catalog/index.js";
import type { Config } from "../../config.js";
import {
  type Backend,
  type BackendContext,
  type BackendRequest,
  type BackendResult,
  type Quote,
  type RequestSpan,
  ServiceError,
} from "../types.js";
import { DEFAULT_KEY, KeyStore } from "./keys.js";
import { defaultStore, openStore } from "./metering/index.js";
import { SIMULATED_ORIGIN } from "./origin.js";
import type { ServiceResponse } from "./service.js";
import { InProcessService } from "./service.js";

export type InProcessConfig = Pick<Config, "apiKey" | "keysFile" | "stateDir" | "now"> &
  Partial<Pick<Config, "store" | "command">> & {
    /** Clock of the rate windows, epoch ms (tests drive it); defaults to the store's own. */
    rateClock?: () => number;
    /** Bytes of the body cache (see ServiceOptions.bodies): the REST face keeps serialized bodies for repeats. */
    bodyCacheBytes?: number;
  };

/**
 * The service of this process: keys from the keys file (or the single local key), metering in the
 * configured store (by default the embedded one in the state directory, which also receives an
 * earlier version's usage files once).
 */
export async function createInProcessService(config: InProcessConfig): Promise<InProcessService> {
  const keys = config.keysFile ? KeyStore.fromFile(config.keysFile) : KeyStore.single(config.apiKey ?? DEFAULT_KEY);
  const server = config.command === "api" || config.command === "http";
  const store = await openStore(config.store ?? defaultStore(config.stateDir), { legacyDir: config.stateDir, checkpointInWorker: server });
  return new InProcessService({
    keys,
    store,
    now: config.now,
    ...(config.rateClock && { rateClock: config.rateClock }),
    // The LRU module is loaded only by a service that keeps bodies (the REST face's).
    ...(config.bodyCacheBytes && { bodies: (await import("./body-lru.js")).createBodyCache(config.bodyCacheBytes) }),
  });
}

export class InProcessBackend implements Backend {
  readonly kind = "inprocess" as const;
  readonly origin = SIMULATED_ORIGIN;

  /** `defaultKey` is used when a call carries no key: CRYPTO_METRICS_API_KEY, or `demo`. */
  constructor(
    readonly service: InProcessService,
    private readonly defaultKey: string = DEFAULT_KEY,
  ) {}

  static async create(config: InProcessConfig): Promise<InProcessBackend> {
    return new InProcessBackend(await createInProcessService(config), config.apiKey ?? DEFAULT_KEY);
  }

  span(request: BackendRequest): RequestSpan | undefined {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query)) if (value !== undefined) query.append(name, value);
    return this.service.span(request.endpoint, request.asset, query);
  }

  async fetch(request: BackendRequest, context: BackendContext = {}): Promise<BackendResult> {
    context.signal?.throwIfAborted();
    const headers = { "x-api-key": context.apiKey ?? this.defaultKey };
    const { endpoint, query } = this.resolve(request);
    const started = monotonicMs();
    const res =
      endpoint === PRICE
        ? await this.service.handlePrice({ asset: request.asset, query, headers })
        : await this.service.handle({ method: "GET", path: pathOf(endpoint, encodeURIComponent(request.asset)), query, headers });
    this.throwIfFailed(res, endpoint.id, request.asset);
    await refundIfAbandoned(res, context, started);
    return resultOf(res, endpoint.id);
  }

  /** Costs as serving would charge them, read without charging: the same checks up to the charge. */
  async quote(requests: readonly BackendRequest[], context: BackendContext = {}): Promise<Quote> {
    const resolved = requests.map((r) => ({ ...this.resolve(r), asset: r.asset }));
    return this.service.quote(context.apiKey ?? this.defaultKey, resolved);
  }

  /** The simulation is a pure function of the request and its "now": an earlier answer is recomputed, uncharged. */
  async replay(request: BackendRequest, asOfMs: number, context: BackendContext = {}): Promise<BackendResult> {
    context.signal?.throwIfAborted();
    const headers = { "x-api-key": context.apiKey ?? this.defaultKey };
    const { endpoint, query } = this.resolve(request);
    const res = await this.service.replay({ endpoint, asset: request.asset, query, headers }, asOfMs);
    this.throwIfFailed(res, endpoint.id, request.asset);
    return resultOf(res, endpoint.id);
  }

  /** The catalog entry and the service's query of a request (the heatmap takes its asset as a parameter). */
  private resolve(request: BackendRequest): { endpoint: Endpoint; query: URLSearchParams } {
    const endpoint = metricById(request.endpoint);
    if (!endpoint) {
      const near = nearestEndpoints(request.endpoint);
      throw new ServiceError(
        404,
        "not_found",
        `Unknown endpoint id "${request.endpoint.slice(0, 80)}"${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : ""}`,
        { allowed: near, endpoint: request.endpoint },
      );
    }
    const query = new URLSearchParams();
    if (endpoint.id === HEATMAP_ID) query.set("asset", request.asset);
    for (const [name, value] of Object.entries(request.query)) {
      if (value !== undefined && !(endpoint.id === HEATMAP_ID && name === "asset")) query.append(name, value);
    }
    return { endpoint, query };
  }

  entitlements(context: BackendContext = {}): readonly string[] | null | undefined {
    return this.service.entitlements(context.apiKey ?? this.defaultKey);
  }

  private throwIfFailed(res: ServiceResponse, endpoint: string, asset: string): void {
    if (!res.error) return;
    const { status, code, message, details } = res.error;
    throw new ServiceError(status, code, message, {
      endpoint,
      ...details,
      asset: details.asset ?? asset.slice(0, 48),
      ...(res.usage && details.creditsRemaining === undefined && { creditsRemaining: res.usage.creditsRemaining }),
    });
  }

  async close(): Promise<void> {
    await this.service.close();
  }
}

/** A success handed on as the service made it: its body is built only if something reads it. */
function resultOf(res: ServiceResponse, endpoint: string): BackendResult {
  if (!res.result)
    throw new ServiceError(500, "internal", `The service answered ${endpoint} without a result. Retry, and report it if it persists.`);
  return res.result;
}

/**
 * The charge goes to the caller's transport (`onCharge`), which takes it back if the answer is not
 * delivered. A call abandoned while the service built its answer (the HTTP client gone, the request
 * cancelled: its signal aborted) takes its charge back whole at once, before the tool goes on.
 */
async function refundIfAbandoned(res: ServiceResponse, context: BackendContext, started: number): Promise<void> {
  const charge = res.usage?.charge;
  if (charge) context.onCharge?.(charge);
  const signal = context.signal;
  if (!charge || !signal) return;
  // A response that took a while to build lets the event loop see a client that left meanwhile.
  if (slow(started)) await afterCloseEvents();
  // Only an abort seen here: the SDK may abort a call's signal once its answer is out, too.
  if (signal.aborted) {
    void charge.refund("an abandoned call");
    signal.throwIfAborted();
  }
}
