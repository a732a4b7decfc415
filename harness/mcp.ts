// A real MCP Client connected over InMemoryTransport to createServer(): over a real InProcessBackend of its
// own (temp state dir, pinned clock, a keys file with one key per error class), or over any backend given,
// optionally presenting a bearer key on every message (as the HTTP transport does) and recording what the
// server sends.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

import { InProcessBackend } from "../src/backend/inprocess/backend.js";
import type { Backend } from "../src/backend/types.js";
import { createServer } from "../src/server.js";
import { allTools } from "../src/tools/index.js";
import type { ViewStore } from "../src/tools/view-data.js";

export const NOW_ISO = "2025-12-28T12:00:00Z";
export const NOW = Date.parse(NOW_ISO);

export const KEYS = {
  plans: { free: { credits: 1000, rateLimit: { requests: 1000, windowSeconds: 60 } } },
  keys: [
    { key: "demo-key", plan: "free" },
    { key: "second-key", plan: "free" },
    { key: "onchain-only", plan: "free", metrics: ["lifespan/Lth_mvrv", "market/metcalfe_ratio"] },
    { key: "tiny", credits: 3, rateLimit: { requests: 1000, windowSeconds: 60 } },
    { key: "slow", credits: 1000, rateLimit: { requests: 1, windowSeconds: 60 } },
  ],
};

export interface McpRig {
  client: Client;
  /** Every message the server sent, responses and notifications alike, as JSON text (with `record` only). */
  readonly wire: string[];
  call(name: string, args?: unknown): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface RigOptions {
  /** Sent with every message as the HTTP transport sends the caller's key. */
  bearer?: string;
  /** The server's configured key (CRYPTO_METRICS_API_KEY), used when a call carries none. */
  configuredKey?: string;
  /** The server's clock (with `configuredKey`). */
  now?: () => number;
  /** The client declares the MCP Apps extension, as hosts that render views do. */
  ui?: boolean;
  /** Keep every message the server sends in `wire`. */
  record?: boolean;
  /** Where the server keeps views' data and signs their handles (default: the process's own). */
  views?: ViewStore;
}

/** A client linked to a server over `backend`; closing it leaves the backend open. */
export async function mcpRig(backend: Backend, options: RigOptions = {}): Promise<McpRig> {
  const config = options.configuredKey !== undefined && { apiKey: options.configuredKey, ...(options.now && { now: options.now }) };
  const server = createServer({ backend, ...(config && { config }), ...(options.views && { views: options.views }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const wire: string[] = [];
  if (options.record) {
    const serverSend = serverSide.send.bind(serverSide);
    serverSide.send = (message: JSONRPCMessage, opts?: Parameters<InMemoryTransport["send"]>[1]) => {
      wire.push(JSON.stringify(message));
      return serverSend(message, opts);
    };
  }
  if (options.bearer !== undefined) {
    const clientSend = clientSide.send.bind(clientSide);
    const authInfo = { token: options.bearer, clientId: "test", scopes: [] };
    clientSide.send = (message: JSONRPCMessage, opts?: Parameters<InMemoryTransport["send"]>[1]) =>
      clientSend(message, { ...opts, authInfo });
  }
  const capabilities = options.ui ? { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } } : {};
  const client = new Client({ name: "mcp-test", version: "1.0.0" }, { capabilities });
  await Promise.all([client.connect(clientSide), server.connect(serverSide)]);
  // The SDK client validates structuredContent against the advertised output schemas once it has listed the tools.
  await client.listTools();
  return {
    client,
    get wire() {
      if (!options.record) throw new Error("mcpRig(backend, { record: true }) keeps the wire");
      return wire;
    },
    call: async (name, args = {}) =>
      typed(name, (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/**
 * The client's check of a result goes as far as the listed output schema, which types no member (an SDK
 * client compiles what it lists at every session): every successful result is also held to its tool's
 * full typed shape here, member by member.
 */
function typed(name: string, result: CallToolResult): CallToolResult {
  const tool = allTools.find((t) => t.name === name);
  if (!tool || result.isError || result.structuredContent === undefined) return result;
  const parsed = tool.output.safeParse(result.structuredContent);
  if (!parsed.success)
    throw new Error(`${name}: structuredContent does not match its full output schema: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
  return result;
}

export interface Fixture extends McpRig {
  backend: InProcessBackend;
  stateDir: string;
  keysFile: string;
}

export function tempDir(prefix = "cm-mcp-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeKeys(dir: string): string {
  const file = join(dir, "keys.json");
  writeFileSync(file, JSON.stringify(KEYS));
  return file;
}

/**
 * A client over a fresh in-process backend on KEYS (or the backend given), the clock pinned to NOW; closing
 * it closes the backend. `key` is the key the backend uses when a call carries none (as with stdio, where
 * the configured CRYPTO_METRICS_API_KEY applies); by default the keys file's generous "demo-key".
 */
export async function connect(
  options: { key?: string; backend?: InProcessBackend; ui?: boolean; record?: boolean } = {},
): Promise<Fixture> {
  const dir = tempDir();
  const keysFile = writeKeys(dir);
  const stateDir = join(dir, "state");
  const key = options.key ?? "demo-key";
  const backend = options.backend ?? (await InProcessBackend.create({ apiKey: key, keysFile, stateDir, now: () => NOW }));
  const rig = await mcpRig(backend, {
    configuredKey: key,
    now: () => NOW,
    ...(options.ui && { ui: true }),
    ...(options.record && { record: true }),
  });
  const closeRig = rig.close;
  return Object.assign(rig, {
    backend,
    stateDir,
    keysFile,
    close: async () => {
      await closeRig();
      await backend.close();
    },
  });
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

export function errorOf(result: CallToolResult): {
  code: string;
  retryable: boolean;
  retry_after_s?: number;
  credits_remaining?: number;
  parameter?: string;
  suggestions?: string[];
} {
  return (result.structuredContent as { error: ReturnType<typeof errorOf> }).error;
}

/**
 * The chart data a result's view draws, loaded as a view does: inline from `_meta`, else through
 * view_data chunk by chunk; undefined when the result carries none.
 */
export async function loadView<V = Record<string, unknown>>(rig: Pick<McpRig, "call">, result: CallToolResult): Promise<V | undefined> {
  const meta = (result._meta as Record<string, { view?: unknown; handle?: string }> | undefined)?.["io.github.crypto-metrics-mcp/view"];
  if (!meta) return undefined;
  if (meta.view !== undefined) return meta.view as V;
  let json = "";
  let offset: number | null = 0;
  while (offset !== null) {
    const chunk = await rig.call("view_data", { handle: meta.handle, offset });
    if (chunk.isError) throw new Error(textOf(chunk));
    const s = chunk.structuredContent as { data: string; next: number | null };
    json += s.data;
    offset = s.next;
  }
  return JSON.parse(json) as V;
}
