// Typed input errors raised by tools and the mapping of every failure to an isError result whose
// text says what to do next and whether retrying helps.
import type { CallToolResult } from "@modelcontextprotocol/server";

import { ServiceError } from "../backend/types.js";
import { DATE_FORMAT_HINT, metricById, readThrough } from "../catalog/index.js";
import { escapeFormat } from "../echo.js";
import { clientSafe, incidentRef } from "../incidents.js";
import { log } from "../log.js";

export type ToolErrorCode = "invalid_arguments" | "unknown_metric" | "unknown_asset" | "asset_not_supported" | "invalid_parameter";

export interface ToolErrorDetails {
  parameter?: string;
  /** Credits the call had already spent when it was refused (rare: most refusals come before any read). */
  charged?: number;
  /** Did-you-mean candidates, closest first. */
  suggestions?: readonly string[];
}

/**
 * A problem with the caller's arguments, found before any backend call unless `details.charged` says
 * otherwise. The error builder adds "Nothing was charged." to the message; it is not written by hand.
 */
export class ToolInputError extends Error {
  override readonly name = "ToolInputError";
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly details: ToolErrorDetails = {},
  ) {
    super(message);
  }
}

export interface ErrorPayload {
  code: string;
  retryable: boolean;
  message: string;
  status?: number;
  parameter?: string;
  retry_after_s?: number;
  credits_remaining?: number;
  suggestions?: string[];
}

/** Where the failure happened, to name the endpoint in entitlement errors. */
export interface ErrorScope {
  tool: string;
  endpoint?: string;
  /** Redacted from any text that reaches the client, whatever produced it. */
  secret?: string;
}

const MAX_MESSAGE = 2_000;

export function errorResult(error: unknown, scope: ErrorScope): CallToolResult {
  const payload = errorPayload(error, scope);
  return {
    isError: true,
    content: [{ type: "text", text: payload.message }],
    structuredContent: { error: payload },
  };
}

/** The typed error a client sees (also used for resource reads, where it becomes a JSON-RPC error). */
export function errorPayload(error: unknown, scope: ErrorScope): ErrorPayload {
  const payload = toPayload(error, scope);
  // The last guard: nothing of the server (a path, its host or user name) reaches a caller.
  // Input echoed in the message cannot spoof what a host displays around it.
  payload.message = escapeFormat(clientSafe(redact(payload.message, scope.secret))).slice(0, MAX_MESSAGE);
  return payload;
}

function toPayload(error: unknown, scope: ErrorScope): ErrorPayload {
  if (error instanceof ToolInputError) {
    return {
      code: error.code,
      retryable: false,
      message: refusalText(error),
      ...(error.details.parameter !== undefined && { parameter: error.details.parameter }),
      ...(error.details.suggestions?.length && { suggestions: [...error.details.suggestions] }),
    };
  }
  if (error instanceof ServiceError) return servicePayload(error, scope);
  // A client that left or cancelled is routine: one line, no stack (its answer goes nowhere).
  if (abandoned(error)) {
    log.info(`${scope.tool} abandoned: the client left or cancelled the call`);
    return { code: "internal", retryable: true, message: `${scope.tool} was cancelled before it was answered.` };
  }
  // Anything else is our bug or an environment failure: log the detail, show a stable message.
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const ref = incidentRef(detail);
  log.error(`${scope.tool} failed`, { ref, error: redact(detail, scope.secret) });
  return {
    code: "internal",
    retryable: true,
    message: `${scope.tool} failed with an internal error. Retrying may help; if it keeps failing, the server log (stderr) has the details under reference ${ref}.`,
  };
}

/** A refusal's message, saying once and in the same words that it cost nothing (when it did not). */
function refusalText(error: ToolInputError): string {
  if (error.details.charged || /\bnothing was (read or )?charged\b/i.test(error.message)) return error.message;
  const said = error.message.trimEnd();
  return `${said}${/[.?!)]$/.test(said) ? "" : "."} Nothing was charged.`;
}

/** A call ended by its client: aborted (the HTTP client gone), cancelled, or its connection closed. */
function abandoned(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return error.name === "AbortError" || code === "CONNECTION_CLOSED" || code === "ABORT_ERR" || /^Connection closed\b/.test(error.message);
}

function servicePayload(error: ServiceError, scope: ErrorScope): ErrorPayload {
  const { parameter, retryAfterS, creditsRemaining, allowed } = error.details;
  const endpoint = error.details.endpoint ?? scope.endpoint ?? "this endpoint";
  const base: ErrorPayload = {
    code: error.code,
    retryable: error.retryable,
    status: error.status,
    message: error.message,
    ...(parameter !== undefined && { parameter }),
    ...(retryAfterS !== undefined && { retry_after_s: retryAfterS }),
    ...(creditsRemaining !== undefined && { credits_remaining: creditsRemaining }),
    ...(allowed?.length && { suggestions: allowed.slice(0, 12) }),
  };
  base.message = error.details.complete ? error.message : serviceText(error, endpoint);
  return base;
}

const NO_RETRY = "Retrying the same call will not help.";

function serviceText(error: ServiceError, endpoint: string): string {
  const { parameter, retryAfterS, creditsRemaining, allowed } = error.details;
  const said = sentence(error.message);
  switch (error.code) {
    case "unauthorized":
      return `The API key was rejected (401 unauthorized). Configure a valid key (CRYPTO_METRICS_API_KEY, or Authorization: Bearer over HTTP). ${NO_RETRY}`;
    case "conflicting_credentials":
      return `${said} Send the key one way only. ${NO_RETRY}`;
    case "metric_not_allowed": {
      // An endpoint reached through another's entitlement (price): say so, since the key's list names endpoints.
      const asked = error.details.through === undefined ? undefined : metricById(error.details.through);
      const via = asked ? readThrough(asked, "it") : "";
      const may = allowed?.length ? ` This key may call: ${allowed.join(", ")}.` : " Use a metric the key's plan includes.";
      return `This key is not entitled to ${endpoint}${via} (403 metric_not_allowed; nothing was charged).${may} Or use a key that includes ${endpoint}. ${NO_RETRY}`;
    }
    case "credits_exhausted": {
      const left =
        creditsRemaining !== undefined ? `${creditsRemaining} credit${creditsRemaining === 1 ? "" : "s"} left` : "balance too low";
      return `Credits exhausted (402): ${left}, not enough for this call; nothing was charged. Retrying will not help until the key is topped up; a smaller range costs less.`;
    }
    case "rate_limited": {
      const wait = retryAfterS !== undefined ? `Retry after ${retryAfterS} s` : "Retry shortly";
      return `Rate limit reached (429 rate_limited; nothing was charged). ${wait}: the same call will then succeed.`;
    }
    case "invalid_parameter": {
      // The service's own message usually states the accepted values already; add them only when it does not.
      const isDate = parameter === "startDate" || parameter === "endDate";
      const accepted = isDate
        ? said.includes(DATE_FORMAT_HINT)
          ? ""
          : ` Accepted format: ${DATE_FORMAT_HINT}.`
        : allowed?.length && !allowed.every((a) => said.includes(a))
          ? ` Accepted: ${allowed.slice(0, 12).join(", ")}.`
          : "";
      return `${said}${accepted} Fix ${parameter ?? "the argument"} and call again; nothing was charged.`;
    }
    case "range_too_large": {
      // A heatmap is sized by its lookback (it takes no dates); the service's text usually says how already.
      const fix =
        parameter === "lookback"
          ? "Use a shorter lookback or a coarser timeframe."
          : "Narrow startDate/endDate or use a coarser timeframe.";
      return `${said}${/narrow|coarser|larger timeframe/i.test(said) ? "" : ` ${fix}`} Nothing was charged.`;
    }
    case "payload_too_large":
      return `${said} Request a shorter range or a coarser timeframe.`;
    case "asset_not_supported":
    case "not_found":
      return `${said} list_assets shows which assets each metric covers. ${NO_RETRY}`;
    case "upstream_unavailable":
    case "upstream_timeout":
    case "circuit_open": {
      const wait = retryAfterS !== undefined ? `Retry after ${retryAfterS} s.` : "Retry in a little while.";
      return `The data service is unavailable right now (${error.code}). ${wait}`;
    }
    case "upstream_invalid_response":
      return `The data service returned a response that does not match its contract (${said}) ${NO_RETRY}`;
    case "method_not_allowed":
    case "internal":
    default:
      return `${said} (${error.code}).${error.retryable ? " Retrying may help." : ""}`;
  }
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function redact(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join("[redacted]") : text;
}
