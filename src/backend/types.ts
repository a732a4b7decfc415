// The narrow seam between tools and data: one Backend interface, one error type. Tools import
// only this file; the in-process service and the HTTP client both implement it.
import { typedHeatmap } from "../catalog/heatmap-typed.js";
import { type Endpoint, PRICE_ID } from "../catalog/index.js";
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
  /**
   * Called once for each charge the call made, with a handle that takes it back whole: the
   * transport calls it when the answer that carries the result cannot be delivered.
   */
  onCharge?: (charge: Charge) => void;
}

/**
 * Credits taken for one answer, and the one way to take them back whole wherever the answer fails to
 * arrive (docs/architecture.md, "The life of a charge"). A second refund does nothing.
 */
export interface Charge {
  readonly credits: number;
  /** Takes the charge back; `reason` ("an undelivered response") names it in the log if that fails. */
  refund(reason: string): Promise<void>;
}

/** A Charge whose refund runs `giveBack` once; a give-back that fails goes to `failed`, never to the caller. */
export function chargeOf(credits: number, giveBack: () => Promise<void>, failed: (reason: string, err: unknown) => void): Charge {
  let done: Promise<void> | undefined;
  return { credits, refund: (reason) => (done ??= giveBack().catch((err: unknown) => failed(reason, err))) };
}

export interface Usage {
  /** Credits this response cost (0 when served from cache or unknown). */
  charged: number;
  /** Balance after the call, when the service reports it. */
  creditsRemaining?: number;
}

export type BackendBody = TimeRecord[] | VariationRecord[] | Heatmap;

/** What a set of requests would cost and what the caller's key can still spend, asked without serving any. */
export interface Quote {
  /** Credits each request would be charged, in order (0 for one the backend would answer from its cache). */
  costs: number[];
  /** The key's balance as the backend knows it now (the real service's: as its last answer reported it). */
  creditsRemaining?: number;
  /** Requests the key's rate window admits now, and seconds until its oldest counted one leaves it. */
  rate?: { remaining: number; resetS: number };
}

/** What every result carries beside its data. */
export interface ResultMeta {
  usage: Usage;
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
 * A backend's answer, one shape per kind. Each carries the service's JSON form as `body`; where a
 * backend has a typed form (columns, candles, a typed heatmap) without parsing, digests read that,
 * and `body` is then made from it only when something reads it (withLazy).
 */
export type BackendResult = SeriesResult | CandlesResult | HeatmapResult | VariationResult;
export type ResultKind = BackendResult["kind"];

/** A series or OHLCV endpoint's records; `columns` when the backend has them (the in-process one). */
export interface SeriesResult extends ResultMeta {
  readonly kind: "series";
  readonly body: TimeRecord[];
  columns?: SeriesColumns;
}

/** Price: OHLC candles, and as the records `{time, open, high, low, close}`. */
export interface CandlesResult extends ResultMeta {
  readonly kind: "candles";
  readonly body: TimeRecord[];
  candles: CandleColumns;
}

/** The heatmap endpoint's answer, also as typed arrays (every backend has them). */
export interface HeatmapResult extends ResultMeta {
  readonly kind: "heatmap";
  readonly body: Heatmap;
  heatmap: TypedHeatmap;
}

/** A metrics-variation; `candles`: the daily closes of the days it describes, when the backend has them. */
export interface VariationResult extends ResultMeta {
  readonly kind: "variation";
  readonly body: VariationRecord[];
  candles?: CandleColumns;
}

/** The kind of result an endpoint answers with (price's candles are asked by the price id). */
export function resultKind(endpoint: Endpoint): ResultKind {
  if (endpoint.id === PRICE_ID) return "candles";
  return endpoint.kind === "heatmap" ? "heatmap" : endpoint.kind === "variation" ? "variation" : "series";
}

/** A result read from a JSON body (the real service's, or a cached one): its typed heatmap made here, once. */
export function resultOfBody(endpoint: Endpoint, body: BackendBody, meta: ResultMeta): SeriesResult | HeatmapResult | VariationResult {
  const kind = resultKind(endpoint);
  if (kind === "heatmap") return { kind, body: body as Heatmap, heatmap: typedHeatmap(body as Heatmap), ...meta };
  if (kind === "variation") return { kind, body: body as VariationRecord[], ...meta };
  return { kind: "series", body: body as TimeRecord[], ...meta };
}

/** The result as the kind the caller asked for; another kind is the backend's fault (502). */
export function resultAs<K extends ResultKind>(result: BackendResult, kind: K, endpoint: string): Extract<BackendResult, { kind: K }> {
  if (result.kind !== kind)
    throw new ServiceError(502, "upstream_invalid_response", `${endpoint} returned ${result.kind}, not ${kind}`, { endpoint });
  return result as Extract<BackendResult, { kind: K }>;
}

/** Candles as the records a client reads: `{time, open, high, low, close}`. */
export function candleRecords(c: CandleColumns): TimeRecord[] {
  return Array.from(c.times, (t, i) => ({
    time: new Date(t).toISOString(),
    open: c.open[i]!,
    high: c.high[i]!,
    low: c.low[i]!,
    close: c.close[i]!,
  }));
}

/**
 * `target` with `key` made by `build` on first read, once, as an enumerable property: a result's
 * JSON body built from its typed form only for a reader of it.
 */
export function withLazy<T extends object, K extends string, V>(target: T, key: K, build: () => V): T & { readonly [P in K]: V } {
  let value: V | undefined;
  let built = false;
  return Object.defineProperty(target, key, {
    enumerable: true,
    get: () => {
      if (!built) [value, built] = [build(), true];
      return value;
    },
  }) as T & { readonly [P in K]: V };
}

/**
 * Where a backend's figures come from, stated in every answer: the embedded simulation (calibrated to
 * real history through the start of its last calibrated day, epoch ms) or a real service at a host.
 */
export type DataOrigin = { kind: "simulated"; calibratedThroughMs: number } | { kind: "service"; host: string };

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
  /**
   * What `requests` would cost and the key's balance and rate window, so that a call made of many
   * reads can be refused before the first one is charged. Nothing is charged or counted; a request
   * serving would refuse (restriction, parameters, coverage, unknown key) throws as serving would.
   */
  quote?(requests: readonly BackendRequest[], context?: BackendContext): Promise<Quote>;
  /**
   * The request answered again as it was at `asOfMs` (epoch ms, the service's "now" of an earlier,
   * charged answer), for a view loading that answer's data: nothing is charged and the rate window
   * is not touched. The key must still be valid and entitled. The embedded service recomputes the
   * answer; the real service's client reads its response cache only (a miss is refused).
   */
  replay?(request: BackendRequest, asOfMs: number, context?: BackendContext): Promise<BackendResult>;
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
  /** The message already says all a caller needs (a tool's own refusal before any read): shown as is. */
  complete?: boolean;
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
