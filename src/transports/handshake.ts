// The first answers of every stdio session — initialize and the tools, prompts and resources lists —
// recorded from the real
// server at build time (scripts/handshake.ts) and compiled into dist/, so the stdio front can give
// them while the SDK, zod and the tools are still loading. Absent when running from source.

export interface Handshake {
  latestProtocolVersion: string;
  supportedProtocolVersions: string[];
  /** By backend kind: the initialize result without its protocolVersion, and each list's result. */
  byKind: Record<"inprocess" | "http", { initialize: Record<string, unknown>; lists: Partial<Record<ListMethod, Record<string, unknown>>> }>;
}

/** What a client asks right after initialize; none of it depends on the caller or on data. */
export const LIST_METHODS = ["tools/list", "prompts/list", "resources/list", "resources/templates/list"] as const;
export type ListMethod = (typeof LIST_METHODS)[number];

declare const __CRYPTO_METRICS_HANDSHAKE__: string | undefined;

export function precomputedHandshake(): Handshake | undefined {
  return typeof __CRYPTO_METRICS_HANDSHAKE__ === "string" ? (JSON.parse(__CRYPTO_METRICS_HANDSHAKE__) as Handshake) : undefined;
}
