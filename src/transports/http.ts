// MCP over Streamable HTTP at /mcp, stateless: a new McpServer and transport per request around ONE
// shared backend (so credits are metered centrally), the caller's key taken from
// `Authorization: Bearer`, Host and Origin checked against DNS rebinding, no CORS.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { listen } from "../listen.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { API_KEY_PATTERN, type Backend } from "../backend/types.js";
import type { Config } from "../config.js";
import { log } from "../log.js";
import { createBackend, createServer } from "../server.js";
import { hostAllowed, isLoopback, originAllowed } from "./host-check.js";

export const MCP_PATH = "/mcp";
/** Cap on a request body (the SDK transport answers 413 beyond it; it also caps batches at 100). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpServerOptions {
  backend: Backend;
  host: string;
  port: number;
  /** Answer 401 to requests without `Authorization: Bearer` instead of using the configured key. */
  requireKey: boolean;
  /** The configured key (redacted from error text); calls without a bearer key use the backend's default. */
  apiKey?: string | undefined;
}

export interface RunningHttpServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  // Timeouts are enforced only every connectionsCheckingInterval (30 s by default): check every second.
  const server = createHttpServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    handle(req, res, options).catch((err: unknown) => {
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

async function handle(req: IncomingMessage, res: ServerResponse, options: HttpServerOptions): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  if (!hostAllowed(req.headers.host, options.host)) return sendError(res, 403, -32000, "Forbidden: Host header not allowed");
  if (!originAllowed(req.headers.origin, options.host)) return sendError(res, 403, -32000, "Forbidden: Origin not allowed");
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

  const mcp = createServer({ backend: options.backend, config: { apiKey: options.apiKey } });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MAX_BODY_BYTES });
  res.on("close", () => {
    void transport.close().catch(() => undefined);
    void mcp.close().catch(() => undefined);
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
    running = await startHttpServer({ backend, host: config.host, port: config.port, requireKey: config.requireKey, apiKey: config.apiKey });
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
