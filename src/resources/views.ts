// MCP Apps: the two views (ui:// resources, one self-contained HTML file each) and the charts as
// PNG resources. The HTML is read or built on the first read, never at start: a client that does
// not render views pays nothing for them.
import { existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type ServerContext,
  type Variables,
} from "@modelcontextprotocol/server";

import { endpointById, ENDPOINTS, HEATMAP_ID } from "../catalog/index.js";
import { SCHEME } from "../catalog/uris.js";
import { completeAssetFor, completeGroup, completeSegment, completeSeriesAsset } from "../mcp/completions.js";
import type { ToolRunner } from "../mcp/tool-runner.js";
import { STATIC_CACHE_HINT } from "./index.js";
import { QueryTolerantTemplate } from "./uri-template.js";

export const UI_EXTENSION = "io.modelcontextprotocol/ui";
export const VIEW_MIME = "text/html;profile=mcp-app";
export type ViewName = "heatmap" | "chart";

export function viewUri(name: ViewName): string {
  return `ui://${SCHEME}/${name}.html`;
}

/**
 * Whether the client declared that it renders MCP Apps HTML views: in 2026-07-28 from the
 * capabilities the request itself carries, in the 2025 era from those it declared at initialize
 * (a stateless HTTP request of that era carries none, so it gets no views).
 */
export function rendersViews(server: McpServer, ctx: ServerContext): boolean {
  const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    ClientCapabilities | undefined;
  const ext = (declared ?? server.server.getClientCapabilities())?.extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ext?.mimeTypes) && ext.mimeTypes.includes(VIEW_MIME);
}

const HTML = new Map<ViewName, Promise<string>>();

/** dist/views/NAME.html from the build; from sources (tests, tsx) the same build run in memory. */
export function viewHtml(name: ViewName): Promise<string> {
  let html = HTML.get(name);
  if (!html) {
    html = (async () => {
      for (const rel of [`./views/${name}.html`, `../views/${name}.html`]) {
        const url = new URL(rel, import.meta.url);
        if (existsSync(url)) return readFileSync(url, "utf8");
      }
      const script = new URL("../../scripts/build-views.mjs", import.meta.url);
      const { buildViewHtml } = (await import(pathToFileURL(script.pathname).href)) as { buildViewHtml(name: string): Promise<string> };
      return buildViewHtml(name);
    })();
    html.catch(() => HTML.delete(name));
    HTML.set(name, html);
  }
  return html;
}

const HEATMAP_PNG = `${SCHEME}://chart/heatmap/{asset}.png{?timeframe,lookback,scope,exchange}`;
const SERIES_QUERY = [...new Set(ENDPOINTS.filter((e) => e.kind === "series" || e.kind === "ohlcv").flatMap((e) => e.params))];
const SERIES_PNG = `${SCHEME}://chart/series/{asset}/{group}/{segment}.png{?${SERIES_QUERY.join(",")}}`;

/** Parsed once (a server is built per HTTP request); a template holds no state of a caller. */
const HEATMAP_CHART = new ResourceTemplate(new QueryTolerantTemplate(HEATMAP_PNG), {
  list: undefined,
  complete: { asset: (value) => completeAssetFor(endpointById(HEATMAP_ID), value) },
});
const SERIES_CHART = new ResourceTemplate(new QueryTolerantTemplate(SERIES_PNG), {
  list: undefined,
  complete: {
    asset: (value, context) => completeSeriesAsset(value, context?.arguments),
    group: (value) => completeGroup(value),
    segment: (value, context) => completeSegment(value, context?.arguments),
  },
});

export function registerViews(server: McpServer, tools: ToolRunner): void {
  const views: Array<[ViewName, string, string]> = [
    ["heatmap", "Liquidation heatmap view", "Interactive price × time liquidation heatmap with candles, clusters and hover (MCP Apps)."],
    ["chart", "Chart view", "Interactive line and candle chart of series results (MCP Apps)."],
  ];
  for (const [name, title, description] of views) {
    const uri = viewUri(name);
    server.registerResource(`${name}-view`, uri, { title, description, mimeType: VIEW_MIME, cacheHint: STATIC_CACHE_HINT }, async () => ({
      contents: [{ uri, mimeType: VIEW_MIME, text: await viewHtml(name), _meta: { ui: { prefersBorder: true } } }],
    }));
  }

  server.registerResource(
    "heatmap-chart",
    HEATMAP_CHART,
    {
      title: "Liquidation heatmap chart (PNG)",
      description: "The heatmap of get_liquidation_heatmap as an 800 × 500 PNG. Each read is a charged request.",
      mimeType: "image/png",
    },
    (uri, vars, ctx) => pngRead(uri, tools, "get_liquidation_heatmap", vars, ["asset"], ctx),
  );
  server.registerResource(
    "series-chart",
    SERIES_CHART,
    {
      title: "Series chart (PNG)",
      description: "A get_series/get_ohlcv series as an 800 × 500 PNG line chart. Each read is a charged request.",
      mimeType: "image/png",
    },
    (uri, vars, ctx) => {
      const id = `${one(vars.group)}/${one(vars.segment)}`;
      const kind = endpointById(id)?.kind;
      const name = kind === "ohlcv" ? "get_ohlcv" : "get_series";
      return pngRead(uri, tools, name, { ...vars, metric: id }, ["asset", "metric"], ctx);
    },
  );
}

function one(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/** Runs the tool with chart: true and answers its image; failures carry the tool's fix-it text. */
async function pngRead(uri: URL, tools: ToolRunner, name: string, vars: Variables, keep: readonly string[], ctx: ServerContext) {
  const args: Record<string, unknown> = { chart: true };
  const allowed = new Set(tools.argumentsOf(name));
  for (const [arg, value] of Object.entries(vars)) {
    if (keep.includes(arg) || (allowed.has(arg) && arg !== "chart")) args[arg] = one(value);
  }
  const apiKey = ctx.http?.authInfo?.token;
  const signal = ctx.mcpReq.signal;
  const result = await tools.run(name, args, { call: apiKey ? { apiKey, signal } : { signal }, secret: apiKey });
  const text = result.content.find((c) => c.type === "text");
  const message = text?.type === "text" ? text.text : "no result";
  if (result.isError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, message);
  const image = result.content.find((c) => c.type === "image");
  if (image?.type !== "image")
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Nothing to draw for ${uri.href}: ${message.split("\n")[0]}`);
  return { contents: [{ uri: uri.href, mimeType: "image/png", blob: image.data }] };
}
