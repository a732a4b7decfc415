// Turns a 2xx upstream answer into a validated body, or refuses it: never partial data as complete.
import type { z } from "zod";

import type { Endpoint } from "../../catalog/index.js";
import { heatmapSchema, recordsSchema, variationSchema } from "../../catalog/response-schemas.js";
import { type BackendBody, type Heatmap, ServiceError, type TimeRecord } from "../types.js";
import { ascending } from "./paging.js";
import type { RawResponse } from "./transport.js";

function invalid(endpoint: Endpoint, why: string): ServiceError {
  return new ServiceError(
    502,
    "upstream_invalid_response",
    `The upstream sent an unusable answer for ${endpoint.id}: ${why}. Retry later; if it persists, check CRYPTO_METRICS_BASE_URL.`,
    {
      endpoint: endpoint.id,
    },
  );
}

function schemaFor(endpoint: Endpoint): z.ZodType<BackendBody> {
  if (endpoint.kind === "heatmap") return heatmapSchema as z.ZodType<BackendBody>;
  if (endpoint.kind === "variation") return variationSchema as z.ZodType<BackendBody>;
  return recordsSchema(endpoint) as z.ZodType<BackendBody>;
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

/** A matrix whose rows or columns do not match its axes is a cut-off or corrupt answer. */
function checkHeatmap(endpoint: Endpoint, heatmap: Heatmap): void {
  if (heatmap.z.length !== heatmap.y.length)
    throw invalid(endpoint, `the heatmap has ${heatmap.z.length} rows for ${heatmap.y.length} price levels`);
  const width = heatmap.x.length;
  if (heatmap.z.some((row) => row.length !== width)) throw invalid(endpoint, `a heatmap row does not have ${width} columns`);
}

function issuePath(error: z.ZodError): string {
  const path = error.issues[0]?.path ?? [];
  const shown = path
    .slice(0, 4)
    .map((p) =>
      typeof p === "number"
        ? `[${p}]`
        : `.${String(p)
            .slice(0, 40)
            .replace(/[^\w-]/g, "?")}`,
    )
    .join("");
  return shown ? ` (at ${shown})` : "";
}

export function parseSuccess(endpoint: Endpoint, raw: RawResponse): BackendBody {
  if (raw.status === 204) {
    // "No data" from upstream: an honest empty answer for lists, but a heatmap cannot be empty.
    if (endpoint.kind === "heatmap") throw invalid(endpoint, "no content (204) for a heatmap");
    return [];
  }
  const type = headerText(raw.headers["content-type"]);
  if (!/^application\/(?:[\w.+-]*\+)?json\b/i.test(type.trim())) {
    throw invalid(endpoint, type ? `content type ${type.split(";")[0]!.slice(0, 60)} instead of JSON` : "no content type");
  }
  if (raw.body.length === 0) throw invalid(endpoint, "an empty body");
  let value: unknown;
  try {
    value = JSON.parse(raw.body.toString("utf8"));
  } catch {
    throw invalid(endpoint, "a body that is not valid JSON (truncated or corrupt)");
  }
  const schema = schemaFor(endpoint);
  let parsed = schema.safeParse(value);
  // Some upstream answers arrive wrapped as {"data": …}.
  if (!parsed.success && value && typeof value === "object" && !Array.isArray(value) && "data" in value) {
    const unwrapped = schema.safeParse((value as { data: unknown }).data);
    if (unwrapped.success) parsed = unwrapped;
  }
  if (!parsed.success) throw invalid(endpoint, `a body of an unexpected shape${issuePath(parsed.error)}`);
  const body = parsed.data;
  if (endpoint.kind === "heatmap") checkHeatmap(endpoint, body as Heatmap);
  if (endpoint.kind === "ohlcv" || endpoint.kind === "series") return ascending(body as TimeRecord[]);
  return body;
}
