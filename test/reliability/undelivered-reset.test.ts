// An answer whose last byte went out into a connection its client had already given up is refunded:
// the client closed just before the last write (its close not yet seen), or it reset the connection
// right after the answer reached its host unread. Each is made to happen at that exact point (the
// client acts from inside the server's last write, or once the answer is finished), on the MCP
// endpoint in both eras and on the REST face; an answer read whole stays charged, over a connection
// closed after it and over one kept alive for the next call.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { BIG_RATE, type ServiceRig, serviceRig } from "../../harness/service.js";
import { sha256 } from "../../src/backend/inprocess/keys.js";
import { restHandler } from "../../src/backend/rest.js";
import { startHttpServer } from "../../src/transports/http.js";

const KEY = "reset-key";
let rig: ServiceRig;
beforeAll(() => {
  rig = serviceRig({ keys: [{ key: KEY, credits: 1_000_000, rateLimit: BIG_RATE }] });
});
afterAll(() => rig.close());

const spent = () => rig.store.spent(sha256(KEY).toString("hex"));
/** The store's figure once the verdicts in flight have landed (unchanged for 600 ms: longer than the reset window). */
async function settledSpent(): Promise<number> {
  let last = await spent();
  for (let stable = 0; stable < 3;) {
    await new Promise((r) => setTimeout(r, 200));
    const now = await spent();
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
  return last;
}

/** What the client does at the server's last write. */
type Moment = "closes before the last write" | "resets after the answer arrives" | "reads it whole" | "reads it, then calls again";

/** Runs `moment` against the next answer `server` writes. */
function at(server: Server, moment: Moment, client: () => Socket | undefined): void {
  server.once("request", (_req: IncomingMessage, res: ServerResponse) => {
    if (moment === "closes before the last write") {
      // Closed just before the answer's last bytes: the server has not polled since, so it cannot see it.
      const end = res.end;
      res.end = ((...args: unknown[]) => {
        client()?.destroy();
        return Reflect.apply(end, res, args) as ServerResponse;
      }) as typeof res.end;
    } else if (moment === "resets after the answer arrives") {
      // The client has not read it (paused): closing then sends a reset.
      res.once("finish", () => setTimeout(() => client()?.destroy(), 5));
    }
  });
}

/** True once an HTTP response's text holds its whole body (by Content-Length, or the last chunk). */
function complete(text: string): boolean {
  const headEnd = text.indexOf("\r\n\r\n");
  if (headEnd < 0) return false;
  const length = /^content-length:\s*(\d+)/im.exec(text.slice(0, headEnd));
  const body = text.slice(headEnd + 4);
  return length ? Buffer.byteLength(body) >= Number(length[1]) : body === "0\r\n\r\n" || body.endsWith("\r\n0\r\n\r\n");
}

/** Sends one raw HTTP request; resolves with the answer's text (empty when the client gave it up). */
function exchange(
  port: number,
  head: string,
  body: string,
  moment: Moment,
  server: Server,
  reuse?: Socket,
): Promise<{ text: string; socket: Socket }> {
  return new Promise((resolve) => {
    const socket = reuse ?? connect(port, "127.0.0.1");
    let text = "";
    at(server, moment, () => socket);
    if (moment === "resets after the answer arrives") socket.pause();
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (complete(text)) {
        socket.off("data", onData);
        resolve({ text, socket });
      }
    };
    socket.on("data", onData);
    socket.on("error", () => undefined);
    socket.once("close", () => resolve({ text: "", socket }));
    socket.write(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}

const ERAS = [
  { era: "2025-11-25", headers: "MCP-Protocol-Version: 2025-11-25\r\n", meta: {} },
  {
    era: "2026-07-28",
    headers: "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: get_series\r\nMcp-Param-Asset: btc\r\n",
    meta: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
  },
] as const;

describe.each(ERAS)("an MCP answer at its last write ($era)", ({ headers, meta }) => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const running = await startHttpServer({ backend: rig.backend, host: "127.0.0.1", port: 0, requireKey: false });
    server = running.server;
    port = Number(new URL(running.url).port);
    return () => running.close();
  });
  let n = 0;
  const call = (moment: Moment, keepAlive = false, reuse?: Socket) => {
    n++;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: n,
      method: "tools/call",
      params: { name: "get_series", arguments: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: `2024-01-${10 + n}` }, ...meta },
    });
    const head =
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Authorization: Bearer ${KEY}\r\n${headers}Connection: ${keepAlive ? "keep-alive" : "close"}\r\n`;
    return exchange(port, head, body, moment, server, reuse);
  };

  it.each(["closes before the last write", "resets after the answer arrives"] as const)(
    "is refunded when its client %s",
    async (moment) => {
      const before = await spent();
      expect((await call(moment)).text).toBe("");
      expect(await settledSpent()).toBe(before);
    },
  );

  it("stays charged when read whole, the connection closed after it or kept for the next call", async () => {
    const before = await spent();
    expect((await call("reads it whole")).text).toContain('"result"');
    const first = await call("reads it, then calls again", true);
    expect(first.text).toContain('"result"');
    const second = await call("reads it whole", true, first.socket);
    expect(second.text).toContain('"result"');
    second.socket.destroy();
    expect(await settledSpent()).toBe(before + 3);
  });
});

describe("a REST answer at its last write", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createHttpServer(restHandler(rig.service, "127.0.0.1"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
    return () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
  });
  let n = 0;
  const get = (moment: Moment) => {
    n++;
    const head = `GET /btc/lifespan/Lth_mvrv?startDate=2024-02-${10 + n} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Api-Key: ${KEY}\r\nConnection: close\r\n`;
    return exchange(port, head, "", moment, server);
  };

  it.each(["closes before the last write", "resets after the answer arrives"] as const)(
    "is refunded when its client %s",
    async (moment) => {
      const before = await spent();
      expect((await get(moment)).text).toBe("");
      expect(await settledSpent()).toBe(before);
    },
  );

  it("stays charged when read whole", async () => {
    const before = await spent();
    expect((await get("reads it whole")).text).toContain('"time"');
    expect(await settledSpent()).toBe(before + 1);
  });
});
