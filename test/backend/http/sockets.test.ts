// Faults only a real socket can produce, from raw node:http servers on loopback: silent servers,
// trickling and truncated bodies, oversized bodies and a gzip bomb, a refused connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

import { afterEach, describe, expect, it } from "vitest";

import { LTH, records, serviceError, SILENT, virtualClock } from "../../../harness/mock-upstream.js";
import { HttpBackend, type HttpBackendOptions } from "../../../src/backend/http/index.js";

interface Upstream {
  url: string;
  requests: number;
  close(): Promise<void>;
}

const open: { server: Server; timers: Set<NodeJS.Timeout> }[] = [];
const backends: HttpBackend[] = [];

afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
  for (const { server, timers } of open.splice(0)) {
    for (const t of timers) clearInterval(t);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function upstream(handler: (req: IncomingMessage, res: ServerResponse, timers: Set<NodeJS.Timeout>) => void): Promise<Upstream> {
  const timers = new Set<NodeJS.Timeout>();
  const state = { requests: 0 };
  const server = createServer((req, res) => {
    state.requests++;
    handler(req, res, timers);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push({ server, timers });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function backend(url: string, extra: Partial<HttpBackendOptions> = {}): HttpBackend {
  const clock = virtualClock();
  const b = new HttpBackend({
    baseUrl: url,
    apiKey: "socket-key",
    now: clock.now,
    sleep: clock.sleep,
    timeouts: { connectMs: 500, headersMs: 300, bodyMs: 5_000, attemptMs: 800, callMs: 10_000 },
    retry: { attempts: 2 },
    log: SILENT,
    ...extra,
  });
  backends.push(b);
  return b;
}

const JSON_HEADERS = { "content-type": "application/json" };

describe("deadlines", () => {
  it("headers never sent → upstream_timeout (headers timeout), retried once", async () => {
    const server = await upstream(() => {});
    const error = await serviceError(backend(server.url).fetch(LTH));
    expect(error.code).toBe("upstream_timeout");
    expect(error.status).toBe(504);
    expect(server.requests).toBe(2);
  });
  it("a body trickling 1 byte/s is cut by the per-attempt deadline, though the body timeout never fires", async () => {
    const server = await upstream((_req, res, timers) => {
      res.writeHead(200, JSON_HEADERS);
      const body = JSON.stringify(records("lth_mvrv", 5));
      let i = 0;
      res.write(body[i++]);
      const timer = setInterval(() => (i < body.length ? res.write(body[i++]) : res.end()), 1000);
      timers.add(timer);
    });
    const error = await serviceError(backend(server.url, { retry: { attempts: 1 } }).fetch(LTH));
    expect(error.code).toBe("upstream_timeout");
    expect(server.requests).toBe(1);
  });
  it("a caller's abort ends the call with the caller's reason", async () => {
    const server = await upstream(() => {});
    const controller = new AbortController();
    const call = backend(server.url, { timeouts: { headersMs: 5000, attemptMs: 5000 } }).fetch(LTH, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user cancelled")), 50);
    await expect(call).rejects.toThrow("user cancelled");
  });
});

describe("broken bodies", () => {
  it("a truncated body with a socket reset → upstream_unavailable, never partial data", async () => {
    const server = await upstream((req, res) => {
      res.writeHead(200, { ...JSON_HEADERS, "content-length": "1000" });
      res.write('[{"time":"2025-01-01T00:00:00.000Z","lth_mvrv":1}');
      setTimeout(() => req.socket.destroy(), 10);
    });
    const error = await serviceError(backend(server.url).fetch(LTH));
    expect(error.code).toBe("upstream_unavailable");
    expect(server.requests).toBe(2);
  });
  it("a refused connection → upstream_unavailable", async () => {
    const server = await upstream(() => {});
    await server.close();
    const error = await serviceError(backend(server.url).fetch(LTH));
    expect(error.code).toBe("upstream_unavailable");
  });
});

describe("size cap", () => {
  const MB = 1024 * 1024;
  function streaming50MB(declareLength: boolean, written: { bytes: number }) {
    return (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { ...JSON_HEADERS, ...(declareLength && { "content-length": String(50 * MB) }) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (written.bytes < 50 * MB && !res.destroyed) {
          written.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end();
      };
      res.on("close", () => res.removeAllListeners("drain"));
      pump();
    };
  }
  it("a 50 MB streamed body is aborted past the cap, before the server can send it all", async () => {
    const written = { bytes: 0 };
    const server = await upstream(streaming50MB(false, written));
    const error = await serviceError(backend(server.url, { maxBytes: MB }).fetch(LTH));
    expect(error.code).toBe("upstream_invalid_response");
    expect(error.message).toMatch(/exceeds the 1 MiB cap/);
    expect(written.bytes).toBeLessThan(20 * MB);
  });
  it("a declared 50 MB Content-Length is refused without reading the body", async () => {
    const written = { bytes: 0 };
    const server = await upstream(streaming50MB(true, written));
    const error = await serviceError(backend(server.url, { maxBytes: MB }).fetch(LTH));
    expect(error.code).toBe("upstream_invalid_response");
    expect(written.bytes).toBeLessThan(20 * MB);
    expect(server.requests).toBe(1);
  });
  it("a gzip bomb is stopped at the cap on decoded bytes; a sane gzip body is decoded", async () => {
    const bomb = gzipSync(Buffer.alloc(64 * MB, 0x20));
    const good = gzipSync(JSON.stringify(records("lth_mvrv", 400)));
    const server = await upstream((req, res) => {
      res.writeHead(200, { ...JSON_HEADERS, "content-encoding": "gzip" });
      res.end(req.url?.includes("startDate") ? good : bomb);
    });
    const b = backend(server.url, { maxBytes: MB });
    const before = process.memoryUsage().arrayBuffers;
    expect((await serviceError(b.fetch(LTH))).code).toBe("upstream_invalid_response");
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * MB);
    expect((await b.fetch({ ...LTH, query: { startDate: "2025-01-01" } })).body).toEqual(records("lth_mvrv", 400));
  });
});
