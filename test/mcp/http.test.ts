// Streamable HTTP on a loopback port: per-key metering through Authorization: Bearer, DNS-rebinding
// checks, --require-key, body and batch caps; and progress notifications from a paged HTTP backend.
import { request } from "node:http";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NOW, tempDir, writeKeys } from "../../harness/mcp.js";
import { HttpBackend } from "../../src/backend/http/index.js";
import { createInProcessService, InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { startRestServer } from "../../src/backend/rest.js";
import { createServer } from "../../src/server.js";
import { type RunningHttpServer, startHttpServer } from "../../src/transports/http.js";

let backend: InProcessBackend;
let open: RunningHttpServer;
let strict: RunningHttpServer;

beforeAll(async () => {
  const dir = tempDir("cm-http-");
  backend = await InProcessBackend.create({ apiKey: "demo-key", keysFile: writeKeys(dir), stateDir: join(dir, "state"), now: () => NOW });
  open = await startHttpServer({ backend, host: "127.0.0.1", port: 0, requireKey: false, apiKey: "demo-key" });
  strict = await startHttpServer({ backend, host: "127.0.0.1", port: 0, requireKey: true });
});
afterAll(async () => {
  await open.close();
  await strict.close();
  await backend.close();
});

async function session(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: "http-test", version: "1" });
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

async function remaining(client: Client): Promise<number> {
  const r = (await client.callTool({
    name: "get_series",
    arguments: { metric: "mining/DiffLast", asset: "btc", startDate: "2025-12-01" },
  })) as CallToolResult;
  expect(r.isError).toBeFalsy();
  return (r.structuredContent as { credits: { remaining: number } }).credits.remaining;
}

/** A raw request, so that Host can be set to anything. */
function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: init.method ?? "POST", headers: init.headers },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

describe("Streamable HTTP transport", () => {
  it("meters each bearer key on its own balance, and uses the server's key without one", async () => {
    const a = await session(open.url, "second-key");
    const b = await session(open.url, "tiny");
    const anonymous = await session(open.url);
    const a1 = await remaining(a);
    const a2 = await remaining(a);
    const b1 = await remaining(b);
    const d1 = await remaining(anonymous);
    expect(a2).toBe(a1 - 1);
    expect(b1).toBe(2);
    expect(a1).toBe(999);
    expect(d1).toBeGreaterThan(b1);
    await Promise.all([a.close(), b.close(), anonymous.close()]);
  });

  it("answers a tool error for a key the service rejects, without echoing it", async () => {
    const c = await session(open.url, "no-such-key-123");
    const r = (await c.callTool({ name: "get_metrics_variation", arguments: { asset: "btc" } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r)).toContain("unauthorized");
    expect(JSON.stringify(r)).not.toContain("no-such-key-123");
    await c.close();
  });

  it("refuses a foreign Host and a foreign Origin with 403, and sends no CORS headers", async () => {
    const url = `${open.url}/mcp`;
    expect((await raw(url, { headers: { ...JSON_HEADERS, Host: "evil.example" }, body: INIT })).status).toBe(403);
    expect((await raw(url, { headers: { ...JSON_HEADERS, Host: `evil.example:${new URL(open.url).port}` }, body: INIT })).status).toBe(403);
    expect((await raw(url, { headers: { ...JSON_HEADERS, Origin: "https://evil.example" }, body: INIT })).status).toBe(403);
    const ok = await raw(url, { headers: { ...JSON_HEADERS, Origin: `http://localhost:${new URL(open.url).port}` }, body: INIT });
    expect(ok.status).toBe(200);
    expect(ok.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("answers 401 without a bearer key under --require-key", async () => {
    const res = await raw(`${strict.url}/mcp`, {
      headers: JSON_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toBe("Bearer");
    const client = await session(strict.url, "second-key");
    expect((await client.listTools()).tools).toHaveLength(7);
    await client.close();
  });

  it("caps bodies at 4 MiB (413) and batches at 100 messages (400), and serves only /mcp", async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 10, 0x20);
    expect((await raw(`${open.url}/mcp`, { headers: JSON_HEADERS, body: big })).status).toBe(413);
    const batch = JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" })));
    expect((await raw(`${open.url}/mcp`, { headers: JSON_HEADERS, body: batch })).status).toBe(400);
    expect((await raw(`${open.url}/other`, { headers: JSON_HEADERS, body: INIT })).status).toBe(404);
  });
});

describe("progress", () => {
  it("forwards a paged backend's progress as notifications/progress", async () => {
    const dir = tempDir("cm-progress-");
    const service = await createInProcessService({
      apiKey: "demo-key",
      keysFile: writeKeys(dir),
      stateDir: join(dir, "state"),
      now: () => NOW,
    });
    const rest = await startRestServer(service, { host: "127.0.0.1", port: 0 });
    const upstream = new HttpBackend({ baseUrl: rest.url, apiKey: "demo-key", paging: { perWindow: 500 }, now: () => NOW });
    const server = createServer({ backend: upstream });
    const client = new Client({ name: "t", version: "1" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([client.connect(a), server.connect(b)]);
    const updates: Progress[] = [];
    const r = (await client.callTool(
      {
        name: "get_ohlcv",
        arguments: {
          metric: "derivatives/Volume_usd",
          asset: "btc",
          timeframe: "1h",
          startDate: "2025-11-01T00:00:00Z",
          endDate: "2025-12-01T00:00:00Z",
        },
      },
      undefined,
      { onprogress: (p) => updates.push(p) },
    )) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { digest: { count: number } }).digest.count).toBe(30 * 24 + 1);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.at(-1)).toMatchObject({ progress: updates.length, total: updates.length });
    await client.close();
    await upstream.close();
    await rest.close();
    await service.close();
  });
});
