// Exactness with real processes on one store: `api` and `http` servers and `call` runs in a loop
// spend one key's credits together and let exactly ⌊C / c⌋ through; a rate window holds across
// processes and across a restart; a store that cannot be written fails requests (nothing served
// uncharged) and the next start works. Run on the embedded store and, when a server answers, on
// PostgreSQL.
import { Agent, request } from "node:http";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";

import { dropSchema, PG_AVAILABLE, storeUrl, testSchema } from "../../../../harness/postgres.js";
import { BIG_RATE, tempDir, writeKeys } from "../../../../harness/service.js";
import { spawnCli, type Spawned } from "../../../../harness/spawn.js";
import { sha256 } from "../../../../src/backend/inprocess/keys.js";
import { SqliteStore } from "../../../../src/backend/inprocess/metering/sqlite-store.js";

const SERIES = "/btc/lifespan/Lth_mvrv?startDate=2025-06-01&endDate=2025-06-02"; // 1 credit
const NOW = "2025-12-31T12:00:00Z";
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const running: Spawned[] = [];
afterAll(async () => {
  agent.destroy();
  for (const p of running) p.child.kill("SIGKILL");
  await Promise.all(running.map((p) => p.exited));
});

function get(base: string, path: string, key: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { "x-api-key": key }, agent }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function server(kind: "api" | "http", env: Record<string, string>, shell?: string): Promise<{ base: string; proc: Spawned }> {
  const proc = spawnCli([kind, "--port", "0"], { CRYPTO_METRICS_NOW: NOW, ...env }, [], shell);
  running.push(proc);
  const base = `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/, 30_000))[1]}`;
  return { base, proc };
}

async function mcpCalls(base: string, n: number): Promise<number> {
  const client = new Client({ name: "metering-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  try {
    const results = await Promise.all(
      Array.from(
        { length: n },
        () =>
          client.callTool({
            name: "get_series",
            arguments: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-06-01", endDate: "2025-06-02" },
          }) as Promise<CallToolResult>,
      ),
    );
    for (const r of results) if (r.isError) expect(JSON.stringify(r.content)).toMatch(/credits_exhausted|Credits exhausted/);
    return results.filter((r) => !r.isError).length;
  } finally {
    await client.close();
  }
}

async function callLoop(env: Record<string, string>, runs: number): Promise<number> {
  let ok = 0;
  for (let i = 0; i < runs; i++) {
    const proc = spawnCli(
      ["call", "get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc", "--startDate", "2025-06-01", "--endDate", "2025-06-02"],
      { CRYPTO_METRICS_NOW: NOW, ...env },
    );
    const { code } = await proc.exited;
    if (code === 0) ok++;
    else expect(proc.stdoutText() + proc.stderrText()).toMatch(/Credits exhausted|credits_exhausted/);
  }
  return ok;
}

interface Engine {
  name: string;
  available: boolean;
  env(): Promise<Record<string, string>>;
}

const schema = testSchema("cmp");
afterAll(() => dropSchema(schema));
const ENGINES: Engine[] = [
  { name: "the embedded store", available: true, env: async () => ({}) },
  { name: "PostgreSQL", available: PG_AVAILABLE, env: async () => ({ CRYPTO_METRICS_STORE: storeUrl(schema) }) },
];

describe.each(ENGINES)("processes sharing $name", (engine) => {
  it.skipIf(!engine.available)(
    "2 api + 1 http + call in a loop let exactly C of N concurrent 1-credit calls through",
    async () => {
      const C = 45;
      const { dir, keysFile } = writeKeys({ keys: [{ key: "shared", credits: C, rateLimit: BIG_RATE }] }, tempDir("cm-proc-"));
      const env = {
        CRYPTO_METRICS_KEYS_FILE: keysFile,
        CRYPTO_METRICS_STATE_DIR: join(dir, "state"),
        CRYPTO_METRICS_API_KEY: "shared",
        ...(await engine.env()),
      };
      const [a, b, h] = await Promise.all([server("api", env), server("api", env), server("http", env)]);
      const rest = (base: string, n: number) =>
        Promise.all(Array.from({ length: n }, () => get(base, SERIES, "shared"))).then((rs) => {
          for (const r of rs) expect([200, 402]).toContain(r.status);
          return rs.filter((r) => r.status === 200).length;
        });
      // N = 30 + 30 + 20 + 3 = 83 calls for 45 credits.
      const counts = await Promise.all([rest(a.base, 30), rest(b.base, 30), mcpCalls(h.base, 20), callLoop(env, 3)]);
      expect(counts.reduce((x, y) => x + y, 0)).toBe(C);
      const after = await get(a.base, "/btc/lifespan/Lth_mvrv?bogus=1", "shared");
      expect(after.headers["x-credits-remaining"]).toBe("0");
      for (const s of [a, b, h]) s.proc.child.kill("SIGTERM");
      await Promise.all([a, b, h].map((s) => s.proc.exited));
    },
    90_000,
  );

  it.skipIf(!engine.available)(
    "a rate window of R per W holds across processes and across a restart",
    async () => {
      const { dir, keysFile } = writeKeys(
        { keys: [{ key: `rated-${engine.name.length}`, credits: 1_000, rateLimit: { requests: 6, windowSeconds: 120 } }] },
        tempDir("cm-proc-"),
      );
      const key = `rated-${engine.name.length}`;
      const env = { CRYPTO_METRICS_KEYS_FILE: keysFile, CRYPTO_METRICS_STATE_DIR: join(dir, "state"), ...(await engine.env()) };
      const [a, b] = await Promise.all([server("api", env), server("api", env)]);
      const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => get(i % 2 ? a.base : b.base, SERIES, key)));
      expect(rs.filter((r) => r.status === 200)).toHaveLength(6);
      expect(rs.filter((r) => r.status === 429)).toHaveLength(14);
      a.proc.child.kill("SIGTERM");
      b.proc.child.kill("SIGKILL");
      await Promise.all([a.proc.exited, b.proc.exited]);
      const c = await server("api", env);
      const again = await get(c.base, SERIES, key);
      expect(again.status).toBe(429);
      expect(Number(again.headers["retry-after"])).toBeGreaterThan(100);
      c.proc.child.kill("SIGTERM");
      await c.proc.exited;
    },
    60_000,
  );
});

describe("an api process on PostgreSQL killed with SIGKILL under load", () => {
  // The embedded store's kill cycles are test/reliability/crash.test.ts.
  it.skipIf(!PG_AVAILABLE)(
    "refunds nothing it delivered, and a new process carries on",
    async () => {
      const { dir, keysFile } = writeKeys({ keys: [{ key: "killed", credits: 1_000_000, rateLimit: BIG_RATE }] }, tempDir("cm-proc-kill-"));
      const env = {
        CRYPTO_METRICS_KEYS_FILE: keysFile,
        CRYPTO_METRICS_STATE_DIR: join(dir, "state"),
        CRYPTO_METRICS_STORE: storeUrl(schema),
      };
      const s = await server("api", env);
      let delivered = 0;
      let sent = 0;
      let dead = false;
      const loop = async () => {
        while (!dead) {
          sent++;
          try {
            if ((await get(s.base, SERIES, "killed")).status === 200) delivered++;
          } catch {
            return; // died under this request: never answered
          }
        }
      };
      const loops = Array.from({ length: 8 }, loop);
      for (let waited = 0; delivered < 60 && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      s.proc.child.kill("SIGKILL");
      dead = true;
      await s.proc.exited;
      await Promise.all(loops);
      const next = await server("api", env);
      const probe = await get(next.base, "/btc/lifespan/Lth_mvrv?bogus=1", "killed");
      const spent = 1_000_000 - Number(probe.headers["x-credits-remaining"]);
      expect(delivered).toBeGreaterThanOrEqual(60);
      expect(spent).toBeGreaterThanOrEqual(delivered);
      expect(spent).toBeLessThanOrEqual(sent);
      expect((await get(next.base, SERIES, "killed")).status).toBe(200);
      next.proc.child.kill("SIGTERM");
      await next.proc.exited;
    },
    40_000,
  );
});

describe("the embedded store on a full disk", () => {
  it("fails requests as store_unavailable once the file cannot grow, serving nothing uncharged; the next start works", async () => {
    const { dir, keysFile } = writeKeys({ keys: [{ key: "disk", credits: 100_000, rateLimit: BIG_RATE }] }, tempDir("cm-proc-full-"));
    const stateDir = join(dir, "state");
    const env = { CRYPTO_METRICS_KEYS_FILE: keysFile, CRYPTO_METRICS_STATE_DIR: stateDir };
    // Files of at most 160 KiB: the WAL fills after a few dozen charges (Node ignores SIGXFSZ, so writes fail with EFBIG).
    const s = await server("api", env, "ulimit -f 160");
    let served = 0;
    let refused: { status: number; body: string } | undefined;
    for (let i = 0; i < 2_000 && !refused; i++) {
      const r = await get(s.base, SERIES, "disk");
      if (r.status === 200) served++;
      else refused = r;
    }
    expect(refused?.status).toBe(503);
    const error = JSON.parse(refused!.body).error;
    expect(error.code).toBe("store_unavailable");
    expect(error.message).toMatch(
      /cannot record charges right now\. Nothing was served or charged; retry shortly\. Reference [0-9a-f]{8} in the server log/,
    );
    expect(s.proc.stderrText()).toMatch(
      /metering store unavailable ref=[0-9a-f]{8} .*cannot record the charge: .*Nothing was served or charged/,
    );
    expect((await get(s.base, SERIES, "disk")).status).toBe(503);
    s.proc.child.kill("SIGTERM");
    await s.proc.exited;
    // A start without the limit recovers the store by itself; every delivered response is charged, nothing else.
    const store = SqliteStore.open(join(stateDir, "metering.sqlite"));
    expect(await store.spent(sha256("disk").toString("hex"))).toBe(served);
    await store.close();
    const next = await server("api", env);
    expect((await get(next.base, SERIES, "disk")).status).toBe(200);
    next.proc.child.kill("SIGTERM");
    await next.proc.exited;
  }, 60_000);
});
