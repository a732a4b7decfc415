// The service's refusals that need more than a status and a sentence: who the caller is
// (credentials), a metric the key may not call, the key's rate window or credits, an asset outside an
// endpoint's set (with did-you-mean among the tickers it covers) and a range over the per-response cap.
import {
  ASSET_PATTERN,
  ASSET_SETS,
  assetsByName,
  coverage,
  covers,
  DAY_MS,
  type Endpoint,
  KNOWN_ASSETS,
  MAX_RECORDS,
  nearestAssets,
  TIMEFRAME_MS,
} from "../../catalog/index.js";
import { gateOf, readThrough } from "../../catalog/index.js";
import { ServiceError } from "../types.js";
import type { KeyRecord } from "./keys.js";
import type { MeterStatus } from "./metering/index.js";
import { shown } from "./router.js";
import type { ServiceResponse } from "./service.js";

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

const COVERAGE_LIST_MAX = 24;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return typeof v === "string" ? v : Array.isArray(v) ? v.join(", ") : undefined;
}

/** The presented key; 400 when X-Api-Key and a Bearer token disagree. */
export function credentials(headers: HeaderBag): string | undefined {
  const apiKey = header(headers, "x-api-key")?.trim() || undefined;
  const auth = header(headers, "authorization")?.trim();
  const bearer = auth && /^bearer\s+/i.test(auth) ? auth.replace(/^bearer\s+/i, "").trim() || undefined : undefined;
  if (apiKey !== undefined && bearer !== undefined && apiKey !== bearer) {
    throw new ServiceError(
      400,
      "conflicting_credentials",
      "X-Api-Key and Authorization: Bearer carry different keys; send one key, in either header.",
    );
  }
  return apiKey ?? bearer;
}

export function unauthorized(message: string): ServiceError {
  return new ServiceError(401, "unauthorized", message);
}

export function assetNotSupported(endpoint: Endpoint, asset: string): ServiceError {
  const members = coverage(endpoint);
  const set = ASSET_SETS[endpoint.assetSet];
  const lower = asset.toLowerCase();
  const named = members ? assetsByName(asset, members).slice(0, 3) : [];
  const inSet = lower !== asset && covers(endpoint, lower) ? [lower] : named.length ? named : members ? nearestAssets(asset, members) : [];
  // A known ticker is the one meant: look-alikes (btc for eth, or the ticker itself) would mislead.
  // Only tickers the endpoint covers are proposed: one it lacks would fail the same way.
  const near = KNOWN_ASSETS.includes(asset) ? [] : inSet;
  const covered =
    members === null
      ? `takes any lowercase ticker matching ${ASSET_PATTERN.source}`
      : endpoint.assetSet === "OPEN"
        ? `covers every ticker the catalog knows, ${members.length} in all`
        : members.length <= COVERAGE_LIST_MAX
          ? `covers ${members.join(", ")}`
          : `covers the ${members.length} assets of ${set.label}`;
  const hint = near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : "";
  return new ServiceError(
    404,
    "asset_not_supported",
    `Asset "${shown(asset)}" is not covered by ${endpoint.id} (it ${covered}).${hint} The catalog lists each endpoint's coverage.`,
    { endpoint: endpoint.id, asset: shown(asset), allowed: near },
  );
}

export function rangeTooLarge(count: number, timeframe: keyof typeof TIMEFRAME_MS): ServiceError {
  const days = Math.floor((MAX_RECORDS * TIMEFRAME_MS[timeframe]) / DAY_MS);
  return new ServiceError(
    400,
    "range_too_large",
    `The range holds ${count.toLocaleString("en-US")} records at ${timeframe}, more than the ${MAX_RECORDS.toLocaleString("en-US")} per response; ` +
      `narrow startDate/endDate to at most ${days.toLocaleString("en-US")} days at ${timeframe}, or use a coarser timeframe.`,
    { parameter: "startDate" },
  );
}

/** A key restricted to some metrics asking for another (or for a row read through `gate`). */
export function metricNotAllowed(metrics: ReadonlySet<string>, endpoint: Endpoint): ServiceError {
  const gate = gateOf(endpoint);
  const allowed = [...metrics];
  return new ServiceError(
    403,
    "metric_not_allowed",
    `This key may not call ${gate}${readThrough(endpoint)}; nothing was charged. It may call: ${allowed.join(", ")}. Use one of those, or a key that includes ${gate}.`,
    { endpoint: gate, allowed, ...(gate !== endpoint.id && { through: endpoint.id }) },
  );
}

/** The key's rate window is full: retry once its oldest request leaves it. */
export function rateLimited(key: KeyRecord, outcome: { retryAfterS: number; creditsRemaining: number }): ServiceError {
  return new ServiceError(
    429,
    "rate_limited",
    `Rate limit of ${key.rateLimit.requests} requests per ${key.rateLimit.windowSeconds} s reached; retry in ${outcome.retryAfterS} s.`,
    { retryAfterS: outcome.retryAfterS, creditsRemaining: outcome.creditsRemaining },
  );
}

/** The key has fewer credits than the request costs. */
export function creditsExhausted(cost: number, left: number): ServiceError {
  return new ServiceError(
    402,
    "credits_exhausted",
    `This request costs ${cost} credit${cost === 1 ? "" : "s"} and the key has ${left} left; nothing was charged. Wait for the balance to be renewed or use another key.`,
    { creditsRemaining: left },
  );
}

/** The response of a refusal: its status and body, the headers given, and the balance when the store told it. */
export function failure(error: ServiceError, headers: Record<string, string>, meter?: MeterStatus): ServiceResponse {
  return {
    status: error.status,
    headers,
    body: error.toBody(),
    error,
    ...(meter && { usage: { charged: 0, creditsRemaining: meter.creditsRemaining } }),
  };
}
