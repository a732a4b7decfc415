// What the Streamable HTTP transport settles before an MCP server is taken for a request: a cap on
// requests in progress, the body read within a size and a time bound, the caller's key checked
// under --require-key (only the handshake a directory probe makes passes without a known one),
// and a client's `Connection: close` honoured.
import type { IncomingMessage, ServerResponse } from "node:http";

/** Requests read or served at once; past it a request is answered 503 at once (its socket closed). */
export const MAX_PENDING_REQUESTS = 256;
/** A body still not whole this long after its headers is answered 408. */
export const BODY_TIMEOUT_MS = 10_000;

/**
 * Methods answered without a known key under --require-key: the handshake and discovery that a
 * directory or a client probes before it has credentials. They show the server's name, version,
 * capabilities and instructions, never a tool, resource, prompt or datum.
 */
export const PROBE_METHODS: ReadonlySet<string> = new Set(["initialize", "notifications/initialized", "ping", "server/discover"]);

/** A body read whole (`parsed` undefined when it is not JSON), or why it was refused. */
export type Body = { ok: true; bytes: Buffer; parsed: unknown } | { ok: false; status: number; code: number; message: string };

/** Reads a JSON-RPC body, never more than `limit` bytes, never longer than `timeoutMs`, and parses it when it is JSON. */
export function readBody(req: IncomingMessage, limit: number, timeoutMs = BODY_TIMEOUT_MS): Promise<Body> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"]);
    if (declared > limit)
      return resolve({ ok: false, status: 413, code: -32000, message: `Payload too large: the body cap is ${limit} bytes` });
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: Body) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off("data", onData);
      resolve(body);
    };
    const timer = setTimeout(
      () =>
        finish({ ok: false, status: 408, code: -32000, message: `Request timeout: the body did not arrive within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit)
        return finish({ ok: false, status: 413, code: -32000, message: `Payload too large: the body cap is ${limit} bytes` });
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("error", () => finish({ ok: false, status: 400, code: -32000, message: "Bad request: the body could not be read" }));
    req.once("end", () => {
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString("utf8"));
      } catch {
        parsed = undefined;
      }
      finish({ ok: true, bytes, parsed });
    });
  });
}

/** True when every message of the body is a probe method (a response or notification carries no data either way). */
export function onlyProbes(parsed: unknown): boolean {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return (
    messages.length > 0 &&
    messages.every((m) => {
      const method = typeof m === "object" && m !== null ? (m as { method?: unknown }).method : undefined;
      return typeof method === "string" && PROBE_METHODS.has(method);
    })
  );
}

/** A client that asked to close after this request gets `Connection: close`, whatever the MCP layer sets. */
export function honourClose(req: IncomingMessage, res: ServerResponse): void {
  if (!/(^|,)\s*close\s*(,|$)/i.test(req.headers.connection ?? "")) return;
  res.shouldKeepAlive = false;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    for (const arg of args) {
      if (typeof arg !== "object" || arg === null || Array.isArray(arg)) continue;
      const headers = arg as Record<string, unknown>;
      for (const name of Object.keys(headers)) if (name.toLowerCase() === "connection") headers[name] = "close";
    }
    if (this.hasHeader("connection")) this.setHeader("Connection", "close");
    return Reflect.apply(writeHead, this, args) as ServerResponse;
  } as typeof res.writeHead;
}

/** Counts requests in progress; `enter` is false past the cap. */
export class PendingRequests {
  private count = 0;
  constructor(private readonly max = MAX_PENDING_REQUESTS) {}

  enter(res: ServerResponse): boolean {
    if (this.count >= this.max) return false;
    this.count++;
    res.once("close", () => this.count--);
    return true;
  }

  get size(): number {
    return this.count;
  }
}
