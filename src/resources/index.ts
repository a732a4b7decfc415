// Resources: the catalog, and the full data behind every digest (series as CSV, heatmap and
// metrics-variation as JSON) through templates whose asset argument completes to covered assets.
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type ServerContext,
  type Variables,
} from "@modelcontextprotocol/server";

import { type Backend, type BackendContext, type BackendRequest, ServiceError, type TimeRecord } from "../backend/types.js";
import { type Endpoint, endpointById, HEATMAP_ID, VARIATION_ID } from "../catalog/index.js";
import { CATALOG_URI, HEATMAP_TEMPLATE, SERIES_TEMPLATE, VARIATION_TEMPLATE } from "../catalog/uris.js";
import { completeAssetFor, completeGroup, type CompleterTable, completeSegment, completeSeriesAsset } from "../mcp/completions.js";
import { errorPayload } from "../mcp/errors.js";
import { normalizeAsset, requireCoverage, requireEndpoint } from "../mcp/lookup.js";
import type { ToolRunner } from "../mcp/tool-runner.js";
import { catalogDocument } from "./catalog.js";
import { QueryTolerantTemplate } from "./uri-template.js";

type Extra = ServerContext;

/** What only a new release changes (the catalog, the views' HTML): cacheable for an hour by anyone (2026-07-28). */
export const STATIC_CACHE_HINT = { ttlMs: 3_600_000, cacheScope: "public" } as const;

/** Completion of each template's arguments (served by installCompletions). */
export const TEMPLATE_COMPLETERS: CompleterTable = {
  [SERIES_TEMPLATE]: {
    asset: (value, args) => completeSeriesAsset(value, args),
    group: (value) => completeGroup(value),
    segment: (value, args) => completeSegment(value, args),
  },
  [HEATMAP_TEMPLATE]: { asset: (value) => completeAssetFor(endpointById(HEATMAP_ID), value) },
  [VARIATION_TEMPLATE]: { asset: (value) => completeAssetFor(endpointById(VARIATION_ID), value) },
};

/** The SDK form of a template's completers (it wants them to declare the completions capability). */
function sdkCompleters(template: string): Record<string, (value: string, context?: { arguments?: Record<string, string> }) => string[]> {
  return Object.fromEntries(
    Object.entries(TEMPLATE_COMPLETERS[template]!).map(([name, fn]) => [name, (value, context) => fn(value, context?.arguments)]),
  );
}

/**
 * The templates, parsed once: a server is built per HTTP request, and parsing the URI templates
 * was most of registering the resources. A template holds no state of a caller.
 */
const SERIES_DATA = new ResourceTemplate(new QueryTolerantTemplate(SERIES_TEMPLATE), {
  list: undefined,
  complete: sdkCompleters(SERIES_TEMPLATE),
});
const HEATMAP_DATA = new ResourceTemplate(new QueryTolerantTemplate(HEATMAP_TEMPLATE), {
  list: undefined,
  complete: sdkCompleters(HEATMAP_TEMPLATE),
});
const VARIATION_DATA = new ResourceTemplate(VARIATION_TEMPLATE, { list: undefined, complete: sdkCompleters(VARIATION_TEMPLATE) });

export function registerResources(server: McpServer, backend: Backend, tools: ToolRunner): void {
  server.registerResource(
    "catalog",
    CATALOG_URI,
    {
      title: "Catalog: endpoints, asset sets, venues",
      description: "Every endpoint with its parameters, unit, credit cost and asset set; the asset sets' members; the venue ids.",
      mimeType: "application/json",
      // Changes only with a release; the data reads below are per key and charged (no cache hint).
      cacheHint: STATIC_CACHE_HINT,
    },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(catalogDocument(tools.outputSchemas())) }],
    }),
  );

  server.registerResource(
    "series-data",
    SERIES_DATA,
    {
      title: "Full series records (CSV)",
      description: "Every record behind a get_series/get_ohlcv digest: time,<field> rows. Each read is a charged request.",
      mimeType: "text/csv",
    },
    (uri, vars, extra) =>
      guarded(uri, vars, extra, async () => {
        const endpoint = requireEndpoint(`${one(vars.group)}/${one(vars.segment)}`, ["series", "ohlcv"]);
        const asset = checkedAsset(endpoint, vars);
        const { body } = await backend.fetch(request(endpoint, asset, vars, ["asset", "group", "segment"]), context(extra));
        return { uri: uri.href, mimeType: "text/csv", text: toCsv(body as TimeRecord[], endpoint.field) };
      }),
  );

  // The heatmap and the variation table: the backend's JSON body as it is.
  const jsonData = (name: string, template: ResourceTemplate, endpointId: string, title: string, description: string) =>
    server.registerResource(name, template, { title, description, mimeType: "application/json" }, (uri, vars, extra) =>
      guarded(uri, vars, extra, async () => {
        const endpoint = requireEndpoint(endpointId);
        const asset = checkedAsset(endpoint, vars);
        const { body } = await backend.fetch(request(endpoint, asset, vars, ["asset"]), context(extra));
        return { uri: uri.href, mimeType: "application/json", text: JSON.stringify(body) };
      }),
    );
  jsonData(
    "heatmap-data",
    HEATMAP_DATA,
    HEATMAP_ID,
    "Full liquidation heatmap (JSON)",
    "The service's heatmap object behind a get_liquidation_heatmap digest: x, y, z matrix, candles, top-trader L/S.",
  );
  jsonData(
    "metrics-variation-data",
    VARIATION_DATA,
    VARIATION_ID,
    "Metrics variation records (JSON)",
    "The service's metrics-variation array behind a get_metrics_variation table.",
  );
}

function one(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

function checkedAsset(endpoint: Endpoint, vars: Variables): string {
  const asset = normalizeAsset(one(vars.asset));
  requireCoverage(endpoint, asset);
  return asset;
}

function request(endpoint: Endpoint, asset: string, vars: Variables, pathVars: readonly string[]): BackendRequest {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(vars)) {
    if (pathVars.includes(name)) continue;
    if (Array.isArray(value))
      throw new ServiceError(400, "invalid_parameter", `Query parameter "${name}" is repeated; give it once.`, { parameter: name });
    query[name] = value ?? "";
  }
  return { endpoint: endpoint.id, asset, query };
}

function context(extra: Extra): BackendContext {
  const apiKey = extra.http?.authInfo?.token;
  const signal = extra.mcpReq.signal;
  return apiKey ? { apiKey, signal } : { signal };
}

/** Failures become JSON-RPC errors carrying the same fix-it text tools give. */
async function guarded(
  uri: URL,
  vars: Variables,
  extra: Extra,
  read: () => Promise<{ uri: string; mimeType: string; text: string }>,
): Promise<{ contents: Array<{ uri: string; mimeType: string; text: string }> }> {
  try {
    return { contents: [await read()] };
  } catch (error) {
    const group = one(vars.group);
    const endpoint = group ? `${group}/${one(vars.segment)}` : uri.host === "heatmap" ? HEATMAP_ID : VARIATION_ID;
    const payload = errorPayload(error, {
      tool: "resources/read",
      endpoint: endpointById(endpoint)?.id ?? endpoint,
      secret: extra.http?.authInfo?.token,
    });
    const clientSide = payload.status === undefined ? payload.code !== "internal" : payload.status < 500;
    throw new ProtocolError(clientSide ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError, payload.message, {
      error: payload,
    });
  }
}

function toCsv(records: readonly TimeRecord[], field: string): string {
  const lines = new Array<string>(records.length + 1);
  lines[0] = `time,${field}`;
  for (let i = 0; i < records.length; i++) lines[i + 1] = `${records[i]!.time},${records[i]![field]}`;
  return `${lines.join("\n")}\n`;
}
