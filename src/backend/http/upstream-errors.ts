// Maps upstream error answers onto our ServiceError codes. Upstream text is untrusted: only a
// sanitized, length-capped message and a few allow-listed details pass, with any key redacted.
import { ENDPOINTS } from "../../catalog/index.js";
import { type ErrorCode, type ErrorDetails, ServiceError } from "../types.js";

const MAX_MESSAGE = 300;
const MAX_DETAIL = 64;
const MAX_ALLOWED = 50;

// C0/C1 controls and bidi overrides can hide or reorder text shown to a model or a terminal.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
// Tokens shaped like API keys (ak-…, ck_…, sk_live_…, long random strings) and key-carrying
// header or query fragments. A token needs letters and digits, so metric names stay readable.
const KEY_LIKE = /\b(?:[a-z]{2,4}[-_][A-Za-z0-9_-]{12,}|[A-Za-z0-9_-]{32,})\b/g;
const KEY_FIELD = /((?:x-api-key|api[_-]?key|apikey|authorization|token)["']?\s*[:=]\s*["']?)(?:bearer\s+)?[^\s"',;&]{4,}/gi;
const BEARER = /(bearer\s+)[^\s"',;&]{8,}/gi;

const CATALOG_WORDS = new Set(ENDPOINTS.flatMap((e) => [e.segment, e.field]));

function keyShaped(token: string): string {
  return /\d/.test(token) && /[a-z]/i.test(token) && !CATALOG_WORDS.has(token) ? "[redacted]" : token;
}

/** Removes every occurrence of the given secrets, and anything shaped like a key, from text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    // In any letter case: a service may echo the key upper- or lower-cased.
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
      out = out.replace(new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), "[redacted]");
    }
  }
  return out.replace(KEY_FIELD, "$1[redacted]").replace(BEARER, "$1[redacted]").replace(KEY_LIKE, keyShaped);
}

/** Untrusted text made safe to show: normalized, controls stripped, secrets redacted, capped. */
export function sanitize(text: string, secrets: readonly string[], max = MAX_MESSAGE): string {
  const clean = redact(text.normalize("NFC").replace(CONTROL, " "), secrets).replace(/\s+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

interface ParsedError {
  code?: string;
  message?: string;
  parameter?: string;
  allowed?: string[];
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/**
 * Pulls code and message out of the shapes seen in the wild: ours `{error:{code,message}}`,
 * `{message}`, `{error:"…"}`, `{detail}`, `{msg}`, CoinGecko/CMC `{status:{error_message}}`,
 * any of them wrapped in `{data: …}`. Anything else yields nothing.
 */
export function parseErrorBody(body: Buffer, contentType: string): ParsedError {
  if (body.length === 0 || !/json/i.test(contentType)) return {};
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    return {};
  }
  for (let depth = 0; depth < 3 && value && typeof value === "object" && !Array.isArray(value); depth++) {
    const o = value as Record<string, unknown>;
    const nested = o.error ?? o.status;
    if (nested && typeof nested === "object" && !Array.isArray(nested)) {
      const e = nested as Record<string, unknown>;
      const message = str(e.message) ?? str(e.error_message) ?? str(e.detail);
      if (message || str(e.code)) {
        const allowed = Array.isArray(e.allowed) ? e.allowed.filter((a): a is string => typeof a === "string") : undefined;
        return { code: str(e.code), message, parameter: str(e.parameter), allowed };
      }
    }
    const message = str(o.message) ?? str(o.error) ?? str(o.detail) ?? str(o.msg) ?? str(o.title);
    if (message) return { code: str(o.code), message };
    value = o.data;
  }
  return {};
}

// Codes an upstream may name for a status; a code outside its status's list is ignored.
const CODES_BY_STATUS: Record<number, readonly ErrorCode[]> = {
  400: ["invalid_parameter", "conflicting_credentials", "range_too_large"],
  401: ["unauthorized"],
  402: ["credits_exhausted"],
  403: ["metric_not_allowed"],
  404: ["asset_not_supported", "not_found"],
  429: ["rate_limited", "credits_exhausted"],
};

export interface ErrorContext {
  status: number;
  body: Buffer;
  contentType: string;
  secrets: readonly string[];
  endpoint: string;
  asset: string;
  retryAfterS?: number;
  creditsRemaining?: number;
}

/** What each status's error is made of. */
interface Refusal {
  ctx: ErrorContext;
  parsed: ParsedError;
  /** The upstream's own message, sanitized; empty when it sent none. */
  said: string;
  /** `said` as a sentence to append to ours, or nothing. */
  upstreamSaid: string;
  /** The code the upstream named, when its status may carry it. */
  code: ErrorCode | undefined;
  details: ErrorDetails;
}

function addAllowed({ parsed, details, ctx }: Refusal): void {
  if (parsed.allowed) details.allowed = parsed.allowed.slice(0, MAX_ALLOWED).map((a) => sanitize(a, ctx.secrets, MAX_DETAIL));
}

function invalidParameter(r: Refusal): ServiceError {
  const { ctx, parsed, details } = r;
  if (parsed.parameter) details.parameter = sanitize(parsed.parameter, ctx.secrets, MAX_DETAIL);
  addAllowed(r);
  return new ServiceError(
    400,
    r.code ?? "invalid_parameter",
    r.said || `The upstream rejected a parameter of ${ctx.endpoint} (${ctx.status}); check the dates and option values.`,
    details,
  );
}

function creditsExhausted({ ctx, upstreamSaid, details }: Refusal): ServiceError {
  return new ServiceError(
    402,
    "credits_exhausted",
    `The API key has no credits left for ${ctx.endpoint} (upstream ${ctx.status}); wait for the billing cycle to reset or use another key.${upstreamSaid}`,
    details,
  );
}

function rateLimited({ ctx, details }: Refusal): ServiceError {
  if (ctx.retryAfterS !== undefined) details.retryAfterS = ctx.retryAfterS;
  const when = ctx.retryAfterS !== undefined ? `retry after ${ctx.retryAfterS} s` : "retry in about 25 s";
  return new ServiceError(429, "rate_limited", `The upstream rate limit was reached for this API key; ${when}.`, details);
}

// The statuses with an error of their own; any other is a failing service (5xx), a redirect
// (3xx, not followed) or unexpected.
const BY_STATUS: Record<number, (r: Refusal) => ServiceError> = {
  400: invalidParameter,
  422: invalidParameter,
  401: ({ details }) =>
    new ServiceError(
      401,
      "unauthorized",
      "The upstream rejected the API key (401): check CRYPTO_METRICS_API_KEY (it must be a valid key for the service at CRYPTO_METRICS_BASE_URL).",
      details,
    ),
  402: creditsExhausted,
  403: (r) => {
    // The ids the key may call, when the service lists them.
    addAllowed(r);
    return new ServiceError(
      403,
      "metric_not_allowed",
      `The API key's plan does not include ${r.ctx.endpoint} (upstream 403); use an endpoint the plan covers or upgrade the key.${r.upstreamSaid}`,
      r.details,
    );
  },
  404: (r) => {
    const { ctx, upstreamSaid } = r;
    // The upstream's did-you-mean candidates, if it sends any.
    addAllowed(r);
    return new ServiceError(
      404,
      r.code ?? "asset_not_supported",
      r.code === "not_found"
        ? `The upstream has no such path for ${ctx.endpoint} (404).${upstreamSaid}`
        : `Asset "${ctx.asset}" is not covered by ${ctx.endpoint} upstream (404); list_assets shows coverage.${upstreamSaid}`,
      r.details,
    );
  },
  408: ({ details }) =>
    new ServiceError(504, "upstream_timeout", "The upstream timed out (408) on every attempt; retry later or narrow the range.", details),
  // A 429 that names credits_exhausted is the plan running dry, not a rate limit.
  429: (r) => (r.code === "credits_exhausted" ? creditsExhausted(r) : rateLimited(r)),
};

/** The ServiceError for a final (not retried, or retries exhausted) upstream error status. */
export function errorFromStatus(ctx: ErrorContext): ServiceError {
  const parsed = parseErrorBody(ctx.body, ctx.contentType);
  const said = parsed.message ? sanitize(parsed.message, ctx.secrets) : "";
  const upstreamSaid = said ? ` Upstream said: "${said}"` : "";
  const named = parsed.code as ErrorCode | undefined;
  const code = named && CODES_BY_STATUS[ctx.status]?.includes(named) ? named : undefined;
  const details: ErrorDetails = { endpoint: ctx.endpoint, asset: ctx.asset };
  if (ctx.creditsRemaining !== undefined) details.creditsRemaining = ctx.creditsRemaining;
  const { status } = ctx;
  const own = BY_STATUS[status];
  if (own) return own({ ctx, parsed, said, upstreamSaid, code, details });
  if (status >= 500) {
    if (ctx.retryAfterS !== undefined) details.retryAfterS = ctx.retryAfterS;
    return new ServiceError(
      502,
      "upstream_unavailable",
      `The upstream service is failing (${status}) on every attempt; retry later.`,
      details,
    );
  }
  if (status >= 300 && status < 400) {
    return new ServiceError(
      502,
      "upstream_invalid_response",
      `The upstream answered with a redirect (${status}), which is not followed; check CRYPTO_METRICS_BASE_URL.`,
      details,
    );
  }
  return new ServiceError(
    502,
    "upstream_invalid_response",
    `The upstream answered with an unexpected status (${status}).${upstreamSaid}`,
    details,
  );
}
