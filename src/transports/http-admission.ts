// Who may send a request to /mcp and what it may carry: the caller (an admitted access token with
// `--auth oauth`, else the bearer key), then a body within bounds, with a key where one is required, in a
// protocol version served. Each refusal is answered here with its status and challenge.
import type { IncomingMessage, ServerResponse } from "node:http";

import type { AuthInfo } from "@modelcontextprotocol/server";

import { API_KEY_PATTERN, type Backend } from "../backend/types.js";
import type { HttpServerOptions } from "./http.js";
import { onlyProbes, readBody } from "./http-gate.js";
import { sendError } from "./http-response.js";
import { unservedVersion, versionError } from "./versions.js";

/** Cap on a request body (413 beyond it). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Cap on the messages of a 2025-era JSON-RPC batch (400 beyond it). */
export const MAX_BATCH = 100;

/** Who calls: an admitted access token (`--auth oauth`), or the bearer key if any; null once a refusal is answered. */
export async function callerOf(
  req: IncomingMessage,
  res: ServerResponse,
  options: HttpServerOptions,
): Promise<{ oauth: AuthInfo | undefined; key: string | undefined } | null> {
  let oauth: AuthInfo | undefined;
  if (options.oauth) {
    const admission = await options.oauth.admit(req);
    if (!admission.ok) {
      if (admission.challenge) res.setHeader("WWW-Authenticate", admission.challenge);
      if (admission.retryAfterS) res.setHeader("Retry-After", String(admission.retryAfterS));
      sendError(res, admission.status, -32001, admission.message);
      return null;
    }
    oauth = admission.authInfo;
  }
  const key = options.oauth || options.anonymous ? undefined : bearer(req.headers.authorization);
  if (key === "malformed") {
    res.setHeader("WWW-Authenticate", 'Bearer error="invalid_request"');
    sendError(res, 401, -32001, "Unauthorized: send the key as Authorization: Bearer <key>");
    return null;
  }
  return { oauth, key };
}

/** The body, once within bounds, carrying a key where one is required, in a version served; null once a refusal is answered. */
export async function admittedBody(
  req: IncomingMessage,
  res: ServerResponse,
  options: HttpServerOptions,
  key: string | undefined,
): Promise<{ bytes: Buffer; parsed: unknown } | null> {
  // Within a size and a time bound (413, 408); a body that is not JSON goes to the SDK, which answers it.
  const read = await readBody(req, MAX_BODY_BYTES);
  if (!read.ok) {
    res.setHeader("Connection", "close");
    sendError(res, read.status, read.code, read.message);
    return null;
  }
  const { parsed } = read;
  if (options.requireKey && !onlyProbes(parsed)) {
    if (key === undefined) {
      res.setHeader("WWW-Authenticate", "Bearer");
      sendError(res, 401, -32001, "Unauthorized: this server requires Authorization: Bearer <key>");
      return null;
    }
    if (!keyKnown(options.backend, key)) {
      res.setHeader("WWW-Authenticate", 'Bearer error="invalid_token"');
      sendError(res, 401, -32001, "Unauthorized: the bearer key is not recognised; send a key this server knows");
      return null;
    }
  }
  if (Array.isArray(parsed) && parsed.length > MAX_BATCH) {
    sendError(res, 400, -32600, `Invalid Request: a batch holds at most ${MAX_BATCH} messages`);
    return null;
  }
  // Either era's way of naming a version the server does not speak gets the list of those it does.
  const header = req.headers["mcp-protocol-version"];
  const unserved = unservedVersion(typeof header === "string" ? header : undefined, parsed);
  if (unserved !== undefined) {
    sendError(res, 400, versionError(unserved.version, unserved.modern), parsed);
    return null;
  }
  return { bytes: read.bytes, parsed };
}

/** False only when the backend knows its keys (the simulated service) and this is not one; the real service decides for itself. */
function keyKnown(backend: Backend, key: string): boolean {
  return backend.kind !== "inprocess" || backend.entitlements?.({ apiKey: key }) !== undefined;
}

/** The bearer token, undefined when there is no Authorization header, "malformed" otherwise. */
function bearer(header: string | undefined): string | undefined | "malformed" {
  if (header === undefined) return undefined;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m && API_KEY_PATTERN.test(m[1]!) ? m[1] : "malformed";
}
