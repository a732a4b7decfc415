// Builds in-process services for the reliability tests: a keys document, a fresh state dir, pinned
// data time and an injectable rate-window clock; plus the cheapest request each endpoint answers.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { coverage, ENDPOINTS, HEATMAP_ID, pathOf, type Endpoint } from "../src/catalog/index.js";
import { InProcessBackend } from "../src/backend/inprocess/backend.js";
import { KeyStore } from "../src/backend/inprocess/keys.js";
import { InProcessService, type ServiceResponse } from "../src/backend/inprocess/service.js";
import type { MeteringStore } from "../src/backend/inprocess/metering/index.js";
import { SqliteStore } from "../src/backend/inprocess/metering/sqlite-store.js";
import type { BackendRequest } from "../src/backend/types.js";

export const NOW = Date.parse("2025-12-31T12:00:00Z");
export const BIG_RATE = { requests: 100_000, windowSeconds: 60 } as const;

export interface KeyEntry {
  key: string;
  plan?: string;
  credits?: number;
  rateLimit?: { requests: number; windowSeconds: number };
  metrics?: string[];
}

export interface KeysDoc {
  plans?: Record<string, { credits?: number; rateLimit?: { requests: number; windowSeconds: number } }>;
  keys: KeyEntry[];
}

export function tempDir(prefix = "cm-rel-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a keys file into a fresh directory; returns both paths. */
export function writeKeys(doc: KeysDoc, dir = tempDir()): { dir: string; keysFile: string } {
  const keysFile = join(dir, "keys.json");
  writeFileSync(keysFile, JSON.stringify(doc));
  return { dir, keysFile };
}

export interface ServiceRig {
  service: InProcessService;
  backend: InProcessBackend;
  store: MeteringStore;
  stateDir: string;
  /** The rate-window clock, epoch ms; tests move it. */
  clock: { t: number };
  close(): Promise<void>;
}

/** The embedded store of a state directory (a fresh one by default). */
export function sqliteStore(stateDir = tempDir("cm-rel-state-")): SqliteStore {
  return SqliteStore.open(join(stateDir, "metering.sqlite"));
}

/**
 * A service over `doc`, metered in a fresh embedded store, or in `store` when given (shared by
 * several services, as by several processes; close() then leaves it open).
 */
export function serviceRig(doc: KeysDoc, options: { stateDir?: string; defaultKey?: string; store?: MeteringStore } = {}): ServiceRig {
  const stateDir = options.stateDir ?? tempDir("cm-rel-state-");
  const store = options.store ?? sqliteStore(stateDir);
  const clock = { t: 1_000_000 };
  const service = new InProcessService({ keys: KeyStore.fromJson(JSON.stringify(doc)), store, now: () => NOW, rateClock: () => clock.t });
  const backend = new InProcessBackend(service, options.defaultKey ?? doc.keys[0]!.key);
  return { service, backend, store, stateDir, clock, close: async () => (options.store ? undefined : service.close()) };
}

/** A ticker the endpoint covers (btc where it can). */
export function coveredAsset(endpoint: Endpoint): string {
  const members = coverage(endpoint);
  return members === null || members.includes("btc") ? "btc" : members[0]!;
}

/** The cheapest successful query of an endpoint: two days of a series, a 24-column heatmap. */
export function cheapQuery(endpoint: Endpoint): Record<string, string> {
  if (endpoint.kind === "heatmap") return { timeframe: "1h", lookback: "24h" };
  if (endpoint.kind === "variation") return {};
  return { startDate: "2025-06-01", endDate: "2025-06-02" };
}

export function cheapRequest(endpoint: Endpoint, asset = coveredAsset(endpoint)): BackendRequest {
  return { endpoint: endpoint.id, asset, query: cheapQuery(endpoint) };
}

/** Service path and query string of the cheapest request (REST form). */
export function cheapPath(endpoint: Endpoint, asset = coveredAsset(endpoint)): string {
  const query = new URLSearchParams(cheapQuery(endpoint));
  if (endpoint.id === HEATMAP_ID) query.set("asset", asset);
  const qs = query.toString();
  return pathOf(endpoint, asset) + (qs ? `?${qs}` : "");
}

/** One GET through the service pipeline, as the REST face would send it. */
export function serviceGet(service: InProcessService, pathAndQuery: string, key: string | undefined): Promise<ServiceResponse> {
  const q = pathAndQuery.indexOf("?");
  const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  const query = new URLSearchParams(q === -1 ? "" : pathAndQuery.slice(q + 1));
  return service.handle({ method: "GET", path, query, headers: key === undefined ? {} : { "x-api-key": key } });
}

/** `r` (remaining) of a RateLimit header such as `"free";r=29;t=60`. */
export function rateRemaining(res: ServiceResponse): number {
  const m = /;r=(\d+)/.exec(res.headers["RateLimit"] ?? "");
  if (!m) throw new Error(`no RateLimit header on a ${res.status}`);
  return Number(m[1]);
}

export { ENDPOINTS };
