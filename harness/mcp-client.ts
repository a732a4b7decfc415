// A real MCP Client over InMemoryTransport to createServer(), optionally presenting a bearer key
// on every message (as the HTTP transport does) and recording every notification the server sends.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Backend } from "../src/backend/types.js";
import { createServer } from "../src/server.js";

export interface McpRig {
  client: Client;
  /** Every message the server sent, responses and notifications alike, as JSON text. */
  wire: string[];
  call(name: string, args: unknown): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function mcpRig(backend: Backend, options: { bearer?: string; configuredKey?: string } = {}): Promise<McpRig> {
  const server = createServer({ backend, ...(options.configuredKey !== undefined && { config: { apiKey: options.configuredKey } }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const wire: string[] = [];
  // Record what leaves the server, and attach the caller's key the way the HTTP transport does.
  const serverSend = serverSide.send.bind(serverSide);
  serverSide.send = (message: JSONRPCMessage, opts?: Parameters<InMemoryTransport["send"]>[1]) => {
    wire.push(JSON.stringify(message));
    return serverSend(message, opts);
  };
  if (options.bearer !== undefined) {
    const clientSend = clientSide.send.bind(clientSide);
    const authInfo = { token: options.bearer, clientId: "test", scopes: [] };
    clientSide.send = (message: JSONRPCMessage, opts?: Parameters<InMemoryTransport["send"]>[1]) => clientSend(message, { ...opts, authInfo });
  }
  const client = new Client({ name: "reliability", version: "1.0.0" }, { capabilities: {} });
  await Promise.all([client.connect(clientSide), server.connect(serverSide)]);
  // Listing first makes the client check structuredContent against the advertised output schemas.
  await client.listTools();
  return {
    client,
    wire,
    call: async (name, args) => (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
