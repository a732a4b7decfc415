// createServer: one McpServer wired to one backend; tools, resources and prompts registered by loops.
import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, ListToolsRequestSchema, McpError, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Backend, BackendContext, DataOrigin } from "./backend/types.js";
import type { Config } from "./config.js";
import { PROMPT_COMPLETERS, registerPrompts } from "./prompts/index.js";
import { installCompletions } from "./resources/completions.js";
import { registerResources, TEMPLATE_COMPLETERS } from "./resources/index.js";
import { runTool, type ToolContext } from "./tools/define-tool.js";
import { errorResult } from "./tools/errors.js";
import { droppedArgument } from "./tools/validation.js";
import { allTools } from "./tools/index.js";
import { toolListing, type ListedTool } from "./tools/listing.js";
import { SERVER_ICONS } from "./server-icon.js";
import { DATES_NOTE } from "./tools/params.js";
import { NO_JSON_SCHEMA_VALIDATION } from "./json-schema.js";
import { installLogging, type McpLogChannel } from "./mcp-logging.js";
import { registerViews, rendersViews, viewUri } from "./resources/views.js";

export const SERVER_NAME = "crypto-metrics-mcp";

/** package.json sits one level above both src/ and dist/. */
export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

const HOW = `list_assets: coverage; get_metrics_variation scans an asset, other tools drill in. ${DATES_NOTE}`;

/** The server instructions: with the embedded service they say, in one clause, that the market is simulated. */
export function instructionsFor(origin: DataOrigin): string {
  if (origin.kind === "service") return `Crypto market and on-chain metrics. ${HOW}`;
  const through = new Date(origin.calibratedThroughMs).toISOString().slice(0, 10);
  return `Simulated crypto market and on-chain metrics, calibrated to real history through ${through}; present figures as simulated. ${HOW}`;
}

export interface CreateServerOptions {
  backend: Backend;
  /** The configured key, redacted from any text that reaches a client; "now" of the data, for the prompts' dates. */
  config?: Pick<Config, "apiKey"> & Partial<Pick<Config, "now">>;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export { createBackend } from "./backend/create.js";

/**
 * Tools are registered with a permissive input schema so that our wrapper, not the SDK, validates
 * arguments (its messages name the field, the accepted values and the fix, and it returns a typed
 * error); tools/list advertises the strict schemas from the same definitions.
 */
const RAW_ARGUMENTS = z.object({}).loose();

/**
 * tools/list as served, per openWorld value. The HTTP transport builds a server per request, and
 * turning the zod schemas into JSON Schema was about half of that server's construction time.
 */
const LISTINGS = new Map<string, ListedTool[]>();

/** Clients that do not render MCP Apps views get no `_meta.ui`: their tools/list stays as it was. */
function listedTools(openWorld: boolean, ui: boolean): ListedTool[] {
  const key = `${openWorld}:${ui}`;
  let listed = LISTINGS.get(key);
  if (!listed) {
    listed = allTools.map((tool) => {
      const listing = toolListing(tool, openWorld);
      return ui && tool.view ? { ...listing, _meta: { ui: { resourceUri: viewUri(tool.view) } } } : listing;
    });
    LISTINGS.set(key, listed);
  }
  return listed;
}

const LOGGING = new WeakMap<McpServer, McpLogChannel>();

/** The server's MCP log channel (logging/setLevel and notifications/message). */
export function loggingOf(server: McpServer): McpLogChannel {
  return LOGGING.get(server)!;
}

export function createServer({ backend, config }: CreateServerOptions): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: "Crypto Metrics", version: SERVER_VERSION, icons: SERVER_ICONS },
    // Bounds the work zod does on hostile argument objects (GHSA-46jr-4wx8-v453).
    {
      capabilities: { logging: {} },
      instructions: instructionsFor(backend.origin),
      maxToolInputElements: 512,
      jsonSchemaValidator: NO_JSON_SCHEMA_VALIDATION,
    },
  );
  const openWorld = backend.kind === "http";
  for (const tool of allTools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: RAW_ARGUMENTS,
        outputSchema: tool.output,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: openWorld },
      },
      (args, extra) => runTool(tool, args, { ...toolContext(backend, extra, config?.apiKey), ui: rendersViews(server) }),
    );
  }
  // Built on the first tools/list, not at start: a call-only client never pays for JSON Schema.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools(openWorld, rendersViews(server)) }));
  registerResources(server, backend);
  registerViews(server, backend);
  registerPrompts(server, config?.now);
  installCompletions(server, PROMPT_COMPLETERS, TEMPLATE_COMPLETERS);
  LOGGING.set(server, installLogging(server));
  refuseDroppedArguments(server);
  // Last: it wraps every request handler registered so far.
  invalidParamsAsCallerErrors(server);
  return server;
}

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * The SDK answers a request whose params fail the method's schema (tools/call with an array as
 * `arguments`, resources/read without a uri…) with -32603 Internal error. The fault is the caller's:
 * answer -32602 Invalid params naming the field. The handler map is the SDK's internal; a test pins it.
 */
function invalidParamsAsCallerErrors(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of [...(handlers as Map<string, RequestHandler>)]) {
    handlers.set(method, async (request: unknown, extra: unknown) => {
      try {
        return await handler(request, extra);
      } catch (err) {
        const issues = (err as { issues?: unknown }).issues;
        // Both zod flavours: ZodError (classic) and $ZodError (core/mini, what the SDK parses with).
        if (!(err instanceof Error) || !/^\$?ZodError$/.test(err.name) || !Array.isArray(issues)) throw err;
        const detail = (issues as { path?: PropertyKey[]; message?: string }[])
          .slice(0, 3)
          .map((issue) => `${(issue.path ?? []).map(String).join(".") || "params"}: ${issue.message ?? "invalid"}`)
          .join("; ");
        throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${detail}`);
      }
    });
  }
}

/** tools/call sees the raw request here, before the SDK's schema drops an own "__proto__" argument. */
function refuseDroppedArguments(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  const call = (handlers as Map<string, RequestHandler>).get("tools/call");
  if (!call) return;
  handlers.set("tools/call", async (request: unknown, extra: unknown) => {
    const params = (request as { params?: { name?: unknown; arguments?: unknown } }).params;
    const tool = allTools.find((t) => t.name === params?.name);
    const refused = tool && droppedArgument(tool, params?.arguments);
    return refused ? errorResult(refused, { tool: tool.name }) : call(request, extra);
  });
}

function toolContext(backend: Backend, extra: Extra, configuredKey: string | undefined): ToolContext {
  const apiKey = extra.authInfo?.token;
  const call: BackendContext = { signal: extra.signal };
  if (apiKey) call.apiKey = apiKey;
  const progressToken = extra._meta?.progressToken;
  if (progressToken !== undefined) {
    call.onProgress = ({ done, total, message }) => {
      // Once the request is over (its transport closed) the server may be serving another caller.
      if (extra.signal.aborted) return;
      void extra
        .sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress: done, total, ...(message !== undefined && { message }) },
        })
        .catch(() => undefined);
    };
  }
  return { backend, call, secret: apiKey ?? configuredKey };
}
