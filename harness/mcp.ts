// A real MCP Client connected over InMemoryTransport to createServer() with a real InProcessBackend
// (temp state dir, pinned clock, a keys file with one key per error class).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { InProcessBackend } from "../src/backend/inprocess/backend.js";
import { createServer } from "../src/server.js";

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

export interface Fixture {
  client: Client;
  backend: InProcessBackend;
  stateDir: string;
  keysFile: string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
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
 * `key` is the key the in-process backend uses when a call carries none (as with stdio, where the
 * configured CRYPTO_METRICS_API_KEY applies); by default the keys file's generous "demo-key".
 */
export async function connect(options: { key?: string; backend?: InProcessBackend; ui?: boolean } = {}): Promise<Fixture> {
  const dir = tempDir();
  const keysFile = writeKeys(dir);
  const stateDir = join(dir, "state");
  const backend =
    options.backend ?? await InProcessBackend.create({ apiKey: options.key ?? "demo-key", keysFile, stateDir, now: () => NOW });
  const server = createServer({ backend, config: { apiKey: options.key ?? "demo-key", now: () => NOW } });
  // `ui`: the client declares the MCP Apps extension, as hosts that render views do.
  const capabilities = options.ui ? { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } } : {};
  const client = new Client({ name: "mcp-test", version: "1.0.0" }, { capabilities });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([client.connect(clientSide), server.connect(serverSide)]);
  // The SDK client validates structuredContent against the advertised output schemas once it has listed the tools.
  await client.listTools();
  return {
    client,
    backend,
    stateDir,
    keysFile,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
      await backend.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

export function errorOf(result: CallToolResult): { code: string; retryable: boolean; retry_after_s?: number; credits_remaining?: number; parameter?: string; suggestions?: string[] } {
  return (result.structuredContent as { error: ReturnType<typeof errorOf> }).error;
}
