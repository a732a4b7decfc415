// The protocol versions served, and the -32022 owed to a request naming another: the SDK names only
// the 2026-07-28 revision in its own, so a client of the 2025 era would not learn it can fall back,
// and a 2025-style request with an unknown MCP-Protocol-Version header met "-32602 missing _meta".
import { PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";

/** The revisions answered without initialize (stateless, per-request envelope). */
export const MODERN_VERSIONS: readonly string[] = ["2026-07-28"];
/** Every version served, newest first: the 2026-07-28 revision, then those negotiated by initialize. */
export const SERVED_VERSIONS: readonly string[] = [...new Set([...MODERN_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS])];

export const UNSUPPORTED_VERSION = -32022;

export interface VersionError {
  code: typeof UNSUPPORTED_VERSION;
  message: string;
  data: { supported: string[]; requested: string };
}

export function versionError(requested: string): VersionError {
  const shown = requested.slice(0, 40);
  return {
    code: UNSUPPORTED_VERSION,
    message: `Unsupported protocol version: ${JSON.stringify(shown)}; this server speaks ${SERVED_VERSIONS.join(", ")}`,
    data: { supported: [...SERVED_VERSIONS], requested: shown },
  };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * The version a request names that is not served, from its MCP-Protocol-Version header (either era)
 * or its `_meta` envelope (2026-07-28); undefined when everything it names is served. An
 * initialize's own protocolVersion is negotiated, never refused.
 */
export function unservedVersion(header: string | undefined, body: unknown): string | undefined {
  if (header !== undefined && !SERVED_VERSIONS.includes(header)) return header;
  const messages = Array.isArray(body) ? body : [body];
  for (const m of messages) {
    const meta = isObject(m) && isObject(m.params) ? m.params._meta : undefined;
    const named = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
    if (typeof named === "string" && !SERVED_VERSIONS.includes(named)) return named;
  }
  return undefined;
}

/** A -32022 error that lists fewer versions than are served, listing them all. */
export function withAllVersions<T>(message: T): T {
  const error = isObject(message) ? message.error : undefined;
  if (!isObject(error) || error.code !== UNSUPPORTED_VERSION) return message;
  const data = isObject(error.data) ? error.data : {};
  return { ...message, error: { ...error, data: { ...data, supported: [...SERVED_VERSIONS] } } };
}
