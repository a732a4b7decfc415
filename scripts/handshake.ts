// Records what the real server answers to initialize and the four lists, for each backend kind, through
// a real MCP client in memory. The build (scripts/bundle.mjs) runs this and compiles the result into
// dist/ for the stdio front; the package test checks the front's answers against a live server's.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  LATEST_PROTOCOL_VERSION, ListPromptsResultSchema, ListResourcesResultSchema, ListResourceTemplatesResultSchema, ListToolsResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { SIMULATED_ORIGIN } from "../src/backend/inprocess/origin.js";
import type { Backend } from "../src/backend/types.js";
import { createServer } from "../src/server.js";
import type { Handshake, ListMethod } from "../src/transports/handshake.js";

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
  return { initialize: rest, lists };
}

export async function recordHandshake(): Promise<Handshake> {
  return {
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
    supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    byKind: { inprocess: await record("inprocess"), http: await record("http") },
  };
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  process.stdout.write(JSON.stringify(await recordHandshake()));
}
