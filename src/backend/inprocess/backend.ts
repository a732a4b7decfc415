// The in-process Backend: builds the service path of a request and runs it through the same
// pipeline as the REST face, handing body objects on without serializing them.
import { endpointById, HEATMAP_ID, nearestEndpoints, pathOf } from "../../catalog/index.js";
import type { Config } from "../../config.js";
import { ServiceError, type Backend, type BackendContext, type BackendRequest, type BackendResult } from "../types.js";
import { DEFAULT_KEY, KeyStore } from "./keys.js";
import { InProcessService } from "./service.js";
import { UsageStore } from "./usage-store.js";

export type InProcessConfig = Pick<Config, "apiKey" | "keysFile" | "stateDir" | "now"> & {
  /** Clock of the rate windows (tests drive it); defaults to performance.now. */
  monotonicNow?: () => number;
  /** See ServiceOptions.bodyCacheBytes: the REST face keeps serialized bodies for repeats. */
  bodyCacheBytes?: number;
};

/** The service of this process: keys from the keys file (or the single local key) and usage from the state dir. */
export function createInProcessService(config: InProcessConfig): InProcessService {
  const keys = config.keysFile ? KeyStore.fromFile(config.keysFile) : KeyStore.single(config.apiKey ?? DEFAULT_KEY);
  const usage = UsageStore.open(config.stateDir);
  return new InProcessService({
    keys, usage, now: config.now,
    ...(config.monotonicNow && { monotonicNow: config.monotonicNow }),
    ...(config.bodyCacheBytes && { bodyCacheBytes: config.bodyCacheBytes }),
  });
}

export class InProcessBackend implements Backend {
  readonly kind = "inprocess" as const;

  /** `defaultKey` is used when a call carries no key: CRYPTO_METRICS_API_KEY, or `demo`. */
  constructor(readonly service: InProcessService, private readonly defaultKey: string = DEFAULT_KEY) {}

  static create(config: InProcessConfig): InProcessBackend {
    return new InProcessBackend(createInProcessService(config), config.apiKey ?? DEFAULT_KEY);
  }

  async fetch(request: BackendRequest, context: BackendContext = {}): Promise<BackendResult> {
    context.signal?.throwIfAborted();
    const endpoint = endpointById(request.endpoint);
    if (!endpoint) {
      const near = nearestEndpoints(request.endpoint);
      throw new ServiceError(404, "not_found", `Unknown endpoint id "${request.endpoint.slice(0, 80)}"${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : ""}`, { allowed: near, endpoint: request.endpoint });
    }
    const query = new URLSearchParams();
    if (endpoint.id === HEATMAP_ID) query.set("asset", request.asset);
    for (const [name, value] of Object.entries(request.query)) {
      if (value !== undefined && !(endpoint.id === HEATMAP_ID && name === "asset")) query.append(name, value);
    }
    const path = pathOf(endpoint, encodeURIComponent(request.asset));
    const res = this.service.handle({ method: "GET", path, query, headers: { "x-api-key": context.apiKey ?? this.defaultKey } });
    if (res.error) {
      const { status, code, message, details } = res.error;
      throw new ServiceError(status, code, message, {
        ...details,
        endpoint: endpoint.id,
        asset: details.asset ?? request.asset.slice(0, 48),
        ...(res.usage && details.creditsRemaining === undefined && { creditsRemaining: res.usage.creditsRemaining }),
      });
    }
    const usage = res.usage ?? { charged: 0 };
    if (res.columns) {
      // Forwarded lazily: reading res.body here would build the records the columns spare.
      const served = res;
      return { columns: res.columns, usage, get body() { return served.body as BackendResult["body"]; } };
    }
    return { body: res.body as BackendResult["body"], usage };
  }

  async close(): Promise<void> {
    this.service.close();
  }
}
