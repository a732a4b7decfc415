// The narrow seam between tools and data: one Backend interface, one error type. Tools import
// only this file; the in-process service and the HTTP client both implement it.
import type { CandleColumns, Heatmap, SeriesColumns, TimeRecord, TypedHeatmap, VariationRecord } from "../catalog/responses.js";

export type { CandleColumns, Heatmap, SeriesColumns, TimeRecord, TypedHeatmap, VariationRecord };

export interface BackendRequest {
  /** Catalog endpoint id, e.g. `lifespan/Lth_mvrv` or `liquidation_levels/heatmap`. */
  endpoint: string;
  /** Lowercase ticker (a query parameter for the heatmap, a path segment elsewhere). */
  asset: string;
  /** Query parameters other than the asset, spec names, already strings; undefined means omitted. */
  query: Readonly<Record<string, string | undefined>>;
}

export interface RequestSpan {
  /** The asked bounds, epoch ms (the end capped at now). */
  startMs: number;
  endMs: number;
  /** First and last bucket of the history as of now; null when the series has no data at all. */
  history: { firstMs: number; lastMs: number } | null;
}

export interface ProgressUpdate {
  done: number;
  total: number;
  message?: string;
}

/** What an API key may be: 1–512 printable ASCII characters without spaces (it travels in a header). */
export const API_KEY_PATTERN = /^[\x21-\x7e]{1,512}$/;

export interface BackendContext {
  /** The caller's key. Never logged, never echoed; the HTTP backend sends it as X-Api-Key. */
  apiKey?: string;
  signal?: AbortSignal;
  /** Called while a long request is paged. */
  onProgress?: (update: ProgressUpdate) => void;
}

export interface Usage {
  /** Credits this response cost (0 when served from cache or unknown). */
  charged: number;
  /** Balance after the call, when the service reports it. */
  creditsRemaining?: number;
}

export type BackendBody = TimeRecord[] | VariationRecord[] | Heatmap;

export interface BackendResult<T extends BackendBody = BackendBody> {
  body: T;
  usage: Usage;
  /**
   * The same series as columns, when the backend has them without parsing (the in-process one):
   * digests read these, and `body` is then only built if something reads it.
   */
  columns?: SeriesColumns;
  /** The heatmap endpoint's answer as typed arrays: every backend returns it with the heatmap. */
  heatmap?: TypedHeatmap;
  /**
   * Price candles (endpoint `price`): every backend returns them as columns. With a metrics-variation,
   * the asset's daily candles of the days it describes, when the backend has them (the in-process one).
   */
  candles?: CandleColumns;
  /**
   * First and last bucket starts (epoch ms) the series has for this asset over its whole history,
   * whatever range was asked, when the backend knows them: digests say where data begins or ends.
   */
  extent?: { firstMs: number; lastMs: number };
  /** The service's "now" (epoch ms) when the result was produced: a bucket ending after it is partial. */
  asOfMs?: number;
  /** When the real service answered (epoch ms; a cached answer keeps its time). */
  receivedMs?: number;
}

/**
 * Where a backend's figures come from, stated in every answer: the embedded simulation (calibrated to
 * real history through the start of its last calibrated day, epoch ms) or a real service at a host.
 */
export type DataOrigin =
  | { kind: "simulated"; calibratedThroughMs: number }
  | { kind: "service"; host: string };

export interface Backend {
  readonly kind: "inprocess" | "http";
  readonly origin: DataOrigin;
  fetch(request: BackendRequest, context?: BackendContext): Promise<BackendResult>;
  /**
   * Endpoint ids the caller's key may call: null when it may call every one, undefined when the
   * backend cannot tell before calling (the real service publishes no entitlements).
   */
  entitlements?(context?: BackendContext): readonly string[] | null | undefined;
  /**
   * The range a records request asks and where its series' history lies, when the backend knows
   * both without serving it (the embedded service); undefined otherwise, or for a request that
   * serving would refuse (it then says why). Asking costs nothing.
   */
  span?(request: BackendRequest): RequestSpan | undefined;
  close(): Promise<void>;
}

/**
 * Error codes of the service (DESIGN §4: one code per status and situation), the REST face's own
 * refusals before a request reaches the service (a body over the limit, a Host or Origin it does not
 * answer to), and those of talking to an upstream or the metering store.
 */
export type ErrorCode =
  | "unauthorized"
  | "conflicting_credentials"
  | "metric_not_allowed"
  | "invalid_parameter"
  | "asset_not_supported"
  | "not_found"
  | "method_not_allowed"
  | "rate_limited"
  | "credits_exhausted"
  | "range_too_large"
  | "payload_too_large"
  /** 403 of the REST face for a Host (or Origin) naming another host; §4's 403 for a key is metric_not_allowed. */
  | "forbidden"
  | "upstream_unavailable"
  | "upstream_timeout"
  | "upstream_invalid_response"
  | "circuit_open"
  | "store_unavailable"
  | "internal";

export interface ErrorDetails {
  /** The offending parameter, for invalid_parameter and range_too_large. */
  parameter?: string;
  /** Seconds until a retry can succeed (rate_limited, circuit_open, upstream 429). */
  retryAfterS?: number;
  creditsRemaining?: number;
  /** Accepted values or suggestions the message refers to. */
  allowed?: readonly string[];
  endpoint?: string;
  /** The endpoint asked for, when the refusal names the gate it is reached through (price: the heatmap). */
  through?: string;
  asset?: string;
}

const RETRYABLE: ReadonlySet<ErrorCode> = new Set([
  "rate_limited",
  "upstream_unavailable",
  "upstream_timeout",
  "circuit_open",
  "store_unavailable",
  "internal",
]);

/** A failure with an HTTP status, a stable code and a message that says how to fix it. */
export class ServiceError extends Error {
  override readonly name = "ServiceError";
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }

  /** The service's error body: `{"error": {status, code, message, ...details}}`. */
  toBody(): { error: Record<string, unknown> } {
    const { parameter, retryAfterS, creditsRemaining, allowed } = this.details;
    return {
      error: {
        status: this.status,
        code: this.code,
        message: this.message,
        ...(parameter !== undefined && { parameter }),
        ...(retryAfterS !== undefined && { retry_after_s: retryAfterS }),
        ...(creditsRemaining !== undefined && { credits_remaining: creditsRemaining }),
        ...(allowed !== undefined && { allowed }),
      },
    };
  }
}
