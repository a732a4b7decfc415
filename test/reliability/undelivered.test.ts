// A response whose client left before its body was written is not charged: the charge is taken back
// whole; a response delivered whole stays charged. Clients abort uncached one-minute series (3-9
// credits each, tens of ms to build) 3 ms after sending, while they are still being built, against
// a spawned `api` (REST) and a spawned `http` (MCP); the store holds exactly the credits of the
// responses the clients received in full. Then, in process and without racing: an MCP answer held
// after its charge until the server has seen its client leave, or until the client has left and
// before the server could poll (its write would succeed into the closed connection), also from an
// I/O callback (where one setImmediate would not reach the next poll), and a charge made only after
// the client left, in both eras.
import { type ClientRequest, request } from "node:http";
import { type AddressInfo, connect, createServer as createNetServer } from "node:net";
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { BIG_RATE, type ServiceRig, serviceRig, tempDir, writeKeys } from "../../harness/service.js";
import { spawnCli, type Spawned } from "../../harness/spawn.js";
import { sha256 } from "../../src/backend/inprocess/keys.js";
import { openSqlite } from "../../src/backend/inprocess/metering/sqlite-driver.js";
import type { Backend, BackendContext, BackendRequest } from "../../src/backend/types.js";
import { type RunningHttpServer, startHttpServer } from "../../src/transports/http.js";

const running: Spawned[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.child.kill("SIGKILL");
});

async function start(command: "api" | "http", key: string): Promise<{ url: string; spent(): number }> {
  const { dir, keysFile } = writeKeys({ keys: [{ key, credits: 1_000_000, rateLimit: BIG_RATE }] }, tempDir("cm-rel-gone-"));
  const stateDir = join(dir, "state");
  const proc = spawnCli([command, "--port", "0", "--keys-file", keysFile, "--state-dir", stateDir], {
    CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
  });
  running.push(proc);
  const url = `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/))[1]}`;
  const spent = () => {
    const db = openSqlite(join(stateDir, "metering.sqlite"), { busyTimeoutMs: 5_000, readOnly: true });
    try {
      return db.prepare<{ spent: number }>("SELECT spent FROM meter WHERE key_id = ?").get(sha256(key).toString("hex"))?.spent ?? 0;
    } finally {
      db.close();
    }
  };
  return { url, spent };
}

/** True when the response arrived whole; false once the client gave up after `abortAfterMs`. */
function send(
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string },
  abortAfterMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { method: init.method ?? "GET", agent: false, headers: init.headers }, (res) => {
      res.resume();
      res.on("end", () => {
        clearTimeout(timer);
        resolve(res.statusCode === 200);
      });
      res.on("error", () => resolve(false));
      res.on("aborted", () => resolve(false));
    });
    req.on("error", () => resolve(false));
    const timer = setTimeout(() => req.destroy(), abortAfterMs);
    req.end(init.body);
  });
}

// 1 credit + 1 per 10,000 records: a 1m range of d whole days (both bounds inclusive) has 1,440·(d + 1) records.
const creditsOf = (days: number) => 1 + Math.floor((1440 * (days + 1)) / 10_000);
const range = (i: number) => {
  const start = `2025-0${1 + (i % 9)}-1${i % 10}`;
  return { start, end: new Date(Date.parse(start) + 20 * 86_400_000).toISOString().slice(0, 10) };
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The store's figure once the server has finished with the abandoned requests (unchanged for 2 s). */
async function settled(spent: () => number): Promise<number> {
  let last = spent();
  for (let i = 0; i < 40; i++) {
    await pause(400);
    const now = spent();
    if (now === last && i >= 4) return now;
    last = now;
  }
  return last;
}

describe("an undelivered response", () => {
  it("REST: refunded whole; the store holds the credits of fully received responses only", async () => {
    const api = await start("api", "gone");
    const get = (start: string, end: string, ms: number) =>
      send(
        `${api.url}/btc/derivatives/Volume_usd?timeframe=1m&startDate=${start}&endDate=${end}`,
        { headers: { "x-api-key": "gone" } },
        ms,
      );
    let delivered = 0;
    for (let i = 0; i < 20; i++) {
      const { start, end } = range(i);
      if (await get(start, end, 3)) delivered += creditsOf(20);
    }
    expect(delivered).toBeLessThan(5 * creditsOf(20));
    expect(await get("2024-03-01", "2024-03-21", 30_000)).toBe(true);
    expect(await settled(api.spent)).toBe(delivered + creditsOf(20));
  }, 60_000);

  it("MCP over HTTP: every call whose client left before its answer is refunded; a call answered in full stays charged", async () => {
    const http = await start("http", "mcp-gone");
    const call = (id: number, start: string, end: string, ms: number) =>
      send(
        `${http.url}/mcp`,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer mcp-gone" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id,
            method: "tools/call",
            params: {
              name: "get_ohlcv",
              arguments: { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", startDate: start, endDate: end },
            },
          }),
        },
        ms,
      );
    // 60 days of minutes (86,400 points, 9 credits): long enough to build that the client is gone before it is built.
    const days = 60;
    let delivered = 0;
    for (let i = 0; i < 12; i++) {
      const start = `2024-0${1 + (i % 9)}-1${i % 10}`;
      const end = new Date(Date.parse(start) + days * 86_400_000).toISOString().slice(0, 10);
      if (await call(i + 1, start, end, 3)) delivered += creditsOf(days);
    }
    expect(delivered).toBeLessThan(4 * creditsOf(days));
    expect(await call(100, "2025-03-01", "2025-03-21", 30_000)).toBe(true);
    // Exactly the calls answered in full, the last one (4 credits) among them.
    expect(await settled(http.spent)).toBe(delivered + creditsOf(20));
  }, 60_000);
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Holds each answer after its charge: `charged` resolves then, and the answer goes on once
 * `release` is called, or once the server has seen its client leave (the call's signal aborted).
 */
function holdingBackend(inner: Backend, until: "released" | "client-gone") {
  const gate = { charged: deferred(), released: deferred() };
  const backend: Backend = {
    kind: inner.kind,
    origin: inner.origin,
    close: () => inner.close(),
    async fetch(req: BackendRequest, context?: BackendContext) {
      const result = await inner.fetch(req, context);
      gate.charged.resolve();
      if (until === "released") await gate.released.promise;
      else if (!context?.signal?.aborted) await new Promise((resolve) => context?.signal?.addEventListener("abort", resolve));
      return result;
    },
  };
  return { backend, charged: gate.charged.promise, release: () => gate.released.resolve() };
}

const ERAS = [
  {
    era: "2025-11-25",
    headers: { "mcp-protocol-version": "2025-11-25" },
    meta: {},
  },
  {
    era: "2026-07-28",
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "get_series", "mcp-param-asset": "btc" },
    meta: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
  },
] as const;

describe.each(ERAS)("an MCP-over-HTTP answer held after its charge ($era)", ({ headers, meta }) => {
  const KEY = "held-key";
  let rig: ServiceRig;
  beforeAll(() => {
    rig = serviceRig({ keys: [{ key: KEY, credits: 1_000, rateLimit: BIG_RATE }] });
  });
  afterAll(() => rig.close());
  const servers: RunningHttpServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });
  const spent = () => rig.store.spent(sha256(KEY).toString("hex"));

  async function serve(backend: Backend): Promise<string> {
    const server = await startHttpServer({ backend, host: "127.0.0.1", port: 0, requireKey: false });
    servers.push(server);
    return server.url;
  }
  /** A lth_mvrv call (1 credit); `done` is true when its answer arrived whole with a result. */
  function call(url: string): { req: ClientRequest; done: Promise<boolean> } {
    let req!: ClientRequest;
    const done = new Promise<boolean>((resolve) => {
      req = request(
        new URL("/mcp", url),
        {
          method: "POST",
          agent: false,
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: `Bearer ${KEY}`,
            ...headers,
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
          res.on("end", () => resolve(res.statusCode === 200 && text.includes('"result"') && !text.includes('"isError":true')));
          res.on("error", () => resolve(false));
        },
      );
      req.on("error", () => resolve(false));
      req.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "get_series", arguments: { metric: "lifespan/Lth_mvrv", asset: "btc" }, ...meta },
        }),
      );
    });
    return { req, done };
  }
  /** The store's figure once refunds in flight have landed (unchanged for 200 ms). */
  async function settledSpent(): Promise<number> {
    let last = await spent();
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const now = await spent();
      if (now === last) return now;
      last = now;
    }
  }

  it("is refunded whole when the server has seen its client leave before the answer", async () => {
    const before = await spent();
    const held = holdingBackend(rig.backend, "client-gone");
    const { req, done } = call(await serve(held.backend));
    await held.charged;
    expect(await spent()).toBe(before + 1);
    req.destroy();
    expect(await done).toBe(false);
    expect(await settledSpent()).toBe(before);
  });

  it("is refunded whole when its client left just before the answer was written (the close not yet seen)", async () => {
    const before = await spent();
    const held = holdingBackend(rig.backend, "released");
    const { req, done } = call(await serve(held.backend));
    await held.charged;
    expect(await spent()).toBe(before + 1);
    // In one turn: the connection is closed and the answer goes on at once, before the server polls again.
    req.destroy();
    held.release();
    expect(await done).toBe(false);
    expect(await settledSpent()).toBe(before);
  });

  // The same from an I/O callback, where the server goes on without passing the event loop's poll
  // phase again unless it waits for one (from the poll phase, a setImmediate alone runs before it).
  it("is refunded whole when its client left during an I/O callback that let the answer go on", async () => {
    const before = await spent();
    const held = holdingBackend(rig.backend, "released");
    const { req, done } = call(await serve(held.backend));
    await held.charged;
    const relay = createNetServer((socket) =>
      socket.once("data", () => {
        req.destroy();
        held.release();
        socket.destroy();
      }),
    );
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const poke = connect((relay.address() as AddressInfo).port, "127.0.0.1", () => poke.end("x"));
    poke.on("error", () => undefined);
    expect(await done).toBe(false);
    expect(await settledSpent()).toBe(before);
    relay.close();
  });

  it("is refunded whole when the charge is recorded only after its client left", async () => {
    const before = await spent();
    const asked = deferred();
    const gone = deferred();
    // Charges once the server has seen the client leave, without the call's signal, so the service cannot tell.
    const late: Backend = {
      kind: rig.backend.kind,
      origin: rig.backend.origin,
      close: () => rig.backend.close(),
      async fetch(req: BackendRequest, context?: BackendContext) {
        asked.resolve();
        if (!context?.signal?.aborted) await new Promise((resolve) => context?.signal?.addEventListener("abort", resolve));
        const { signal: _signal, ...rest } = context ?? {};
        const result = await rig.backend.fetch(req, rest);
        gone.resolve();
        return result;
      },
    };
    const { req, done } = call(await serve(late));
    await asked.promise;
    req.destroy();
    expect(await done).toBe(false);
    await gone.promise;
    expect(await settledSpent()).toBe(before);
  });

  it("stays charged once delivered, the client closing afterwards", async () => {
    const before = await spent();
    const held = holdingBackend(rig.backend, "released");
    const { req, done } = call(await serve(held.backend));
    await held.charged;
    held.release();
    expect(await done).toBe(true);
    req.destroy();
    expect(await settledSpent()).toBe(before + 1);
  });
});
