// Response cache shared by all keys, guarded by per-key entitlements: a key reads a cached body
// only for an endpoint the upstream itself recently served that key (by SHA-256 digest).
import { LRUCache } from "lru-cache";

import { type Endpoint, isTimeframe, type Timeframe } from "../../catalog/index.js";
import type { BackendBody } from "../types.js";

export interface CachePolicy {
  maxEntries: number;
  maxBytes: number;
  /** How long an upstream 2xx vouches for a key's access to an endpoint. */
  grantTtlMs: number;
}

export const DEFAULT_CACHE: CachePolicy = { maxEntries: 500, maxBytes: 64 * 1024 * 1024, grantTtlMs: 10 * 60_000 };

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Fresher data for finer buckets: a 1m series moves every minute, a daily one once a day. */
const TTL_BY_TIMEFRAME: Record<Timeframe, number> = {
  "1m": 10 * SECOND,
  "5m": 30 * SECOND,
  "15m": MINUTE,
  "30m": MINUTE,
  "1h": 2 * MINUTE,
  "4h": 5 * MINUTE,
  "6h": 5 * MINUTE,
  "12h": 5 * MINUTE,
  "1d": 60 * MINUTE,
};

/** Time to live of a cached answer. Pure. */
export function ttlFor(endpoint: Endpoint, query: Readonly<Record<string, string | undefined>>): number {
  if (endpoint.kind === "variation") return MINUTE;
  if (endpoint.kind === "series") return 60 * MINUTE;
  const timeframe = query.timeframe;
  if (timeframe !== undefined && isTimeframe(timeframe)) return TTL_BY_TIMEFRAME[timeframe];
  // Unknown OHLCV timeframes mean daily upstream; a heatmap without one is kept briefly.
  return endpoint.kind === "ohlcv" ? TTL_BY_TIMEFRAME["1d"] : MINUTE;
}

interface Entry {
  body: BackendBody;
  bytes: number;
  /** When the upstream answered (epoch ms): the as-of time a cached answer keeps. */
  receivedMs: number;
}

export class ResponseCache {
  private readonly bodies: LRUCache<string, Entry>;
  /** key digest → endpoint id → grant expiry (ms). */
  private readonly grants: LRUCache<string, Map<string, number>>;

  constructor(
    private readonly policy: CachePolicy,
    private readonly now: () => number,
  ) {
    const perf = { now };
    this.bodies = new LRUCache<string, Entry>({
      max: Math.max(1, policy.maxEntries),
      maxSize: Math.max(1, policy.maxBytes),
      sizeCalculation: (entry) => Math.max(1, entry.bytes),
      // No memoized clock: expiry must follow the injected one exactly.
      ttlResolution: 0,
      perf,
    });
    this.grants = new LRUCache<string, Map<string, number>>({ max: 10_000 });
  }

  /** The cached body, only when this key is entitled to the endpoint; checked before any lookup. */
  lookup(digest: string, endpointId: string, cacheKey: string): Entry | undefined {
    const expiry = this.grants.get(digest)?.get(endpointId);
    if (expiry === undefined || expiry <= this.now()) return undefined;
    return this.bodies.get(cacheKey);
  }

  store(cacheKey: string, body: BackendBody, bytes: number, ttlMs: number, receivedMs: number = this.now()): void {
    if (this.policy.maxEntries === 0 || ttlMs <= 0 || bytes > this.policy.maxBytes) return;
    this.bodies.set(cacheKey, { body, bytes, receivedMs }, { ttl: ttlMs });
  }

  grant(digest: string, endpointId: string): void {
    let granted = this.grants.get(digest);
    if (!granted) {
      granted = new Map();
      this.grants.set(digest, granted);
    }
    granted.set(endpointId, this.now() + this.policy.grantTtlMs);
  }

  /** Forget a key's access to one endpoint (403), or to everything (401, 402). */
  revoke(digest: string, endpointId?: string): void {
    if (endpointId === undefined) this.grants.delete(digest);
    else this.grants.get(digest)?.delete(endpointId);
  }

  get stats(): { entries: number; bytes: number } {
    return { entries: this.bodies.size, bytes: this.bodies.calculatedSize };
  }

  clear(): void {
    this.bodies.clear();
    this.grants.clear();
  }
}
