// Streamable HTTP under hostile or careless clients: beyond loopback only with --require-key or an
// explicit --allow-anonymous; requests in progress capped (a flood of slow bodies is answered 503,
// not held); a body that does not arrive in time is 408; `Connection: close` is honoured.
import { createServer, request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { BIG_RATE, serviceRig } from "../../harness/service.js";
import { ConfigError, loadConfig } from "../../src/config.js";
import { type RunningHttpServer, startHttpServer } from "../../src/transports/http.js";
import { MAX_PENDING_REQUESTS, readBody } from "../../src/transports/http-gate.js";

const HOME = { HOME: "/home/tester" };
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "gate", version: "1" } },
});
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("http beyond loopback", () => {
  it("refuses to listen without --require-key or --allow-anonymous, saying both", () => {
    for (const host of ["0.0.0.0", "192.168.1.10", "::", "[::]", "example.org"]) {
      expect(() => loadConfig(HOME, ["http", "--host", host]), host).toThrow(ConfigError);
      expect(() => loadConfig(HOME, ["http", "--host", host]), host).toThrow(
        /listens beyond loopback, where any caller without a key would be served with this server's own key; add --require-key .*, or --allow-anonymous to accept that/,
      );
      expect(loadConfig(HOME, ["http", "--host", host, "--require-key"]).requireKey).toBe(true);
      expect(loadConfig(HOME, ["http", "--host", host, "--allow-anonymous"]).requireKey).toBe(false);
    }
    for (const host of ["127.0.0.1", "localhost", "::1", "127.0.0.2"]) expect(loadConfig(HOME, ["http", "--host", host]).host).toBeTruthy();
    expect(() => loadConfig(HOME, ["api", "--allow-anonymous"])).toThrow("--allow-anonymous applies to the http command, not api");
    expect(() => loadConfig(HOME, ["http", "--require-key", "--allow-anonymous"])).toThrow("contradict");
  });
});

describe("requests in progress", () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    const rig = serviceRig({ keys: [{ key: "gate-key", credits: 1_000_000, rateLimit: BIG_RATE }] });
    server = await startHttpServer({ backend: rig.backend, host: "127.0.0.1", port: 0, requireKey: false, apiKey: "gate-key" });
  });
  afterAll(() => server.close());

  const post = (headers: Record<string, string>, body: string) =>
    new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest(
        new URL("/mcp", server.url),
        { method: "POST", headers: { ...MCP_HEADERS, ...headers }, agent: false },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  it("answers 503 (Retry-After, Connection: close) past the cap of slow bodies, and serves again once they go", async () => {
    const port = Number(new URL(server.url).port);
    const slow: Socket[] = [];
    for (let i = 0; i < MAX_PENDING_REQUESTS; i++) {
      const s = connect(port, "127.0.0.1");
      s.on("error", () => undefined);
      s.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{"a":`,
      );
      slow.push(s);
    }
    // Every slow request has reached the server (each holds a place) before the next one is sent.
    let over = await post({}, INIT);
    for (let i = 0; over.status !== 503 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 50));
      over = await post({}, INIT);
    }
    expect(over.status).toBe(503);
    expect(over.headers["retry-after"]).toBe("1");
    expect(over.headers["connection"]).toBe("close");
    for (const s of slow) s.destroy();
    let after = await post({}, INIT);
    for (let i = 0; after.status !== 200 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await post({}, INIT);
    }
    expect(after.status).toBe(200);
  }, 30_000);

  it("closes the connection when the client asks, on an MCP reply and an error alike", async () => {
    const ok = await post({ connection: "close" }, INIT);
    expect(ok.status).toBe(200);
    expect(ok.headers["connection"]).toBe("close");
    const kept = await post({ connection: "keep-alive" }, INIT);
    expect(kept.headers["connection"]).toBe("keep-alive");
    const bad = await post({ connection: "close" }, "{not json");
    expect(bad.status).toBe(400);
    expect(bad.headers["connection"]).toBe("close");
  });
});

describe("a body that does not arrive", () => {
  it("is answered 408 once its time is up, and a body over the cap 413 as it streams", async () => {
    const results: unknown[] = [];
    const srv = createServer((req, res) => {
      void readBody(req, 1_000, 300).then((b) => {
        results.push(b);
        res.end();
      });
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
    const port = (srv.address() as { port: number }).port;
    const s = connect(port, "127.0.0.1");
    s.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{"a":`);
    const big = connect(port, "127.0.0.1");
    big.write(`POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n7d0\r\n${"x".repeat(2000)}\r\n`);
    for (let i = 0; results.length < 2 && i < 100; i++) await new Promise((r) => setTimeout(r, 20));
    s.destroy();
    big.destroy();
    srv.close();
    expect(results).toContainEqual({
      ok: false,
      status: 408,
      code: -32000,
      message: "Request timeout: the body did not arrive within 0.3 s",
    });
    expect(results).toContainEqual({ ok: false, status: 413, code: -32000, message: "Payload too large: the body cap is 1000 bytes" });
  });
});
