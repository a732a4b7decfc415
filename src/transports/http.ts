// MCP over Streamable HTTP at /mcp, both protocol eras from one server definition: 2026-07-28
// (stateless, version and capabilities in every request) and the 2025 era (stateless fallback,
// initialize answered per request), served by the SDK's createMcpHandler around ONE shared backend
// (so credits are metered centrally). In front of it: Host and Origin checked against DNS
// rebinding, the caller's key taken from `Authorization: Bearer` (or, with `--auth oauth`, an access
// token verified by the resource server of oauth/, or nothing with `--auth none`), a body cap, no CORS.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

import { type AuthInfo, createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";

import type { Backend } from "../backend/types.js";
import type { Config } from "../config.js";
import { incidentRef } from "../incidents.js";
import { listen } from "../listen.js";
import { log } from "../log.js";
import { stopOnSignals } from "../process-end.js";
import { createBackend, createServer, createViewStore } from "../server.js";
import { viewSecret } from "../state-dir.js";
import { Delivery } from "./delivery.js";
import { hostJudge, isLoopback } from "./host-check.js";
import { admittedBody, callerOf, MAX_BODY_BYTES } from "./http-admission.js";
import { honourClose, PendingRequests } from "./http-gate.js";
import { sendError, writeResponse } from "./http-response.js";
import type { ResourceServer } from "./oauth/resource-server.js";

export const MCP_PATH = "/mcp";
export { MAX_BATCH, MAX_BODY_BYTES } from "./http-admission.js";

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
  /**
   * `--auth oauth`: every MCP request needs an access token this resource server admits, and is
   * metered on the token subject's account; API keys are not accepted.
   */
  oauth?: ResourceServer;
  /** `--auth none`: no credential is read; every request is served with the configured key. */
  anonymous?: boolean;
  /** The key views' handles are signed with (default: this process's own); read on the first view. */
  viewSecret?: () => Buffer;
}

export interface RunningHttpServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * What the server factory needs of one HTTP request, by the web Request handed to the SDK: the method
 * when the body is one JSON-RPC request, and the `Delivery` its answer's charges are recorded in.
 */
const REQUESTS = new WeakMap<Request, { method: string | undefined; delivery: Delivery }>();

/** The SDK's dual-era handler over our server factory: one instance per request, of the request's era. */
export function mcpHandler(options: Pick<HttpServerOptions, "backend" | "apiKey" | "now" | "viewSecret">): McpHttpHandler {
  const config = { apiKey: options.apiKey, ...(options.now && { now: options.now }) };
  const views = createViewStore(options.viewSecret);
  const factory = ({ era, requestInfo }: { era: "legacy" | "modern"; requestInfo?: Request }) => {
    const { method, delivery } = (requestInfo && REQUESTS.get(requestInfo)) ?? {};
    const backend = delivery ? delivery.meter(options.backend) : options.backend;
    return createServer({ backend, config, era, views, ...(method !== undefined && { method }) });
  };
  return createMcpHandler(factory, {
    legacy: "stateless",
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error) => log.debug("mcp request refused", { error: error.message }),
  });
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const mcp = mcpHandler(options);
  const pending = new PendingRequests();
  const refusal = hostRefusal(options.host, options.allowedHosts ?? []);
  // Timeouts are enforced only every connectionsCheckingInterval (30 s by default): check every second.
  const server = createHttpServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    handle(req, res, options, mcp, pending, refusal).catch((err: unknown) => {
      const detail = err instanceof Error ? err.message : String(err);
      const ref = incidentRef(detail);
      log.error("http request failed", { ref, error: detail });
      if (!res.headersSent) sendError(res, 500, -32603, `Internal error; the server log has the details under reference ${ref}`);
      else res.end();
    });
  });
  // Slow-loris and idle sockets: bounded header and request times.
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  const { url } = await listen(server, options.host, options.port);
  return {
    url,
    server,
    close: async () => {
      await mcp.close().catch(() => undefined);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Why a request's Host or Origin is refused (null: it is not). */
type Refusal = (host: string | undefined, origin: string | undefined) => string | null;

function hostRefusal(bindHost: string, allowedHosts: readonly string[]): Refusal {
  const judge = hostJudge(bindHost, allowedHosts);
  return (host, origin) => {
    const verdict = judge(host, origin);
    if (verdict === "Host") return "Forbidden: Host header not allowed (a name a reverse proxy forwards is allowed with --allowed-hosts)";
    return verdict === "Origin" ? "Forbidden: Origin not allowed" : null;
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: HttpServerOptions,
  mcp: McpHttpHandler,
  pending: PendingRequests,
  refusal: Refusal,
): Promise<void> {
  honourClose(req, res);
  if (refusedAtDoor(req, res, options, pending, refusal)) return;
  const caller = await callerOf(req, res, options);
  if (!caller) return;
  const body = await admittedBody(req, res, options, caller.key);
  if (!body) return;
  const authInfo: AuthInfo | undefined = caller.oauth ?? (caller.key ? { token: caller.key, clientId: "bearer", scopes: [] } : undefined);
  await exchange(req, res, mcp, body, authInfo);
}

/** Answers a request refused before its credentials or body are read (busy, metadata, host, path, method); true when it did. */
function refusedAtDoor(
  req: IncomingMessage,
  res: ServerResponse,
  options: HttpServerOptions,
  pending: PendingRequests,
  refusal: Refusal,
): boolean {
  if (!pending.enter(res)) {
    res.setHeader("Retry-After", "1");
    res.setHeader("Connection", "close");
    sendError(res, 503, -32000, "Service unavailable: too many requests in progress; retry in a second");
    return true;
  }
  const path = (req.url ?? "/").split("?")[0]!;
  if (options.oauth?.serveMetadata(req, res, path)) return true;
  const refused = refusal(req.headers.host, req.headers.origin);
  if (refused) {
    sendError(res, 403, -32000, refused);
    return true;
  }
  if (path !== MCP_PATH) {
    sendError(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}`);
    return true;
  }
  // Stateless in both eras: no server-initiated stream and no session to delete (spec: 405).
  if (req.method !== "POST") {
    res.setHeader("Allow", "POST");
    sendError(res, 405, -32000, "Method not allowed: this stateless server takes POST only");
    return true;
  }
  return false;
}

/** Hands an admitted request to the SDK and writes its answer; a failed exchange keeps no charge. */
async function exchange(
  req: IncomingMessage,
  res: ServerResponse,
  mcp: McpHttpHandler,
  { bytes: body, parsed }: { bytes: Buffer; parsed: unknown },
  authInfo: AuthInfo | undefined,
): Promise<void> {
  // The exchange ends (handlers aborted) when the client goes away before its answer.
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  // What the SDK reads: the media types and the MCP headers (Host, Origin and the key are checked above).
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string" && (name.startsWith("mcp-") || SDK_HEADERS.has(name))) headers[name] = value;
  }
  // A body that parsed goes to the SDK parsed (it reads it from there, not from the request).
  const request = new Request(`http://${req.headers.host}${req.url ?? MCP_PATH}`, {
    method: "POST",
    headers,
    signal: abort.signal,
    ...(parsed === undefined && { body }),
  });
  const method = (parsed as { method?: unknown } | undefined)?.method;
  const delivery = new Delivery(res);
  REQUESTS.set(request, { method: typeof method === "string" ? method : undefined, delivery });
  try {
    const response = await mcp.fetch(request, { ...(authInfo && { authInfo }), ...(parsed !== undefined && { parsedBody: parsed }) });
    // A failed exchange (the SDK's 500, or 499 once the client left) carries no result: nothing stays charged.
    if (response.status >= 499) delivery.abandon();
    await writeResponse(res, response, delivery);
  } catch (err) {
    delivery.abandon();
    throw err;
  }
}

/** Headers besides the Mcp-* ones that the SDK's entry reads. */
const SDK_HEADERS = new Set(["content-type", "accept", "last-event-id"]);

export async function runHttp(config: Config): Promise<void> {
  let backend = await createBackend(config);
  let running: RunningHttpServer;
  try {
    let oauth: ResourceServer | undefined;
    if (config.auth === "oauth") {
      const setup = await import("./oauth/setup.js");
      if (backend.kind === "inprocess") oauth = setup.oauthResourceServer(config, backend);
      else ({ oauth, backend } = await setup.oauthForService(config, backend));
    }
    running = await startHttpServer({
      ...(oauth && { oauth }),
      anonymous: config.auth === "none",
      backend,
      host: config.host,
      port: config.port,
      allowedHosts: config.allowedHosts,
      requireKey: config.requireKey,
      apiKey: config.apiKey,
      now: config.now,
      viewSecret: () => viewSecret(process.env, config.stateDir),
    });
  } catch (err) {
    await backend.close();
    throw err;
  }
  stopOnSignals(async (signal) => {
    log.info("shutting down", { signal });
    await running.close();
    await backend.close();
  });
  if (!isLoopback(config.host) && config.auth === "key")
    log.warn("listening beyond loopback: put TLS and authentication in front (see --require-key)", { host: config.host });
  process.stderr.write(`listening on ${running.url}\n`);
}
