// The first answers of every stdio session — initialize and the tools, prompts and resources lists
// of the 2025 era; server/discover and the same lists of 2026-07-28 — recorded from the real server
// at build time (scripts/handshake.ts) and compiled into dist/, so the stdio front can give them
// while the SDK, zod and the tools are still loading. Absent when running from source.

export interface Handshake {
  latestProtocolVersion: string;
  supportedProtocolVersions: string[];
  /** The 2026-07-28 revisions, answered without initialize. */
  modernProtocolVersions: string[];
  /**
   * By backend kind: the initialize result without its protocolVersion, and each list's result; in
   * `modern`, the 2026-07-28 results of server/discover and the lists for a client that declares
   * no extension.
   */
  byKind: Record<
    "inprocess" | "http",
    {
      initialize: Record<string, unknown>;
      lists: Partial<Record<ListMethod, Record<string, unknown>>>;
      modern: Partial<Record<ModernMethod, Record<string, unknown>>>;
    }
  >;
}

/** What a client asks right after initialize; none of it depends on the caller or on data. */
export const LIST_METHODS = ["tools/list", "prompts/list", "resources/list", "resources/templates/list"] as const;
export type ListMethod = (typeof LIST_METHODS)[number];
/** What a 2026-07-28 client asks first; none of it depends on the caller or on data either. */
export const MODERN_METHODS = ["server/discover", ...LIST_METHODS] as const;
export type ModernMethod = (typeof MODERN_METHODS)[number];

/**
 * The bundle's form of the record: every answer as its JSON text, ready to write. The lists of both
 * eras and both backend kinds repeat the same tools, so a text holds each large value once: a value
 * seen before (by its JSON, at least PIECE_MIN_CHARS long) becomes a reference to a shared piece,
 * NUL + its number + NUL (JSON text never holds a raw NUL: JSON.stringify escapes it). Expanding is
 * string replacement: the front writes an answer without parsing, walking or serializing objects
 * (walking the whole record's objects cost ~5 ms of every start on Node 24).
 */
export interface WireHandshake {
  latestProtocolVersion: string;
  supportedProtocolVersions: string[];
  modernProtocolVersions: string[];
  /** Shared values' JSON texts, which may themselves refer to earlier pieces. */
  pieces: string[];
  byKind: Record<"inprocess" | "http", WireAnswers>;
}

export interface WireAnswers {
  /** The initialize result's JSON text, without its protocolVersion (the client's request decides it). */
  initialize: string;
  lists: Partial<Record<ListMethod, string>>;
  modern: Partial<Record<ModernMethod, string>>;
}

const PIECE_MIN_CHARS = 256;
const REFERENCE = /\u0000(\d+)\u0000/g;

type Json = unknown;

export function packHandshake(handshake: Handshake): WireHandshake {
  const pieces: string[] = [];
  const index = new Map<string, number>();
  // The same text as JSON.stringify gives, with repeated large values replaced by references.
  const text = (value: Json): string => {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    const whole = JSON.stringify(value);
    const seen = whole.length >= PIECE_MIN_CHARS ? index.get(whole) : undefined;
    if (seen !== undefined) return `\u0000${seen}\u0000`;
    const packed = Array.isArray(value)
      ? `[${value.map(text).join(",")}]`
      : `{${Object.entries(value)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`)
          .join(",")}}`;
    if (whole.length < PIECE_MIN_CHARS) return packed;
    index.set(whole, pieces.push(packed) - 1);
    return `\u0000${pieces.length - 1}\u0000`;
  };
  const answers = (kind: Handshake["byKind"]["inprocess"]): WireAnswers => ({
    initialize: text(kind.initialize),
    lists: Object.fromEntries(Object.entries(kind.lists).map(([m, v]) => [m, text(v)])),
    modern: Object.fromEntries(Object.entries(kind.modern).map(([m, v]) => [m, text(v)])),
  });
  const { latestProtocolVersion, supportedProtocolVersions, modernProtocolVersions } = handshake;
  const byKind = { inprocess: answers(handshake.byKind.inprocess), http: answers(handshake.byKind.http) };
  return { latestProtocolVersion, supportedProtocolVersions, modernProtocolVersions, pieces, byKind };
}

/** An answer's JSON text with every reference replaced by its piece (each piece expanded once). */
export function expander(pieces: readonly string[]): (text: string) => string {
  const expanded: string[] = [];
  const expand = (text: string): string => text.replace(REFERENCE, (_, n: string) => (expanded[Number(n)] ??= expand(pieces[Number(n)]!)));
  return expand;
}

declare const __CRYPTO_METRICS_HANDSHAKE__: string | undefined;

/** The record compiled into dist/; undefined when running from source. */
export function precomputedHandshake(): WireHandshake | undefined {
  return typeof __CRYPTO_METRICS_HANDSHAKE__ === "string" ? (JSON.parse(__CRYPTO_METRICS_HANDSHAKE__) as WireHandshake) : undefined;
}
