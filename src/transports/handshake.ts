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

declare const __CRYPTO_METRICS_HANDSHAKE__: string | undefined;

export function precomputedHandshake(): Handshake | undefined {
  return typeof __CRYPTO_METRICS_HANDSHAKE__ === "string"
    ? unpackHandshake(JSON.parse(__CRYPTO_METRICS_HANDSHAKE__) as Handshake)
    : undefined;
}

/**
 * The record holds each large value once: the lists of both eras and both backend kinds repeat the
 * same tools, and the bundle carries the record. A repeat becomes REPEAT followed by the JSON path
 * of its first occurrence, which comes earlier in the same depth-first walk (and may itself hold
 * repeats of what came before it: those are unpacked too).
 */
const REPEAT = "\u0000repeat:";
const PACK_MIN_CHARS = 256;

type Json = unknown;

export function packHandshake(handshake: Handshake): Handshake {
  const first = new Map<string, string>();
  const walk = (value: Json, path: string[]): Json => {
    if (value === null || typeof value !== "object") return value;
    const json = JSON.stringify(value);
    if (json.length >= PACK_MIN_CHARS) {
      const seen = first.get(json);
      if (seen !== undefined) return REPEAT + seen;
      first.set(json, JSON.stringify(path));
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, String(i)]));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...path, k])]));
  };
  return walk(handshake, []) as Handshake;
}

export function unpackHandshake(packed: Handshake): Handshake {
  const root = packed as Json;
  const at = (path: string[]): Json => path.reduce<Json>((node, key) => (node as Record<string, Json>)[key], root);
  const walk = (value: Json): Json => {
    if (typeof value === "string" && value.startsWith(REPEAT)) return walk(at(JSON.parse(value.slice(REPEAT.length)) as string[]));
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map(walk);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  };
  return walk(root) as Handshake;
}
