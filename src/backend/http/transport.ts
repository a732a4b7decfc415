// One upstream attempt over undici: a GET with a deadline over the whole exchange (headers and
// body), a byte cap enforced while streaming, and failures sorted into a few kinds.
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

import type { Dispatcher } from "undici";

export interface AttemptOptions {
  origin: string;
  path: string;
  headers: Record<string, string>;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Deadline of the whole attempt: a body trickling a byte at a time still ends here. */
  deadlineMs: number;
  /** Cap on the (decoded) body of a 2xx answer. */
  maxBytes: number;
  /** Cap on an error body: only a message is wanted from it. */
  maxErrorBytes: number;
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export type AttemptFailureKind = "timeout" | "network" | "too_large" | "decode" | "aborted";

/** An attempt that produced no usable HTTP answer; carries no message from the network layer. */
export class AttemptFailure extends Error {
  constructor(
    readonly kind: AttemptFailureKind,
    readonly reason?: unknown,
  ) {
    super(`upstream attempt failed: ${kind}`);
  }
}

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"]);

class TooLarge extends Error {}

function decoderFor(encoding: string | string[] | undefined): NodeJS.ReadWriteStream | null | "unsupported" {
  const value = (Array.isArray(encoding) ? encoding.join(",") : (encoding ?? "")).trim().toLowerCase();
  if (value === "" || value === "identity") return null;
  if (value === "gzip" || value === "x-gzip") return createGunzip();
  if (value === "deflate") return createInflate();
  if (value === "br") return createBrotliDecompress();
  return "unsupported";
}

/** Reads a body into one buffer, aborting as soon as the decoded size passes `cap`. */
async function readCapped(
  body: NodeJS.ReadableStream,
  encoding: string | string[] | undefined,
  cap: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const decoder = decoderFor(encoding);
  if (decoder === "unsupported") throw new AttemptFailure("decode");
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = async (source: AsyncIterable<Buffer | string>): Promise<void> => {
    for await (const piece of source) {
      const chunk = typeof piece === "string" ? Buffer.from(piece) : piece;
      size += chunk.length;
      if (size > cap) throw new TooLarge();
      chunks.push(chunk);
    }
  };
  try {
    if (decoder) await pipeline(body, decoder, sink, { signal });
    else await pipeline(body, sink, { signal });
  } catch (error) {
    // pipeline may report the sink's own error as a generic abort of the other streams.
    throw size > cap ? new TooLarge() : error;
  }
  return Buffer.concat(chunks, size);
}

/** Drops a body unread; undici reports that as an abort error nobody needs to hear. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on("error", () => {});
  body.destroy();
}

export async function attempt(dispatcher: Dispatcher, options: AttemptOptions): Promise<RawResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort(new AttemptFailure("timeout"));
    },
    Math.max(1, options.deadlineMs),
  );
  const outer = options.signal;
  const forward = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener("abort", forward, { once: true });
  try {
    const response = await dispatcher.request({
      origin: options.origin,
      path: options.path,
      method: "GET",
      headers: options.headers,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      signal: controller.signal,
    });
    const { statusCode: status, headers } = response;
    if (status >= 300 && status < 400) {
      // A redirect is never followed (it could carry the key elsewhere); its body is not wanted.
      discard(response.body);
      return { status, headers, body: Buffer.alloc(0) };
    }
    const ok = status >= 200 && status < 300;
    const cap = ok ? options.maxBytes : options.maxErrorBytes;
    const declared = Number(headers["content-length"]);
    if (ok && Number.isFinite(declared) && declared > cap && !headers["content-encoding"]) {
      discard(response.body);
      throw new AttemptFailure("too_large");
    }
    try {
      const body = await readCapped(response.body, headers["content-encoding"], cap, controller.signal);
      return { status, headers, body };
    } catch (error) {
      if (error instanceof TooLarge && !ok) return { status, headers, body: Buffer.alloc(0) };
      throw error;
    }
  } catch (error) {
    throw classify(error, timedOut, outer);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", forward);
  }
}

function classify(error: unknown, timedOut: boolean, outer: AbortSignal | undefined): AttemptFailure {
  if (error instanceof AttemptFailure) return error;
  if (timedOut) return new AttemptFailure("timeout");
  if (outer?.aborted) return new AttemptFailure("aborted", outer.reason);
  if (error instanceof TooLarge) return new AttemptFailure("too_large");
  const code = typeof error === "object" && error !== null ? String((error as { code?: unknown }).code ?? "") : "";
  if (TIMEOUT_CODES.has(code)) return new AttemptFailure("timeout");
  if (code.startsWith("Z_") || code === "ERR_BROTLI_INVALID_PARAM") return new AttemptFailure("decode");
  return new AttemptFailure("network");
}
