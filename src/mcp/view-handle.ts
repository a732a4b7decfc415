// Handles to a view's data: what an answer's view needs to load its full data later through
// view_data, signed so that no server memory is needed to trust it. A handle names one charged call
// (tool, arguments, the service's "now"), the caller it was made for and the exact bytes it stood for;
// it cannot be edited into a read of other data, and it expires.
import type * as Crypto from "node:crypto";

// Taken when a handle is made or read, not imported: the ESM import of node:crypto builds its facade
// (webcrypto included) at load, and a one-shot `call`, which makes no handle, would pay for it.
let crypto: typeof Crypto | undefined;
const nodeCrypto = () => (crypto ??= process.getBuiltinModule("node:crypto"));

const VERSION = "v1";
/** Bytes of the HMAC-SHA256 kept in a handle: 128 bits, beyond forging by trial. */
const MAC_BYTES = 16;

export interface ViewClaim {
  /** The tool whose answer the view draws. */
  tool: string;
  /** Its validated arguments, as the charged call ran them. */
  args: Record<string, unknown>;
  /** The service's "now" when the call was answered (epoch ms): a replay is the same answer. */
  asOfMs: number;
  /** Whose call it was: a keyed digest of the caller's key (never the key). */
  caller: string;
  /** When the handle stops being honoured (epoch ms). */
  expiresMs: number;
  /** Length and SHA-256 (base64url, 128 bits) of the view's JSON the call produced. */
  bytes: number;
  sha: string;
}

export type HandleProblem = "malformed" | "forged" | "expired" | "foreign";

export class ViewHandleError extends Error {
  override readonly name = "ViewHandleError";
  constructor(
    readonly problem: HandleProblem,
    message: string,
  ) {
    super(message);
  }
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString("base64url");

function mac(secret: Buffer, body: string): Buffer {
  return nodeCrypto().createHmac("sha256", secret).update(`view-data/${VERSION}\n${body}`).digest().subarray(0, MAC_BYTES);
}

/** The caller's identity in a handle: an HMAC of the key under the server's secret, never reversible without it. */
export function callerTag(secret: Buffer, key: string | undefined): string {
  return nodeCrypto()
    .createHmac("sha256", secret)
    .update(`caller\n${key ?? ""}`)
    .digest()
    .subarray(0, 12)
    .toString("base64url");
}

export function contentSha(json: string): string {
  return nodeCrypto().createHash("sha256").update(json).digest().subarray(0, 16).toString("base64url");
}

export function signHandle(secret: Buffer, claim: ViewClaim): string {
  const body = b64(JSON.stringify([claim.tool, claim.args, claim.asOfMs, claim.caller, claim.expiresMs, claim.bytes, claim.sha]));
  return `${VERSION}.${body}.${b64(mac(secret, body))}`;
}

/**
 * The claim of a handle this server signed, for this caller, not yet expired; anything else is a
 * ViewHandleError naming which of those it is (and nothing about what the handle stood for).
 */
export function verifyHandle(secret: Buffer, handle: string, caller: string, nowMs: number): ViewClaim {
  const parts = handle.split(".");
  if (parts.length !== 3 || parts[0] !== VERSION || !/^[\w-]+$/.test(parts[1]!) || !/^[\w-]{22}$/.test(parts[2]!))
    throw new ViewHandleError(
      "malformed",
      "handle is not a view handle (it may be truncated): pass the handle of a result's view unchanged",
    );
  const given = Buffer.from(parts[2]!, "base64url");
  if (!nodeCrypto().timingSafeEqual(given, mac(secret, parts[1]!)))
    throw new ViewHandleError("forged", "handle was not issued by this server or was altered: load the view again from a new tool result");
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
  } catch {
    fields = undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 7) throw new ViewHandleError("malformed", "handle is not a view handle");
  const [tool, args, asOfMs, who, expiresMs, bytes, sha] = fields as [
    string,
    Record<string, unknown>,
    number,
    string,
    number,
    number,
    string,
  ];
  if (who !== caller)
    throw new ViewHandleError("foreign", "handle belongs to another caller's result: each caller loads the views of its own results");
  if (!(nowMs < expiresMs))
    throw new ViewHandleError("expired", "handle has expired: ask for the chart again (a new tool call) to load its detail");
  return { tool, args, asOfMs, caller: who, expiresMs, bytes, sha };
}
