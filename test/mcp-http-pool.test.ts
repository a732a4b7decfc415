// Servers reused across stateless HTTP requests: what one caller leaves on a server (its client info
// and capabilities, its log level) is gone before the next caller gets it, and concurrent callers
// with overlapping JSON-RPC ids each get their own answers, metered on their own keys.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InProcessBackend } from "../src/backend/inprocess/backend.js";
import { createServer, loggingOf } from "../src/server.js";
import { ServerPool, startHttpServer, type RunningHttpServer } from "../src/transports/http.js";
import { NOW, tempDir, writeKeys } from "./mcp-fixture.js";
import { SIMULATED_ORIGIN } from "../src/backend/inprocess/origin.js";

describe("the server pool", () => {
  it("hands a released server to the next caller with nothing of the previous one", async () => {
    const backend = { kind: "inprocess" as const, origin: SIMULATED_ORIGIN, fetch: () => Promise.reject(new Error("unused")), close: () => Promise.resolve() };
    const pool = new ServerPool(() => createServer({ backend }));
    const first = pool.acquire();
    const client = new Client({ name: "caller-a", version: "7" }, { capabilities: { roots: { listChanged: true } } });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([client.connect(a), first.connect(b)]);
    await client.setLoggingLevel("debug");
    expect(first.server.getClientVersion()).toEqual({ name: "caller-a", version: "7" });
    expect(first.server.getClientCapabilities()).toMatchObject({ roots: { listChanged: true } });
    expect(loggingOf(first).level()).toBe("debug");

    await b.close(); // the request's transport closes, as at the end of an HTTP response
    pool.release(first);
    const second = pool.acquire();
    expect(second).toBe(first);
    expect(second.isConnected()).toBe(false);
    expect(second.server.getClientVersion()).toBeUndefined();
    expect(second.server.getClientCapabilities()).toBeUndefined();
    expect(loggingOf(second).level()).toBeUndefined();
    expect((second.server as unknown as { _loggingLevels: Map<unknown, unknown> })._loggingLevels.size).toBe(0);
    await client.close();
  });

  it("does not keep a server that is still connected", async () => {
    const backend = { kind: "inprocess" as const, origin: SIMULATED_ORIGIN, fetch: () => Promise.reject(new Error("unused")), close: () => Promise.resolve() };
    const pool = new ServerPool(() => createServer({ backend }));
    const server = pool.acquire();
    const [, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    pool.release(server);
    expect(pool.idleCount).toBe(0);
    expect(pool.acquire()).not.toBe(server);
  });
});

describe("concurrent callers over HTTP", () => {
  let backend: InProcessBackend;
  let http: RunningHttpServer;
  beforeAll(async () => {
    const dir = tempDir("cm-http-pool-");
    backend = await InProcessBackend.create({ apiKey: "demo-key", keysFile: writeKeys(dir), stateDir: join(dir, "state"), now: () => NOW });
    http = await startHttpServer({ backend, host: "127.0.0.1", port: 0, requireKey: true });
  });
  afterAll(async () => {
    await http.close();
    await backend.close();
  });

  async function call(key: string, id: number, asset: string): Promise<{ id: number; text: string; remaining: number }> {
    const res = await fetch(`${http.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}` },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_series", arguments: { metric: "mining/DiffLast", asset, startDate: "2025-12-01" } } }),
    });
    const body = await res.text();
    const line = body.split("\n").find((l) => l.startsWith("data: "));
    const msg = JSON.parse(line ? line.slice(6) : body) as { id: number; result: { isError?: boolean; content: { text: string }[]; structuredContent: { credits: { remaining: number } } } };
    expect(msg.result.isError, body).toBeFalsy();
    return { id: msg.id, text: msg.result.content[0]!.text, remaining: msg.result.structuredContent.credits.remaining };
  }

  it("answers each caller with its own result and meters each key on its own", async () => {
    const before = { a: (await backend.service.creditsRemaining("demo-key"))!, b: (await backend.service.creditsRemaining("second-key"))! };
    const rounds = 12;
    // Both keys at once, reusing the same JSON-RPC ids, over the same pool of servers.
    const results = await Promise.all(
      Array.from({ length: rounds }, (_, i) => [call("demo-key", i % 3, "btc"), call("second-key", i % 3, "zec")]).flat(),
    );
    for (const [i, r] of results.entries()) {
      expect(r.id).toBe(Math.floor(i / 2) % 3);
      // Even entries are the first key's btc calls, odd ones the second key's zec calls.
      expect(r.text).toMatch(i % 2 === 0 ? /^btc / : /^zec /);
    }
    // One credit per call (a month of a daily series), each key charged for its own calls only.
    expect(before.a - (await backend.service.creditsRemaining("demo-key"))!).toBe(rounds);
    expect(before.b - (await backend.service.creditsRemaining("second-key"))!).toBe(rounds);
  });
});
