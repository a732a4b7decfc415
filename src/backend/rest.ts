// The REST face: the in-process service at the spec's paths over node:http. GET only, bodies
// capped, server timeouts set; everything else (auth, limits, data) is the service pipeline's.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

import { afterPoll, monotonicMs, slow } from "../after-poll.js";
import { escapeFormat } from "../echo.js";
import { incidentRef } from "../incidents.js";
import { listen } from "../listen.js";
import { log } from "../log.js";
import { clientGone, Delivery, UNDELIVERED } from "../transports/delivery.js";
import { hostJudge } from "../transports/host-check.js";
import type { InProcessService, ServiceResponse } from "./inprocess/service.js";
import { ServiceError } from "./types.js";

/** Bytes of request body tolerated (and ignored); more is a 413. */
export const BODY_LIMIT = 4096;

/**
 * Serialized response bodies the `api` command keeps for repeated requests (dashboards and
 * scripts poll the same series): a repeat skips generation and serialization.
 */
export const BODY_CACHE_BYTES = 32 * 1024 * 1024;

export interface RestServerOptions {
  host: string;
  port: number;
}

export interface RestServer {
  server: Server;
  host: string;
  port: number;
  /** Base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  close(): Promise<void>;
}

const BASE_HEADERS = {
  "Content-Type": "application/json",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
} as const;

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  // An error's message may echo what the caller sent: format and control characters go out escaped.
  const error = status >= 400 ? (body as { error?: { message?: unknown } } | undefined)?.error : undefined;
  if (typeof error?.message === "string") body = { ...body!, error: { ...error, message: escapeFormat(error.message) } };
  sendBytes(res, status, headers, Buffer.from(JSON.stringify(body)));
}

function sendBytes(res: ServerResponse, status: number, headers: Record<string, string>, bytes: Buffer): void {
  res.writeHead(status, { ...BASE_HEADERS, ...headers, "Content-Length": bytes.length });
  res.end(bytes);
}

function sendError(res: ServerResponse, error: ServiceError, headers: Record<string, string> = {}): void {
  send(res, error.status, headers, error.toBody());
}

function splitTarget(target: string): { path: string; query: string } {
  // Absolute-form targets (proxies) carry scheme and host; the service needs only path and query.
  const rel = /^https?:\/\//i.test(target) ? target.replace(/^https?:\/\/[^/]*/i, "") || "/" : target;
  const q = rel.indexOf("?");
  return q === -1 ? { path: rel, query: "" } : { path: rel.slice(0, q), query: rel.slice(q + 1) };
}

/** A failure of ours: a 500 naming an incident in the log, or a dropped socket once headers are out. */
function fail(res: ServerResponse, err: unknown): void {
  const detail = String((err as Error)?.message ?? err);
  const ref = incidentRef(detail);
  log.error("REST face failed to answer", { ref, error: detail });
  if (!res.headersSent)
    sendError(res, new ServiceError(500, "internal", `The service failed unexpectedly; retry. Reference ${ref} in the server log.`));
  else res.destroy();
}

function deliver(req: IncomingMessage, res: ServerResponse, path: string, out: ServiceResponse): void {
  // A client gone before its body was written, or that does not get it whole, is not charged for it.
  const charge = out.usage?.charge;
  if (charge) {
    if (clientGone(res)) return void charge.refund(UNDELIVERED);
    new Delivery(res).charge(charge);
  }
  // Bodies the service has serialized already (its cache) go out as they are.
  if (out.bytes) sendBytes(res, out.status, out.headers, out.bytes);
  else send(res, out.status, out.headers, out.body);
  log.debug("request", { method: req.method, path: path.slice(0, 120), status: out.status, charged: out.usage?.charged });
}

function respond(service: InProcessService, req: IncomingMessage, res: ServerResponse): void {
  const { path, query } = splitTarget(req.url ?? "/");
  const started = monotonicMs();
  service
    .handle({ method: req.method ?? "GET", path, query: new URLSearchParams(query), headers: req.headers })
    .then((out) => {
      // A charged response that took a while to build waits for a poll, so that a client which left
      // meanwhile is seen as gone (and refunded) before the body goes out.
      if (out.usage?.charge && slow(started))
        void afterPoll().then(() => {
          try {
            deliver(req, res, path, out);
          } catch (err) {
            fail(res, err);
          }
        });
      else deliver(req, res, path, out);
    })
    .catch((err: unknown) => fail(res, err));
}

/** Lets a request's body (ignored) arrive within BODY_LIMIT, then answers; a larger one is a 413. */
function afterBody(req: IncomingMessage, res: ServerResponse, answer: () => void): void {
  const declared = Number(req.headers["content-length"] ?? 0);
  const hasBody = declared > 0 || req.headers["transfer-encoding"] !== undefined;
  if (!hasBody) {
    req.resume();
    answer();
    return;
  }
  const tooLarge = () =>
    sendError(
      res,
      new ServiceError(
        413,
        "payload_too_large",
        `Request bodies are not accepted (limit ${BODY_LIMIT} bytes); every endpoint is a GET with query parameters.`,
      ),
      { Connection: "close" },
    );
  if (declared > BODY_LIMIT) {
    tooLarge();
    req.destroy();
    return;
  }
  let received = 0;
  req.on("data", (chunk: Buffer) => {
    received += chunk.length;
    if (received > BODY_LIMIT && !res.headersSent) {
      tooLarge();
      req.destroy();
    }
  });
  req.on("end", () => {
    if (!res.headersSent) answer();
  });
  req.on("error", () => res.destroy());
}

/**
 * The request listener; exported so other servers can mount the same face. With `bindHost`, Host
 * and Origin are checked as the MCP HTTP transport checks them (localhost names only when bound to
 * loopback): a page on another site cannot reach a local server through DNS rebinding.
 */
export function restHandler(service: InProcessService, bindHost?: string): (req: IncomingMessage, res: ServerResponse) => void {
  const refusal = bindHost === undefined ? undefined : hostJudge(bindHost);
  return (req, res) => {
    const which = refusal ? refusal(req.headers.host, req.headers.origin) : null;
    if (which) {
      req.resume();
      sendError(
        res,
        new ServiceError(
          403,
          "forbidden",
          `The ${which} header names a host this server does not answer to; call it by the address it listens on (${bindHost}).`,
        ),
      );
      return;
    }
    afterBody(req, res, () => respond(service, req, res));
  };
}

/** Listens on host:port (port 0 picks a free one) and resolves once the socket is bound. */
export async function startRestServer(service: InProcessService, options: RestServerOptions): Promise<RestServer> {
  // Node checks header and request timeouts only every connectionsCheckingInterval (30 s by default),
  // which would let a slow-header client hold a socket for up to 40 s; check every second.
  const server = createServer({ connectionsCheckingInterval: 1_000 }, restHandler(service, options.host));
  // Slow or idle clients must not hold sockets open (Node's own defaults are minutes long).
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  const { port, url } = await listen(server, options.host, options.port);
  let closing: Promise<void> | undefined;
  return {
    server,
    host: options.host,
    port,
    url,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // In-flight requests are short; whatever remains after a grace period is dropped.
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
      return closing;
    },
  };
}
