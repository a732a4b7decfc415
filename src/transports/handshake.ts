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
  byKind: Record<"inprocess" | "http", {
    initialize: Record<string, unknown>;
    lists: Partial<Record<ListMethod, Record<string, unknown>>>;
    modern: Partial<Record<ModernMethod, Record<string, unknown>>>;
  }>;
}

/** What a client asks right after initialize; none of it depends on the caller or on data. */
export const LIST_METHODS = ["tools/list", "prompts/list", "resources/list", "resources/templates/list"] as const;
export type ListMethod = (typeof LIST_METHODS)[number];
/** What a 2026-07-28 client asks first; none of it depends on the caller or on data either. */
export const MODERN_METHODS = ["server/discover", ...LIST_METHODS] as const;
export type ModernMethod = (typeof MODERN_METHODS)[number];

declare const __CRYPTO_METRICS_HANDSHAKE__: string | undefined;

export function precomputedHandshake(): Handshake | undefined {
  return typeof __CRYPTO_METRICS_HANDSHAKE__ === "string" ? (JSON.parse(__CRYPTO_METRICS_HANDSHAKE__) as Handshake) : undefined;
}
