// MCP over Streamable HTTP at /mcp, stateless: a transport per request, served by an McpServer taken
// from a pool of idle ones (cleared of the previous caller first) around ONE shared backend (so
// credits are metered centrally), the caller's key taken from `Authorization: Bearer`, Host and
// Origin checked against DNS rebinding, no CORS.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listen } from "../listen.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { API_KEY_PATTERN, type Backend } from "../backend/types.js";
import type { Config } from "../config.js";
import { log } from "../log.js";
import { createBackend, createServer, loggingOf } from "../server.js";
import { hostAllowed, isLoopback, originAllowed } from "./host-check.js";

export const MCP_PATH = "/mcp";
/** Cap on a request body (the SDK transport answers 413 beyond it; it also caps batches at 100). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpServerOptions {
  backend: Backend;
  host: string;
  port: number;
  /** Public host names accepted in Host and Origin besides the bound address's (`--allowed-hosts`). */
  allowedHosts?: readonly string[];
  /** Answer 401 to requests without `Authorization: Bearer` instead of using the configured key. */
  requireKey: boolean;
  /** The configured key (redacted from error text); calls without a bearer key use the backend's default. */
  apiKey?: string | undefined;
  /** "Now" of the data (CRYPTO_METRICS_NOW when pinned), for the prompts' dates. */
  now?: () => number;
}

export interface RunningHttpServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Idle servers kept for reuse; beyond this many a released one is dropped. */
const MAX_IDLE_SERVERS = 64;

/**
 * Servers for the stateless requests. Building one (every tool, resource and prompt registered)
 * was most of a request's own cost; a server is reused only once its transport has closed (the SDK
 * then has aborted that request's handlers and forgotten its response routes) and after what the
 * SDK keeps of the caller is cleared: the client's capabilities and info from an initialize (the
 * SDK's internals; a test pins them) and the log level set with logging/setLevel. Over stateless
 * HTTP there is no stream for messages outside a request, so setLevel is accepted and applies to
 * nothing after its own request.
 */
export class ServerPool {
  private readonly idle: McpServer[] = [];
  constructor(private readonly make: () => McpServer) {}

  acquire(): McpServer {
    return this.idle.pop() ?? this.make();
  }

  release(server: McpServer): void {
    if (server.isConnected() || this.idle.length >= MAX_IDLE_SERVERS) return void server.close().catch(() => undefined);
    forgetCaller(server);
    this.idle.push(server);
  }

  get idleCount(): number {
    return this.idle.length;
  }
}

interface CallerState {
  _clientCapabilities?: unknown;
  _clientVersion?: unknown;
  _loggingLevels?: Map<unknown, unknown>;
}

export function forgetCaller(server: McpServer): void {
  const state = server.server as unknown as CallerState;
  state._clientCapabilities = undefined;
  state._clientVersion = undefined;
  state._loggingLevels?.clear();
  loggingOf(server).reset();
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const pool = new ServerPool(() => createServer({ backend: options.backend, config: { apiKey: options.apiKey, ...(options.now && { now: options.now }) } }));
  // Timeouts are enforced only every connectionsCheckingInterval (30 s by default): check every second.
  const server = createHttpServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    handle(req, res, options, pool).catch((err: unknown) => {
      log.error("http request failed", { error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) sendError(res, 500, -32603, "Internal error");
      else res.end();
    });
  });
  // Slow-loris and idle sockets: bounded header and request times.
  server.headersTimeout = 15_000;
  server.requestTimeout = 120_000;
  const { url } = await listen(server, options.host, options.port);
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, options: HttpServerOptions, pool: ServerPool): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  const allowedHosts = options.allowedHosts ?? [];
  if (!hostAllowed(req.headers.host, options.host, allowedHosts)) return sendError(res, 403, -32000, "Forbidden: Host header not allowed (a name a reverse proxy forwards is allowed with --allowed-hosts)");
  if (!originAllowed(req.headers.origin, options.host, allowedHosts)) return sendError(res, 403, -32000, "Forbidden: Origin not allowed");
  if (path !== MCP_PATH) return sendError(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}`);
  // Stateless: no server-initiated stream and no session to delete. The SDK would hold a GET stream
  // (and its server) open until the client leaves, and every SDK client opens one: answer 405 (spec).
  if (req.method !== "POST") {
    res.setHeader("Allow", "POST");
    return sendError(res, 405, -32000, "Method not allowed: this stateless server takes POST only");
  }

  const auth = bearer(req.headers.authorization);
  if (auth === "malformed") {
    res.setHeader("WWW-Authenticate", 'Bearer error="invalid_request"');
    return sendError(res, 401, -32001, "Unauthorized: send the key as Authorization: Bearer <key>");
  }
  if (auth === undefined && options.requireKey) {
    res.setHeader("WWW-Authenticate", "Bearer");
    return sendError(res, 401, -32001, "Unauthorized: this server requires Authorization: Bearer <key>");
  }
  if (auth) (req as IncomingMessage & { auth?: AuthInfo }).auth = { token: auth, clientId: "bearer", scopes: [] };

  const mcp = pool.acquire();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MAX_BODY_BYTES });
  res.on("close", () => {
    // Closing the transport closes the server's side of it (handlers aborted) before reuse.
    void transport.close().catch(() => undefined).finally(() => pool.release(mcp));
  });
  await mcp.connect(transport);
  await transport.handleRequest(req, res);
}

/** The bearer token, undefined when there is no Authorization header, "malformed" otherwise. */
function bearer(header: string | undefined): string | undefined | "malformed" {
  if (header === undefined) return undefined;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m && API_KEY_PATTERN.test(m[1]!) ? m[1] : "malformed";
}

function sendError(res: ServerResponse, status: number, code: number, message: string): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

export async function runHttp(config: Config): Promise<void> {
  const backend = await createBackend(config);
  let running: RunningHttpServer;
  try {
    running = await startHttpServer({ backend, host: config.host, port: config.port, allowedHosts: config.allowedHosts, requireKey: config.requireKey, apiKey: config.apiKey, now: config.now });
  } catch (err) {
    await backend.close();
    throw err;
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    void running
      .close()
      .then(() => backend.close())
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  if (!isLoopback(config.host)) log.warn("listening beyond loopback: put TLS and authentication in front (see --require-key)", { host: config.host });
  process.stderr.write(`listening on ${running.url}\n`);
}
