// createServer: one McpServer wired to one backend; tools, resources and prompts registered by loops.
// The same definition serves both protocol eras: 2026-07-28 (stateless, per-request capabilities)
// and 2025-11-25 (initialize), over stdio and Streamable HTTP.
import { readFileSync } from "node:fs";

import { type CacheHint, McpServer } from "@modelcontextprotocol/server";

import type { Backend, DataOrigin } from "./backend/types.js";
import { isoDay } from "./catalog/dates.js";
import type { Config } from "./config.js";
import { installCompletions } from "./mcp/completions.js";
import { answerCallerErrorsOn } from "./mcp/sdk/caller-errors.js";
import { NO_JSON_SCHEMA_VALIDATION } from "./mcp/sdk/json-schema.js";
import { installLogging, type McpLogChannel } from "./mcp/sdk/logging.js";
import { PROMPT_COMPLETERS, registerPrompts } from "./prompts/index.js";
import { registerResources, TEMPLATE_COMPLETERS } from "./resources/index.js";
import { registerViews } from "./resources/views.js";
import { SERVER_ICONS } from "./server-icon.js";
import { installTools, toolRunner } from "./server-tools.js";
import { DATES_NOTE } from "./tools/params.js";
import { type ViewStore } from "./tools/view-data.js";
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

/** This process's view store, for servers created without one (tests, the library): its own secret. */
let processViews: ViewStore | undefined;

const LOGGING = new WeakMap<McpServer, McpLogChannel>();

/** 2026-07-28 has no logging capability: its instances log to stderr only. */
const STDERR_ONLY: McpLogChannel = { level: () => undefined, reset: () => undefined, forward: () => () => undefined };

/** The server's MCP log channel (logging/setLevel and notifications/message; 2025-era clients only). */
export function loggingOf(server: McpServer): McpLogChannel {
  return LOGGING.get(server) ?? STDERR_ONLY;
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
