// Records what the real server answers to initialize and the four lists, for each backend kind, through
// a real MCP client in memory. The build (scripts/bundle.mjs) runs this and compiles the result into
// dist/ for the stdio front; the package test checks the front's answers against a live server's.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
// The 2025-era versions the server negotiates at initialize (2026-07-28 has no initialize).
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { CLIENT_CAPABILITIES_META_KEY, createMcpHandler, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";

import { SIMULATED_ORIGIN } from "../src/backend/inprocess/origin.js";
import type { Backend } from "../src/backend/types.js";
import { createServer } from "../src/server.js";
import { type Handshake, type ListMethod, MODERN_METHODS, type ModernMethod, packHandshake } from "../src/transports/handshake.js";

/** The 2026-07-28 revision the front answers (the one the SDK serves without initialize). */
const MODERN = "2026-07-28";

/** server/discover and the lists as a 2026-07-28 request gets them, through the SDK's own entry. */
async function recordModern(kind: Backend["kind"]): Promise<Partial<Record<ModernMethod, Record<string, unknown>>>> {
  const handler = createMcpHandler(({ era }) => createServer({ backend: standIn(kind), era }), { legacy: "reject" });
  const out: Partial<Record<ModernMethod, Record<string, unknown>>> = {};
  for (const method of MODERN_METHODS) {
    const res = await handler.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": MODERN,
          "mcp-method": method,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method,
          params: { _meta: { [PROTOCOL_VERSION_META_KEY]: MODERN, [CLIENT_CAPABILITIES_META_KEY]: {} } },
        }),
      }),
    );
    const message = (await res.json()) as { result?: Record<string, unknown> };
    if (!message.result) throw new Error(`no ${method} result recorded: ${JSON.stringify(message).slice(0, 300)}`);
    if (!message.result.nextCursor) out[method] = message.result;
  }
  await handler.close();
  return out;
}

/** Registration reads only a backend's kind and origin; a handshake never fetches. */
function standIn(kind: Backend["kind"]): Backend {
  return {
    kind,
    // The instructions say what the data is: the embedded market's calibration, or a real service.
    origin: kind === "inprocess" ? SIMULATED_ORIGIN : { kind: "service", host: "upstream" },
    fetch: () => Promise.reject(new Error("no data while recording the handshake")),
    close: () => Promise.resolve(),
  };
}

async function record(kind: Backend["kind"]): Promise<Handshake["byKind"]["inprocess"]> {
  const server = createServer({ backend: standIn(kind) });
  const client = new Client({ name: "handshake", version: "1.0.0" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  let initialize: Record<string, unknown> | undefined;
  // The raw initialize result, as the server sent it.
  const onmessage = (message: unknown) => {
    const m = message as { id?: unknown; result?: Record<string, unknown> };
    if (m.id === 0 && m.result && initialize === undefined) initialize = m.result;
  };
  await server.connect(b);
  const send = b.send.bind(b);
  b.send = async (message, options) => {
    onmessage(message);
    return send(message, options);
  };
  await client.connect(a);
  const schemas = {
    "tools/list": ListToolsResultSchema,
    "prompts/list": ListPromptsResultSchema,
    "resources/list": ListResourcesResultSchema,
    "resources/templates/list": ListResourceTemplatesResultSchema,
  } as const;
  const lists: Partial<Record<ListMethod, Record<string, unknown>>> = {};
  for (const [method, schema] of Object.entries(schemas) as [ListMethod, (typeof schemas)[ListMethod]][]) {
    const result = await client.request({ method }, schema);
    // A paged list would need the server for its next pages: leave it to the server.
    if (!("nextCursor" in result && result.nextCursor)) lists[method] = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
  }
  await client.close();
  await server.close();
  if (!initialize) throw new Error("no initialize result recorded");
  const { protocolVersion: _, ...rest } = initialize;
  return { initialize: rest, lists, modern: await recordModern(kind) };
}

export async function recordHandshake(): Promise<Handshake> {
  return {
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
    supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    modernProtocolVersions: [MODERN],
    byKind: { inprocess: await record("inprocess"), http: await record("http") },
  };
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  // Packed: the bundle carries every answer as its text, each large value once (see packHandshake).
  process.stdout.write(JSON.stringify(packHandshake(await recordHandshake())));
}
