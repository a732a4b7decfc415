// A real REST face on a loopback port, over a fresh state dir and a keys file, with "now" pinned.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { createInProcessService } from "../src/backend/inprocess/backend.js";
import type { InProcessService } from "../src/backend/inprocess/service.js";
import { startRestServer, type RestServer } from "../src/backend/rest.js";

export const NOW = Date.parse("2025-12-31T12:00:00Z");
const BIG = { requests: 100_000, windowSeconds: 60 };

export const KEYS = {
  plans: { free: { credits: 1000, rateLimit: { requests: 30, windowSeconds: 60 } }, big: { credits: 1_000_000_000, rateLimit: BIG } },
  keys: [
    { key: "full-key", plan: "big" },
    { key: "free-key", plan: "free" },
    { key: "onchain-only", plan: "big", metrics: ["lifespan/Lth_mvrv", "market/metcalfe_ratio"] },
    { key: "hundred", credits: 100, rateLimit: BIG },
    { key: "ten", credits: 10, rateLimit: BIG },
    { key: "two-per-minute", credits: 1000, rateLimit: { requests: 2, windowSeconds: 60 } },
    { key: "broke", credits: 0, rateLimit: BIG },
  ],
};

export interface Harness {
  dir: string;
  service: InProcessService;
  rest: RestServer;
  stop(): Promise<void>;
}

export function keysDir(): { dir: string; keysFile: string } {
  const dir = mkdtempSync(join(tmpdir(), "cm-rest-"));
  const keysFile = join(dir, "keys.json");
  writeFileSync(keysFile, JSON.stringify(KEYS));
  return { dir, keysFile };
}

export async function startHarness(existing?: { dir: string; keysFile: string }): Promise<Harness> {
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

export async function call(base: string, path: string, init: { key?: string; headers?: Record<string, string>; method?: string; body?: string } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(init.key !== undefined && { "x-api-key": init.key }), ...init.headers };
  const res = await request(base + path, { method: (init.method ?? "GET") as "GET", headers, body: init.body, dispatcher: agent });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(", ") : v;
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.statusCode, headers: flat, text, json };
}
