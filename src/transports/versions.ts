// The protocol versions served, and the -32022 owed to a request naming another: the SDK names only
// the 2026-07-28 revision in its own (as server/discover does), so its errors also name the versions
// reached through initialize, and a 2025-style request with an unknown MCP-Protocol-Version header,
// which met "-32602 missing _meta", gets -32022 listing every version.
import { PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";

/** The revisions answered without initialize (stateless, per-request envelope). */
export const MODERN_VERSIONS: readonly string[] = ["2026-07-28"];
/** Every version served, newest first: the 2026-07-28 revision, then those negotiated by initialize. */
export const SERVED_VERSIONS: readonly string[] = [...new Set([...MODERN_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS])];

/** The versions a client negotiates through initialize (the 2025 era and before). */
export const INITIALIZE_VERSIONS: readonly string[] = SERVED_VERSIONS.filter((v) => !MODERN_VERSIONS.includes(v));

export const UNSUPPORTED_VERSION = -32022;

export interface VersionError {
  code: typeof UNSUPPORTED_VERSION;
  message: string;
  data: { supported: string[]; requested: string; initialize?: string[] };
}

const SPEAKS = `this server speaks ${MODERN_VERSIONS.join(", ")} per request, and ${INITIALIZE_VERSIONS.join(", ")} through initialize`;

/**
 * The -32022 for a version not served. A request in the 2026-07-28 style (a per-request envelope)
 * is told the revisions server/discover lists in `supported` (the two must agree) and the ones
 * reached through initialize in `initialize`; a request in the 2025 style, which can only fall back
 * through initialize, is told every version in `supported`.
 */
export function versionError(requested: string, modern: boolean): VersionError {
  const shown = requested.slice(0, 40);
  return {
    code: UNSUPPORTED_VERSION,
    message: `Unsupported protocol version: ${JSON.stringify(shown)}; ${SPEAKS}`,
    data: modern
      ? { supported: [...MODERN_VERSIONS], requested: shown, initialize: [...INITIALIZE_VERSIONS] }
      : { supported: [...SERVED_VERSIONS], requested: shown },
  };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * The version a request names that is not served, and whether it came in the 2026-07-28 style;
 * undefined when everything it names is served. A header that disagrees with the envelope's version
 * is a mismatch (-32020, the SDK's answer), not an unknown version, whichever of the two is unknown.
 * An initialize's own protocolVersion is negotiated, never refused.
 */
export function unservedVersion(header: string | undefined, body: unknown): { version: string; modern: boolean } | undefined {
  const messages = Array.isArray(body) ? body : [body];
  let enveloped = false;
  for (const m of messages) {
    const meta = isObject(m) && isObject(m.params) ? m.params._meta : undefined;
    const named = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
    if (typeof named !== "string") continue;
    enveloped = true;
    // A header and an envelope that disagree are a mismatch (the SDK's -32020), whichever one is unknown.
    if (header !== undefined && header !== named) return undefined;
    if (!SERVED_VERSIONS.includes(named)) return { version: named, modern: true };
  }
  if (!enveloped && header !== undefined && !SERVED_VERSIONS.includes(header)) return { version: header, modern: false };
  return undefined;
}

/** The SDK's -32022 (which lists the per-request revisions), with the versions reached through initialize beside them. */
export function withAllVersions<T>(message: T): T {
  const error = isObject(message) ? message.error : undefined;
  if (!isObject(error) || error.code !== UNSUPPORTED_VERSION) return message;
  const data = isObject(error.data) ? error.data : {};
  const said = typeof error.message === "string" ? error.message : "Unsupported protocol version";
  return { ...message, error: { ...error, message: `${said}; ${SPEAKS}`, data: { ...data, initialize: [...INITIALIZE_VERSIONS] } } };
}
