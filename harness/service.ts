// In-process services over a keys document, a fresh state dir, pinned data time and an injectable
// rate-window clock, with the cheapest request each endpoint answers; and the REST face over such a
// service on a loopback port, with a client for it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Agent, request } from "undici";

import { createInProcessService, InProcessBackend } from "../src/backend/inprocess/backend.js";
import { KeyStore } from "../src/backend/inprocess/keys.js";
import type { MeteringStore } from "../src/backend/inprocess/metering/index.js";
import { SqliteStore } from "../src/backend/inprocess/metering/sqlite-store.js";
import { InProcessService, type ServiceResponse } from "../src/backend/inprocess/service.js";
import { type RestServer, startRestServer } from "../src/backend/rest.js";
import type { BackendRequest } from "../src/backend/types.js";
import { coverage, type Endpoint, ENDPOINTS, HEATMAP_ID, pathOf } from "../src/catalog/index.js";

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

/** The keys of the REST face's rig: one per status its tests reach. */
export const REST_KEYS = {
  plans: { free: { credits: 1000, rateLimit: { requests: 30, windowSeconds: 60 } }, big: { credits: 1_000_000_000, rateLimit: BIG_RATE } },
  keys: [
    { key: "full-key", plan: "big" },
    { key: "free-key", plan: "free" },
    { key: "onchain-only", plan: "big", metrics: ["lifespan/Lth_mvrv", "market/metcalfe_ratio"] },
    { key: "hundred", credits: 100, rateLimit: BIG_RATE },
    { key: "ten", credits: 10, rateLimit: BIG_RATE },
    { key: "two-per-minute", credits: 1000, rateLimit: { requests: 2, windowSeconds: 60 } },
    { key: "broke", credits: 0, rateLimit: BIG_RATE },
  ],
};

export interface RestRig {
  dir: string;
  service: InProcessService;
  rest: RestServer;
  stop(): Promise<void>;
}

/** REST_KEYS written into a fresh directory. */
export function keysDir(): { dir: string; keysFile: string } {
  return writeKeys(REST_KEYS, tempDir("cm-rest-"));
}

/** The REST face on a loopback port over a service built as `api` builds it, on REST_KEYS (or the keys dir given). */
export async function startRest(existing?: { dir: string; keysFile: string }): Promise<RestRig> {
  const { dir, keysFile } = existing ?? keysDir();
  const service = await createInProcessService({ apiKey: undefined, keysFile, stateDir: join(dir, "state"), now: () => NOW });
  const rest = await startRestServer(service, { host: "127.0.0.1", port: 0 });
  return {
    dir,
    service,
    rest,
    async stop() {
      await rest.close();
      await service.close();
    },
  };
}

export const agent = new Agent({ connections: 16, pipelining: 1 });

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
}

export async function call(
  base: string,
  path: string,
  init: { key?: string; headers?: Record<string, string>; method?: string; body?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(init.key !== undefined && { "x-api-key": init.key }), ...init.headers };
  const res = await request(base + path, { method: (init.method ?? "GET") as "GET", headers, body: init.body, dispatcher: agent });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(", ") : v;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: flat, text, json };
}
