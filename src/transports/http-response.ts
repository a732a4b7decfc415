// Answers onto the node response: a web Response from the SDK, written so that an answer whose
// client left is not counted as delivered, and the JSON-RPC error of a request refused before it.
import type { ServerResponse } from "node:http";

import { afterPoll } from "../after-poll.js";
import { clientGone, type Delivery } from "./delivery.js";

/**
 * Before the last write of a charged answer the event loop polls once, so that a client which left
 * while the answer was built is seen gone: the answer is then not written and its charges are
 * refunded (a write would succeed into the closed connection and count as delivered).
 */
async function stillThere(res: ServerResponse, delivery: Delivery): Promise<boolean> {
  if (delivery.charged) await afterPoll();
  if (!clientGone(res)) return true;
  res.destroy();
  return false;
}

/**
 * A web Response onto the node response: a JSON body at once; an SSE stream as it comes, except
 * that an event is held until the next one or the end is known (never past the current turn of
 * the event loop, nor once a charge was made: the last event carries the result), so that a
 * stream of one event (a 2025-era answer) goes out as one write with its headers instead of three.
 */
export async function writeResponse(res: ServerResponse, response: Response, delivery: Delivery): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) return void res.end();
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/event-stream")) {
    const bytes = Buffer.from(await response.arrayBuffer());
    if (await stillThere(res, delivery)) res.end(bytes);
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => undefined));
  let held: Uint8Array | undefined;
  let timer: NodeJS.Immediate | undefined;
  const release = () => {
    if (held && !res.destroyed) res.write(held);
    held = undefined;
  };
  const releaseUncharged = () => {
    if (!delivery.charged) release();
  };
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    if (!value) continue;
    release();
    held = value;
    clearImmediate(timer);
    timer = setImmediate(releaseUncharged);
  }
  clearImmediate(timer);
  if (!(await stillThere(res, delivery))) return;
  if (held && !res.headersSent) {
    res.setHeader("content-length", held.byteLength);
    res.end(held);
  } else {
    release();
    res.end();
  }
}

/** A JSON-RPC error answered before the MCP layer; under the request's id when `body` is one request. */
export function sendError(res: ServerResponse, status: number, code: number, message: string): void;
export function sendError(
  res: ServerResponse,
  status: number,
  error: { code: number; message: string; data?: unknown },
  body: unknown,
): void;
export function sendError(
  res: ServerResponse,
  status: number,
  codeOrError: number | { code: number; message: string; data?: unknown },
  messageOrBody?: unknown,
): void {
  const error = typeof codeOrError === "number" ? { code: codeOrError, message: messageOrBody as string } : codeOrError;
  const id = typeof codeOrError === "number" ? undefined : (messageOrBody as { id?: unknown } | undefined)?.id;
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify({ jsonrpc: "2.0", error, id: typeof id === "string" || typeof id === "number" ? id : null }));
}
