// createServer: one McpServer wired to one backend; tools, resources and prompts registered by loops.
// The same definition serves both protocol eras: 2026-07-28 (stateless, per-request capabilities)
// and 2025-11-25 (initialize), over stdio and Streamable HTTP.
import { readFileSync } from "node:fs";

import {
  type CacheHint,
  type CallToolResult,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";

import type { Backend, BackendContext, DataOrigin } from "./backend/types.js";
import { isoDay } from "./catalog/dates.js";
import type { Config } from "./config.js";
import { installCompletions } from "./mcp/completions.js";
import { errorResult, ToolInputError } from "./mcp/errors.js";
import { answerCallerErrorsOn } from "./mcp/sdk/caller-errors.js";
import { NO_JSON_SCHEMA_VALIDATION } from "./mcp/sdk/json-schema.js";
import { installLogging, type McpLogChannel } from "./mcp/sdk/logging.js";
import { checkParamHeadersAgainst } from "./mcp/sdk/param-headers.js";
import type { ToolRunner } from "./mcp/tool-runner.js";
import { PROMPT_COMPLETERS, registerPrompts } from "./prompts/index.js";
import { registerResources, TEMPLATE_COMPLETERS } from "./resources/index.js";
import { registerViews, rendersViews, UI_EXTENSION, viewUri } from "./resources/views.js";
import { SERVER_ICONS } from "./server-icon.js";
import { runTool, type ToolContext } from "./tools/define-tool.js";
import { allTools } from "./tools/index.js";
import { fullOutputSchema, type ListedTool, toolListing } from "./tools/listing.js";
import { DATES_NOTE } from "./tools/params.js";
import { VIEW_DATA_TOOL, viewData, viewDataListing, type ViewStore } from "./tools/view-data.js";
import { createViewStore } from "./tools/view-store.js";

export const SERVER_NAME = "crypto-metrics-mcp";

/** package.json sits one level above both src/ and dist/. */
export const SERVER_VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string })
  .version;

const HOW = `list_assets: coverage; get_metrics_variation scans an asset, other tools drill in. ${DATES_NOTE}`;

/** The server instructions: with the embedded service they say, in one clause, that the market is simulated. */
export function instructionsFor(origin: DataOrigin): string {
  if (origin.kind === "service") return `Crypto market and on-chain metrics. ${HOW}`;
  const through = isoDay(origin.calibratedThroughMs);
  return `Simulated crypto market and on-chain metrics, calibrated to real history through ${through}; present figures as simulated. ${HOW}`;
}

export interface CreateServerOptions {
  backend: Backend;
  /** The configured key, redacted from any text that reaches a client; "now" of the data, for the prompts' dates. */
  config?: Pick<Config, "apiKey"> & Partial<Pick<Config, "now">>;
  /**
   * The protocol era the instance serves (the SDK's serving entries say which). 2025-era clients
   * get the logging capability; 2026-07-28 deprecates it, and the server logs to stderr only.
   */
  era?: "legacy" | "modern";
  /**
   * The one method this instance will answer, when that is known (a stateless HTTP request): a
   * tools/* request needs only the tools, so the resources, views, prompts and completions are
   * not registered for it (the capabilities say the same either way), and the server's icon goes
   * only with the answers that introduce the server (see INTRODUCTIONS).
   */
  method?: string;
  /**
   * Where views' data is kept and its handles signed: one per process (stdio) or per HTTP server,
   * whose secret every instance answering the same clients shares. Default: this process's own.
   */
  views?: ViewStore;
}

/**
 * The answers that introduce the server, and carry its icon. In 2026-07-28 every result's `_meta`
 * repeats the server's identity; with the icon (a 1.3 KB data URI) that more than doubled a
 * list_assets answer over HTTP (1,960 → 3,393 bytes). A stateless request for any other method
 * gets the name, title and version alone.
 */
const INTRODUCTIONS: ReadonlySet<string> = new Set(["initialize", "server/discover"]);

export { createBackend } from "./backend/create.js";
export { createViewStore } from "./tools/view-store.js";

/** Lists change only with a new release of this server: clients may keep them for an hour. */
export const LIST_TTL_MS = 3_600_000;
/**
 * Cache hints of the 2026-07-28 cacheable results. tools/list depends on the capabilities the
 * request declares (views), so it is private to the client; the other lists are the same for all.
 */
const CACHE_HINTS: Record<"tools/list" | "prompts/list" | "resources/list" | "resources/templates/list" | "server/discover", CacheHint> = {
  "server/discover": { ttlMs: LIST_TTL_MS, cacheScope: "public" },
  "tools/list": { ttlMs: LIST_TTL_MS, cacheScope: "private" },
  "prompts/list": { ttlMs: LIST_TTL_MS, cacheScope: "public" },
  "resources/list": { ttlMs: LIST_TTL_MS, cacheScope: "public" },
  "resources/templates/list": { ttlMs: LIST_TTL_MS, cacheScope: "public" },
};

/**
 * tools/call's params as our handler takes them: the method's own schema has already been checked
 * by the SDK (-32602 naming the field); this one keeps `arguments` exactly as sent, so that our
 * wrapper, not the SDK, validates them (its messages name the field, the accepted values and the
 * fix) and sees an own "__proto__" argument the spec schema would drop.
 */
const CALL_PARAMS = z.object({ name: z.string(), arguments: z.unknown().optional() }).loose();

/**
 * tools/list as served, per openWorld value. The HTTP transport builds a server per request, and
 * turning the zod schemas into JSON Schema was about half of that server's construction time.
 */
const LISTINGS = new Map<string, ListedTool[]>();

/**
 * The HTTP header a 2026-07-28 client mirrors the asset argument into (`Mcp-Param-Asset`, SEP-2243),
 * so that a gateway can route or limit by asset without reading bodies; the SDK checks that the
 * header matches the argument. 2025-era listings do not carry it (that era has no such header).
 */
export const ASSET_HEADER = "Asset";

function withAssetHeader(listing: ListedTool): ListedTool {
  const properties = listing.inputSchema.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties?.asset?.type !== "string") return listing;
  return {
    ...listing,
    inputSchema: { ...listing.inputSchema, properties: { ...properties, asset: { ...properties.asset, "x-mcp-header": ASSET_HEADER } } },
  };
}

/**
 * Clients that do not render MCP Apps views get no `_meta.ui`: their tools/list stays as it was.
 * The order is the catalog's, the same on every call and in both eras.
 */
function listedTools(openWorld: boolean, ui: boolean, era: "legacy" | "modern"): ListedTool[] {
  const key = `${openWorld}:${ui}:${era}`;
  let listed = LISTINGS.get(key);
  if (!listed) {
    listed = allTools.map((tool) => {
      const base = toolListing(tool, openWorld);
      const listing = era === "modern" ? withAssetHeader(base) : base;
      return ui && tool.view ? { ...listing, _meta: { ui: { resourceUri: viewUri(tool.view) } } } : listing;
    });
    // The views' own tool, hidden from the model by the hosts that render views; others never see it.
    if (ui) listed.push(viewDataListing());
    LISTINGS.set(key, listed);
  }
  return listed;
}

/** This process's view store, for servers created without one (tests, the library): its own secret. */
let processViews: ViewStore | undefined;

const LOGGING = new WeakMap<McpServer, McpLogChannel>();

/** 2026-07-28 has no logging capability: its instances log to stderr only. */
const STDERR_ONLY: McpLogChannel = { level: () => undefined, reset: () => undefined, forward: () => () => undefined };

/** The server's MCP log channel (logging/setLevel and notifications/message; 2025-era clients only). */
export function loggingOf(server: McpServer): McpLogChannel {
  return LOGGING.get(server) ?? STDERR_ONLY;
}

/** The tools as resources reach them: by name, against this server's backend. */
function toolRunner(backend: Backend): ToolRunner {
  const byName = (name: string) => allTools.find((t) => t.name === name)!;
  return {
    argumentsOf: (name) => Object.keys(byName(name).input.shape),
    run: (name, args, context) => runTool(byName(name), args, { backend, ...context }),
    outputSchemas: () => Object.fromEntries(allTools.map((tool) => [tool.name, fullOutputSchema(tool.output)])),
  };
}

export function createServer({ backend, config, era = "legacy", method, views }: CreateServerOptions): McpServer {
  const viewStore = views ?? (processViews ??= createViewStore());
  const server = new McpServer(
    {
      name: SERVER_NAME,
      title: "Crypto Metrics",
      version: SERVER_VERSION,
      ...((method === undefined || INTRODUCTIONS.has(method)) && { icons: SERVER_ICONS }),
    },
    {
      capabilities: { tools: {}, ...(era === "legacy" && { logging: {} }) },
      instructions: instructionsFor(backend.origin),
      jsonSchemaValidator: NO_JSON_SCHEMA_VALIDATION,
      cacheHints: CACHE_HINTS,
    },
  );
  installTools(server, { backend, era, apiKey: config?.apiKey, viewStore });
  if (method !== "tools/call" && method !== "tools/list") {
    const tools = toolRunner(backend);
    registerResources(server, backend, tools);
    registerViews(server, tools);
    registerPrompts(server, config?.now);
    installCompletions(server, PROMPT_COMPLETERS, TEMPLATE_COMPLETERS);
  }
  // Nothing is added or removed while the server runs: no list-changed notifications to expect.
  server.server.registerCapabilities({
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
    completions: {},
  });
  if (era === "legacy") LOGGING.set(server, installLogging(server));
  answerCallerErrorsOn(server);
  return server;
}

/**
 * tools/list (built on the first ask, not at start: a call-only client never pays for JSON Schema)
 * and tools/call (each tool through runTool; view_data from the views' store, for clients that
 * render views).
 */
function installTools(
  server: McpServer,
  { backend, era, apiKey, viewStore }: { backend: Backend; era: "legacy" | "modern"; apiKey: string | undefined; viewStore: ViewStore },
): void {
  const openWorld = backend.kind === "http";
  // A cursor is refused: the list is one page, so any cursor is one this server never gave.
  server.server.setRequestHandler("tools/list", (request, ctx) => {
    if (request.params?.cursor !== undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        "Invalid params for tools/list: cursor: this server lists every tool on one page and gave no cursor; list again without one",
      );
    return { tools: listedTools(openWorld, rendersViews(server, ctx), era) };
  });
  // What the SDK's HTTP entry checks Mcp-Param-* headers against: the schema this era lists.
  checkParamHeadersAgainst(server, (name) => listedTools(openWorld, false, era).find((t) => t.name === name)?.inputSchema);
  server.server.setRequestHandler("tools/call", { params: CALL_PARAMS }, async (params, ctx): Promise<CallToolResult> => {
    if (params.name === VIEW_DATA_TOOL) {
      const call = toolContext(backend, ctx, apiKey);
      const result = rendersViews(server, ctx)
        ? await viewData(params.arguments, { store: viewStore, backend, call: call.call, key: call.secret, tools: allTools })
        : errorResult(
            new ToolInputError(
              "invalid_arguments",
              `${VIEW_DATA_TOOL} serves the chart views of clients that render MCP Apps views (capability extensions["${UI_EXTENSION}"]), which this client did not declare. The answers' text holds their data.`,
              { parameter: "name" },
            ),
            { tool: VIEW_DATA_TOOL },
          );
      return server.server.projectCallToolResult(result, { type: "object" });
    }
    const tool = allTools.find((t) => t.name === params.name);
    if (!tool) {
      // An error result the model can read and act on, in both eras (the spec allows it beside -32602).
      const message = `Unknown tool "${params.name.slice(0, 60)}"; the tools are ${allTools.map((t) => t.name).join(", ")}.`;
      return server.server.projectCallToolResult(
        errorResult(new ToolInputError("invalid_arguments", message, { parameter: "name" }), { tool: params.name.slice(0, 60) }),
        undefined,
      );
    }
    const result = await runTool(tool, params.arguments ?? {}, {
      ...toolContext(backend, ctx, apiKey),
      ui: rendersViews(server, ctx),
      views: viewStore,
    });
    return server.server.projectCallToolResult(result, { type: "object" });
  });
}

function toolContext(backend: Backend, ctx: ServerContext, configuredKey: string | undefined): ToolContext {
  const apiKey = ctx.http?.authInfo?.token;
  const signal = ctx.mcpReq.signal;
  const call: BackendContext = { signal };
  if (apiKey) call.apiKey = apiKey;
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken !== undefined) {
    call.onProgress = ({ done, total, message }) => {
      // Once the request is over (its transport closed) the server may be serving another caller.
      if (signal.aborted) return;
      void ctx.mcpReq
        .notify({
          method: "notifications/progress",
          params: { progressToken, progress: done, total, ...(message !== undefined && { message }) },
        })
        .catch(() => undefined);
    };
  }
  return { backend, call, secret: apiKey ?? configuredKey };
}
