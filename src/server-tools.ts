// The tools as a server serves them: tools/list as each client is given it (per era and per view
// support, built on the first ask), tools/call through runTool for every tool and view_data for the
// views, and the ToolRunner that resources read the tools through. server.ts builds the server.
import { type CallToolResult, type McpServer, ProtocolError, ProtocolErrorCode, type ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";

import type { Backend, BackendContext } from "./backend/types.js";
import { errorResult, ToolInputError } from "./mcp/errors.js";
import { checkParamHeadersAgainst } from "./mcp/sdk/param-headers.js";
import type { ToolRunner } from "./mcp/tool-runner.js";
import { rendersViews, UI_EXTENSION, viewUri } from "./resources/views.js";
import { runTool, type ToolContext } from "./tools/define-tool.js";
import { allTools } from "./tools/index.js";
import { fullOutputSchema, type ListedTool, toolListing } from "./tools/listing.js";
import { VIEW_DATA_TOOL, viewData, viewDataListing, type ViewStore } from "./tools/view-data.js";

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

/** The tools as resources reach them: by name, against this server's backend. */
export function toolRunner(backend: Backend): ToolRunner {
  const byName = (name: string) => allTools.find((t) => t.name === name)!;
  return {
    argumentsOf: (name) => Object.keys(byName(name).input.shape),
    run: (name, args, context) => runTool(byName(name), args, { backend, ...context }),
    outputSchemas: () => Object.fromEntries(allTools.map((tool) => [tool.name, fullOutputSchema(tool.output)])),
  };
}

/**
 * tools/list (built on the first ask, not at start: a call-only client never pays for JSON Schema)
 * and tools/call (each tool through runTool; view_data from the views' store, for clients that
 * render views).
 */
export function installTools(
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
