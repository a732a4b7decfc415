// Both HTTP faces are closed by default: loopback bind, Host/Origin checks (403) on `http`, no CORS
// header ever, 413 past the body caps, 400 past 100 batched messages, 401 without a key, and
// slow-header or slow-body clients cut off by the server's timeouts.
import { type IncomingHttpHeaders, request as httpRequest } from "node:http";
import { connect } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { BIG_RATE, type ServiceRig, serviceRig } from "../../harness/service.js";
import { spawnCli } from "../../harness/spawn.js";
import { sha256 } from "../../src/backend/inprocess/keys.js";
import { type RestServer, startRestServer } from "../../src/backend/rest.js";
import { loadConfig } from "../../src/config.js";
import { type RunningHttpServer, startHttpServer } from "../../src/transports/http.js";

interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const everyReply: RawReply[] = [];

function raw(
  base: string,
  init: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawReply> {
  const url = new URL(init.path ?? "/", base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? "GET", headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const reply = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") };
        everyReply.push(reply);
        resolve(reply);
      });
      res.on("error", reject);
    });
    // The server may answer (413) and close before the whole body is written.
    req.on("error", (err: NodeJS.ErrnoException) => (err.code === "EPIPE" || err.code === "ECONNRESET" ? undefined : reject(err)));
    if (init.body !== undefined) req.end(init.body);
    else req.end();
  });
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "faces", version: "1" } },
});
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let rig: ServiceRig;
let http: RunningHttpServer;
let httpKeyed: RunningHttpServer;
let rest: RestServer;
let port = 0;

beforeAll(async () => {
  rig = serviceRig({ keys: [{ key: "face-key", credits: 1_000_000, rateLimit: BIG_RATE }] });
  http = await startHttpServer({ backend: rig.backend, host: "127.0.0.1", port: 0, requireKey: false });
  httpKeyed = await startHttpServer({ backend: rig.backend, host: "127.0.0.1", port: 0, requireKey: true });
  rest = await startRestServer(rig.service, { host: "127.0.0.1", port: 0 });
  port = Number(new URL(http.url).port);
});

afterAll(async () => {
  await http.close();
  await httpKeyed.close();
  await rest.close();
  rig.close();
});

describe("bind address", () => {
  it("defaults to 127.0.0.1 for both http and api", () => {
    expect(loadConfig({}, ["http"]).host).toBe("127.0.0.1");
    expect(loadConfig({}, ["api"]).host).toBe("127.0.0.1");
    expect((http.server.address() as { address: string }).address).toBe("127.0.0.1");
    expect((rest.server.address() as { address: string }).address).toBe("127.0.0.1");
  });

  it("is what the spawned commands listen on when no --host is given", async () => {
    for (const command of ["http", "api"]) {
      const proc = spawnCli([command, "--port", "0"], { CRYPTO_METRICS_STATE_DIR: rig.stateDir + `-${command}` });
      try {
        const m = await proc.waitForStderr(/listening on http:\/\/([^:]+):(\d+)/);
        expect(m[1], command).toBe("127.0.0.1");
      } finally {
        proc.child.kill("SIGTERM");
        await proc.exited;
      }
    }
  });

  it("a port in use stops either command with exit 1 and the reason, even under --log-level silent", async () => {
    for (const command of ["http", "api"]) {
      const proc = spawnCli([command, "--port", String(port), "--log-level", "silent"], {
        CRYPTO_METRICS_STATE_DIR: rig.stateDir + `-busy-${command}`,
      });
      const { code } = await proc.exited;
      expect(code, command).toBe(1);
      expect(proc.stderrText(), command).toContain(`port ${port} on 127.0.0.1 is in use; choose another with --port`);
      expect(proc.stdoutText(), command).toBe("");
    }
  });
});

describe("http: Host and Origin (DNS rebinding)", () => {
  it("403 for a foreign Host, with or without a port, before reading the body", async () => {
    for (const host of ["attacker.example", `attacker.example:${port}`, "127.0.0.1.nip.io", `localhost.attacker.example:${port}`]) {
      const res = await raw(http.url, { method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, host }, body: INIT });
      expect(res.status, host).toBe(403);
    }
  });

  it("403 for a foreign or opaque Origin; loopback origins and no Origin pass", async () => {
    for (const origin of ["https://evil.example", "null", `http://attacker.example:${port}`, "file://", "chrome-extension://abc"]) {
      const res = await raw(http.url, { method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, origin }, body: INIT });
      expect(res.status, origin).toBe(403);
    }
    const passing: Record<string, string>[] = [{ origin: `http://localhost:${port}` }, { origin: `http://127.0.0.1:${port}` }, {}];
    for (const headers of passing) {
      const res = await raw(http.url, { method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, ...headers }, body: INIT });
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });
});

describe("api: Host and Origin", () => {
  it("403 forbidden in the service's error body for a foreign Host or Origin, before the key is looked at; nothing charged", async () => {
    const path = "/btc/lifespan/Lth_mvrv?startDate=2025-01-01&endDate=2025-01-02";
    const spent = await rig.store.spent(sha256("face-key").toString("hex"));
    for (const headers of [{ host: "attacker.example" }, { origin: "https://evil.example" }] as Record<string, string>[]) {
      const res = await raw(rest.url, { path, headers: { "x-api-key": "face-key", ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      const { error } = JSON.parse(res.body) as { error: Record<string, unknown> };
      expect(error).toMatchObject({ status: 403, code: "forbidden" });
      expect(error["message"]).toMatch(
        Object.keys(headers)[0] === "host" ? /^The Host header .* \(127\.0\.0\.1\)\.$/ : /^The Origin header/,
      );
    }
    expect(await rig.store.spent(sha256("face-key").toString("hex"))).toBe(spent);
    expect((await raw(rest.url, { path, headers: { "x-api-key": "face-key" } })).status).toBe(200);
  });
});

describe("keys", () => {
  it("api answers 401 with WWW-Authenticate without a key, whatever the path", async () => {
    for (const path of ["/btc/lifespan/Lth_mvrv", "/liquidation_levels/heatmap?asset=btc", "/btc/derivatives/metrics-variation"]) {
      const res = await raw(rest.url, { path });
      expect(res.status, path).toBe(401);
      expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
    }
  });

  it("http with --require-key answers 401 without a known bearer key, except to a directory probe's handshake", async () => {
    const LIST = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const READ = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "crypto-metrics://catalog" } });
    const none = await raw(httpKeyed.url, { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: LIST });
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    for (const body of [LIST, READ, JSON.stringify([JSON.parse(INIT), JSON.parse(LIST)])]) {
      const unknown = await raw(httpKeyed.url, {
        method: "POST",
        path: "/mcp",
        headers: { ...MCP_HEADERS, authorization: "Bearer not-a-known-key" },
        body,
      });
      expect(unknown.status, body).toBe(401);
      expect(unknown.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
      expect(unknown.body).not.toContain("not-a-known-key");
    }
    // initialize and ping show the server's name and capabilities only: open to a probe without a key.
    expect((await raw(httpKeyed.url, { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: INIT })).status).toBe(200);
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" });
    expect(
      (
        await raw(httpKeyed.url, {
          method: "POST",
          path: "/mcp",
          headers: { ...MCP_HEADERS, authorization: "Bearer not-a-known-key" },
          body: ping,
        })
      ).status,
    ).toBe(200);
    const malformed = await raw(httpKeyed.url, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, authorization: "Basic Zm9vOmJhcg==" },
      body: INIT,
    });
    expect(malformed.status).toBe(401);
    const keyed = await raw(httpKeyed.url, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, authorization: "Bearer face-key" },
      body: LIST,
    });
    expect(keyed.status).toBe(200);
  });
});

describe("body and batch caps", () => {
  it("http: 413 past 4 MiB, declared or streamed; 400 for a batch of 101 messages", async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, " ");
    const declared = await raw(http.url, { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: big });
    expect(declared.status).toBe(413);
    const streamed = await raw(http.url, {
      method: "POST",
      path: "/mcp",
      headers: { ...MCP_HEADERS, "transfer-encoding": "chunked" },
      body: big,
    });
    expect(streamed.status).toBe(413);
    const batch = JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "ping" })));
    const res = await raw(http.url, { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: batch });
    expect(res.status).toBe(400);
    const hundred = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "ping" })));
    expect((await raw(http.url, { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: hundred })).status).toBe(200);
  });

  it("api: 413 for a body over its 4 KiB cap, declared or streamed", async () => {
    const body = Buffer.alloc(4097, "a");
    const declared = await raw(rest.url, {
      method: "GET",
      path: "/btc/lifespan/Lth_mvrv",
      headers: { "x-api-key": "face-key", "content-length": String(body.length) },
      body,
    });
    expect(declared.status).toBe(413);
    const streamed = await raw(rest.url, {
      method: "POST",
      path: "/btc/lifespan/Lth_mvrv",
      headers: { "x-api-key": "face-key", "transfer-encoding": "chunked" },
      body,
    });
    expect(streamed.status).toBe(413);
  });
});

describe("methods", () => {
  it("http answers GET and DELETE on /mcp with 405 (stateless: no stream to hold open, no session to end)", async () => {
    const get = await raw(http.url, { method: "GET", path: "/mcp", headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers["allow"]).toBe("POST");
    expect((await raw(http.url, { method: "DELETE", path: "/mcp" })).status).toBe(405);
  });
});

describe("CORS", () => {
  it("never sends Access-Control-Allow-Origin, preflights included", async () => {
    const preflight = {
      origin: `http://localhost:${port}`,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    };
    await raw(http.url, { method: "OPTIONS", path: "/mcp", headers: preflight });
    await raw(rest.url, {
      method: "OPTIONS",
      path: "/btc/lifespan/Lth_mvrv",
      headers: { ...preflight, "access-control-request-method": "GET" },
    });
    await raw(rest.url, {
      path: "/btc/lifespan/Lth_mvrv?startDate=2025-01-01&endDate=2025-01-02",
      headers: { "x-api-key": "face-key", origin: "https://evil.example" },
    });
    await raw(http.url, { method: "GET", path: "/mcp", headers: { accept: "text/event-stream", origin: `http://localhost:${port}` } });
    await raw(http.url, { method: "DELETE", path: "/mcp", headers: { origin: `http://localhost:${port}` } });
    expect(everyReply.length).toBeGreaterThan(20);
    for (const reply of everyReply) {
      expect(Object.keys(reply.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    }
  });
});

/** Opens a raw socket, writes `data`, then stalls; resolves with what came back once the server closes it. */
function stall(base: string, data: string, giveUpMs: number): Promise<{ closed: boolean; reply: string }> {
  const { hostname, port: p } = new URL(base);
  return new Promise((resolve) => {
    const sock = connect(Number(p), hostname);
    let reply = "";
    sock.on("data", (d: Buffer) => (reply += d.toString("utf8")));
    sock.on("error", () => undefined);
    const timer = setTimeout(() => {
      sock.destroy();
      resolve({ closed: false, reply });
    }, giveUpMs);
    sock.on("close", () => {
      clearTimeout(timer);
      resolve({ closed: true, reply });
    });
    sock.write(data);
  });
}

describe("slow clients", () => {
  it("configures bounded header and request timeouts on both faces", () => {
    for (const server of [rest.server, http.server]) {
      expect(server.headersTimeout).toBeGreaterThan(0);
      expect(server.headersTimeout).toBeLessThanOrEqual(15_000);
      expect(server.requestTimeout).toBeGreaterThan(0);
      expect(server.requestTimeout).toBeLessThanOrEqual(120_000);
    }
    expect([rest.server.headersTimeout, rest.server.requestTimeout]).toEqual([10_000, 30_000]);
  });

  it("cuts off a client that stalls mid-headers or mid-body once the (shortened) timeouts pass", async () => {
    for (const server of [rest.server, http.server]) {
      server.headersTimeout = 300;
      server.requestTimeout = 600;
    }
    const partialHeaders = "GET /btc/lifespan/Lth_mvrv HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: face-key\r\n";
    const partialBody = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`;
    const results = await Promise.all([
      stall(rest.url, partialHeaders, 8_000),
      stall(http.url, partialHeaders.replace("/btc/lifespan/Lth_mvrv", "/mcp"), 8_000),
      stall(http.url, partialBody, 8_000),
    ]);
    for (const r of results) {
      expect(r.closed).toBe(true);
      expect(r.reply === "" || r.reply.startsWith("HTTP/1.1 408")).toBe(true);
    }
  });
});
