// One logical upstream call: attempts under the circuit breaker, retried with full-jitter
// backoff or the upstream's Retry-After, within one budget, ending in a body or a ServiceError.
import type { Dispatcher } from "undici";

import { creditCost } from "../../catalog/index.js";
import { type BackendBody, ServiceError, type Usage } from "../types.js";
import type { CircuitBreaker } from "./breaker.js";
import type { ResolvedOptions } from "./options.js";
import type { UpstreamRequest } from "./request.js";
import { parseSuccess } from "./response.js";
import { backoffMs, isRetryableStatus, parseRetryAfter, toRetryAfterS } from "./retry.js";
import { attempt, AttemptFailure, type RawResponse } from "./transport.js";
import { errorFromStatus } from "./upstream-errors.js";

export interface Fetched {
  body: BackendBody;
  /** Decoded size of the answer, for the cache's byte bound. */
  bytes: number;
  usage: Usage;
}

/** An error body is only read for its message. */
const MAX_ERROR_BYTES = 64 * 1024;

function header(raw: RawResponse, name: string): string | undefined {
  const value = raw.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function creditsRemaining(raw: RawResponse): number | undefined {
  const text = header(raw, "x-credits-remaining")?.trim();
  const value = text && /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

function charged(raw: RawResponse, request: UpstreamRequest, body: BackendBody): number {
  const text = header(raw, "x-credits-charged")?.trim();
  if (text && /^\d+$/.test(text)) return Number(text);
  // The upstream publishes no costs; the catalog's documented defaults are the best estimate.
  return creditCost(request.endpoint, Array.isArray(body) ? body.length : 0);
}

/** Asks for compressed JSON; the key travels only in its header. */
function requestHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json", "accept-encoding": "gzip, deflate, br" };
  if (apiKey) headers["x-api-key"] = apiKey;
  return headers;
}

function fetched(raw: RawResponse, request: UpstreamRequest): Fetched {
  const body = parseSuccess(request.endpoint, raw);
  const remainingCredits = creditsRemaining(raw);
  const usage: Usage = { charged: charged(raw, request, body) };
  if (remainingCredits !== undefined) usage.creditsRemaining = remainingCredits;
  return { body, bytes: raw.body.length, usage };
}

/** The error a non-2xx answer stands for, with the retry hint and credits it carried. */
function refusal(raw: RawResponse, request: UpstreamRequest, secrets: string[], retryAfterMs: number | undefined): ServiceError {
  const remainingCredits = creditsRemaining(raw);
  return errorFromStatus({
    status: raw.status,
    body: raw.body,
    contentType: header(raw, "content-type") ?? "",
    secrets,
    endpoint: request.endpoint.id,
    asset: request.asset,
    ...(retryAfterMs !== undefined && { retryAfterS: toRetryAfterS(retryAfterMs) }),
    ...(remainingCredits !== undefined && { creditsRemaining: remainingCredits }),
  });
}

type Where = { endpoint: string; asset: string };

export class UpstreamFetcher {
  constructor(
    private readonly options: ResolvedOptions,
    private readonly dispatcher: Dispatcher,
    private readonly breaker: CircuitBreaker,
  ) {}

  async fetch(request: UpstreamRequest, apiKey: string | undefined, signal: AbortSignal): Promise<Fetched> {
    const { options, breaker } = this;
    const { now, retry, timeouts } = options;
    const deadline = now() + timeouts.callMs;
    const secrets = apiKey ? [apiKey] : [];
    const where = { endpoint: request.endpoint.id, asset: request.asset };
    const headers = requestHeaders(apiKey);
    let last: ServiceError | undefined;

    for (let n = 0; n < retry.attempts; n++) {
      const probe = this.admit(where);
      const remaining = deadline - now();
      let raw: RawResponse;
      try {
        raw = await this.send(request, headers, remaining, signal);
      } catch (error) {
        const failure = error instanceof AttemptFailure ? error : new AttemptFailure("network");
        last = this.failedAttempt(failure, request, where, probe);
        options.log.debug("upstream attempt failed", { endpoint: request.endpoint.id, attempt: n + 1, kind: failure.kind });
        await this.pause(backoffMs(n, retry, options.random), n, deadline, last, signal);
        continue;
      }

      const { status } = raw;
      if (status >= 200 && status < 300) {
        breaker.record("success", probe);
        return fetched(raw, request);
      }
      breaker.record(status >= 500 ? "failure" : "neutral", probe);
      const retryAfterMs = isRetryableStatus(status) ? parseRetryAfter(raw.headers["retry-after"], now()) : undefined;
      last = refusal(raw, request, secrets, retryAfterMs);
      if (!isRetryableStatus(status) || !last.retryable) throw last;
      options.log.debug("upstream attempt refused", { endpoint: request.endpoint.id, attempt: n + 1, status });
      // Retry-After is honoured exactly; one longer than the budget left fails now, not later.
      if (retryAfterMs !== undefined && retryAfterMs > deadline - now()) throw last;
      await this.pause(retryAfterMs ?? backoffMs(n, retry, options.random), n, deadline, last, signal);
    }
    throw last ?? new ServiceError(502, "upstream_unavailable", "The upstream could not be reached; retry later.", where);
  }

  /** Passes the breaker or throws `circuit_open`; returns whether this attempt is the breaker's probe. */
  private admit(where: Where): boolean {
    const admission = this.breaker.admit();
    if (!admission.ok) {
      throw new ServiceError(
        503,
        "circuit_open",
        `The upstream has been failing; calls are paused for ${toRetryAfterS(admission.retryAfterMs)} s to let it recover. Retry then.`,
        {
          ...where,
          retryAfterS: toRetryAfterS(admission.retryAfterMs),
        },
      );
    }
    return admission.probe;
  }

  /** One request within the budget left; throws an AttemptFailure when it gets no answer. */
  private async send(
    request: UpstreamRequest,
    headers: Record<string, string>,
    remaining: number,
    signal: AbortSignal,
  ): Promise<RawResponse> {
    const { options } = this;
    const { timeouts } = options;
    if (remaining <= 0) throw new AttemptFailure("timeout");
    return await attempt(this.dispatcher, {
      origin: options.origin,
      path: options.basePath + request.pathAndQuery,
      headers,
      headersTimeoutMs: timeouts.headersMs,
      bodyTimeoutMs: timeouts.bodyMs,
      deadlineMs: Math.min(timeouts.attemptMs, remaining),
      maxBytes: options.maxBytes,
      maxErrorBytes: MAX_ERROR_BYTES,
      signal,
    });
  }

  /**
   * Records an attempt that got no answer with the breaker. Cancellation, an oversized answer and
   * an undecodable one end the call (thrown); a timeout or a network failure is returned to retry.
   */
  private failedAttempt(failure: AttemptFailure, request: UpstreamRequest, where: Where, probe: boolean): ServiceError {
    const { breaker } = this;
    if (failure.kind === "aborted") {
      breaker.record("cancelled", probe);
      throw failure.reason ?? new DOMException("The operation was aborted", "AbortError");
    }
    if (failure.kind === "too_large" || failure.kind === "decode") {
      breaker.record("neutral", probe);
      throw new ServiceError(
        502,
        "upstream_invalid_response",
        failure.kind === "too_large"
          ? `The upstream answer for ${request.endpoint.id} exceeds the ${Math.round(this.options.maxBytes / 1048576)} MiB cap and was cut off; narrow the date range or use a coarser timeframe.`
          : `The upstream answer for ${request.endpoint.id} could not be decoded (unsupported or corrupt content encoding).`,
        where,
      );
    }
    breaker.record("failure", probe);
    return failure.kind === "timeout"
      ? new ServiceError(
          504,
          "upstream_timeout",
          `The upstream did not answer ${request.endpoint.id} in time on any attempt; retry later or narrow the range.`,
          where,
        )
      : new ServiceError(
          502,
          "upstream_unavailable",
          `The upstream could not be reached or dropped the connection for ${request.endpoint.id}; retry later.`,
          where,
        );
  }

  /** Waits before the next attempt, or throws `last` when there is none or no budget for the wait. */
  private async pause(ms: number, n: number, deadline: number, last: ServiceError, signal: AbortSignal): Promise<void> {
    if (n + 1 >= this.options.retry.attempts || ms > deadline - this.options.now()) throw last;
    await this.options.sleep(ms, signal);
  }
}
