// Both protocol eras on both transports, as a client of each era sees them: the SDK v2 Client pinned to
// 2026-07-28 (stateless: server/discover, version and capabilities in every request) and in the
// 2025 mode (initialize), over a spawned stdio process and over Streamable HTTP on loopback; every
// tool driven; views from the capabilities each request declares; caching fields; and the errors the
// 2026-07-28 specification names for bad requests, none of them charged.
import { join } from "node:path";

import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NOW, NOW_ISO, tempDir, writeKeys } from "../../harness/mcp.js";
import { cleanEnv, ROOT } from "../../harness/spawn.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { type RunningHttpServer, startHttpServer } from "../../src/transports/http.js";

const MODERN = "2026-07-28";
const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
const TOOL_ORDER = ["list_assets", "get_series", "get_ohlcv", "get_metrics_variation", "get_liquidation_heatmap", "compare", "rank_assets"];
/** One valid call per tool. */
const CALLS: Record<string, Record<string, unknown>> = {
  list_assets: { asset: "btc" },
  get_series: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-12-01" },
  get_ohlcv: { metric: "price", asset: "eth", startDate: "2025-12-20" },
  get_metrics_variation: { asset: "btc" },
  get_liquidation_heatmap: { asset: "btc", timeframe: "4h" },
  compare: { metric: "price", assets: ["btc", "eth"], startDate: "2025-12-01" },
  rank_assets: { metric: "exchange_flow/exchange_reserve", assets: ["btc", "eth", "ltc"], window: "7d" },
};

type Era = "modern" | "legacy";
const negotiation = (era: Era) => ({ mode: era === "modern" ? { pin: MODERN } : ("legacy" as const) });

let backend: InProcessBackend;
let http: RunningHttpServer;
let stateDir: string;
let keysFile: string;

beforeAll(async () => {
  const dir = tempDir("cm-eras-");
  keysFile = writeKeys(dir);
  stateDir = join(dir, "state");
  backend = await InProcessBackend.create({ apiKey: "demo-key", keysFile, stateDir, now: () => NOW });
  http = await startHttpServer({ backend, host: "127.0.0.1", port: 0, requireKey: false, apiKey: "demo-key" });
});
afterAll(async () => {
  await http.close();
  await backend.close();
});

async function overHttp(era: Era, capabilities: object = {}, key?: string): Promise<Client> {
  const client = new Client({ name: "eras", version: "1" }, { capabilities, versionNegotiation: negotiation(era) });
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers } }));
  return client;
}

async function overStdio(era: Era, capabilities: object = {}): Promise<Client> {
  const client = new Client({ name: "eras", version: "1" }, { capabilities, versionNegotiation: negotiation(era) });
  const env = cleanEnv({
    CRYPTO_METRICS_NOW: NOW_ISO,
    CRYPTO_METRICS_KEYS_FILE: keysFile,
    CRYPTO_METRICS_STATE_DIR: tempDir("cm-eras-stdio-"),
    CRYPTO_METRICS_API_KEY: "demo-key",
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", join(ROOT, "src/cli.ts"), "stdio"],
      cwd: ROOT,
      env: env as Record<string, string>,
      stderr: "pipe",
    }),
  );
  return client;
}

const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe.each([
  ["stdio", overStdio],
  ["HTTP", overHttp],
] as const)("over %s", (_transport, open) => {
  it.each(["modern", "legacy"] as const)(
    "a %s-era client lists the tools in one fixed order and drives every one",
    async (era) => {
      const client = await open(era);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(era === "modern" ? MODERN : "2025-11-25");
        const first = (await client.listTools()).tools.map((t) => t.name);
        expect(first).toEqual(TOOL_ORDER);
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(first);
        for (const name of TOOL_ORDER) {
          const result = (await client.callTool({ name, arguments: CALLS[name] })) as CallToolResult;
          expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
          expect(text(result).length, name).toBeGreaterThan(40);
          expect(result.structuredContent, name).toBeTypeOf("object");
        }
        const bad = (await client.callTool({
          name: "get_series",
          arguments: { metric: "lifespan/Lth_mvrv", asset: "btcc" },
        })) as CallToolResult;
        expect(bad.isError).toBe(true);
        expect(text(bad)).toMatch(/Did you mean "btc"/);
        expect((await client.listResourceTemplates()).resourceTemplates.length).toBeGreaterThanOrEqual(3);
        expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["asset_brief", "liquidation_risk_brief"]);
        const completion = await client.complete({
          ref: { type: "ref/prompt", name: "asset_brief" },
          argument: { name: "asset", value: "et" },
        });
        expect(completion.completion.values).toContain("eth");
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it("offers views to a 2026-07-28 client that declares the MCP Apps extension in its requests, and only to it", async () => {
    const withUi = await open("modern", UI);
    const plain = await open("modern");
    try {
      const listed = (await withUi.listTools()).tools;
      const viewed = listed.filter((t) => (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri).map((t) => t.name);
      expect(viewed).toEqual(["get_series", "get_ohlcv", "get_liquidation_heatmap", "compare"]);
      expect(listed.find((t) => t.name === "view_data")?._meta?.ui).toEqual({ visibility: ["app"] });
      expect((await plain.listTools()).tools.some((t) => t._meta?.ui || t.name === "view_data")).toBe(false);
      const heat = (await withUi.callTool({ name: "get_liquidation_heatmap", arguments: { asset: "btc" } })) as CallToolResult;
      expect((heat.structuredContent as { view?: unknown }).view).toBeUndefined();
      // The view's data by handle, in the same era and transport; a client without the extension is refused it.
      const handle = (heat._meta as Record<string, { handle: string }>)["io.github.crypto-metrics-mcp/view"]!.handle;
      const data = (await withUi.callTool({ name: "view_data", arguments: { handle } })) as CallToolResult;
      expect(JSON.parse((data.structuredContent as { data: string }).data)).toMatchObject({ kind: "heatmap", asset: "btc" });
      expect(((await plain.callTool({ name: "view_data", arguments: { handle } })) as CallToolResult).isError).toBe(true);
      const view = await withUi.readResource({ uri: "ui://crypto-metrics/heatmap.html" });
      expect(view.contents[0]!.mimeType).toBe("text/html;profile=mcp-app");
    } finally {
      await Promise.all([withUi.close(), plain.close()]);
    }
  }, 60_000);
});

describe("2025-era views", () => {
  it("over stdio, from the capabilities declared at initialize", async () => {
    const client = await overStdio("legacy", UI);
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.filter((t) => (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri).length).toBe(4);
      expect(tools.some((t) => t.name === "view_data")).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("not over stateless HTTP, where no 2025-era request carries the client's capabilities", async () => {
    const client = await overHttp("legacy", UI);
    try {
      expect((await client.listTools()).tools.some((t) => t._meta?.ui)).toBe(false);
    } finally {
      await client.close();
    }
  });
});

/** A raw 2026-07-28 request over HTTP, headers and envelope written out. */
async function modern(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}, version = MODERN) {
  const res = await fetch(`${http.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": version,
      "mcp-method": method,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} },
      },
    }),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      result?: Record<string, unknown>;
      error?: { code: number; message: string; data?: Record<string, unknown> };
    },
  };
}

describe("2026-07-28 over HTTP, on the wire", () => {
  it("answers server/discover and marks results complete and cacheable", async () => {
    const discover = await modern("server/discover", {});
    expect(discover.body.result).toMatchObject({ supportedVersions: [MODERN], resultType: "complete", cacheScope: "public" });
    expect(discover.body.result!.instructions).toMatch(/list_assets/);
    // 2026-07-28 deprecates the logging capability: not offered (the server logs to stderr).
    expect((discover.body.result!.capabilities as Record<string, unknown>).logging).toBeUndefined();
    const tools = await modern("tools/list", {});
    expect(tools.body.result).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "private" });
    const prompts = await modern("prompts/list", {});
    expect(prompts.body.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
    const catalog = await modern("resources/read", { uri: "crypto-metrics://catalog" }, { "mcp-name": "crypto-metrics://catalog" });
    expect(catalog.body.result).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "public" });
    // A data read depends on the caller's key and is charged: never cached.
    const data = await modern(
      "resources/read",
      { uri: "crypto-metrics://variation/btc" },
      { "mcp-name": "crypto-metrics://variation/btc" },
    );
    expect(data.body.result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
  });

  it("says who it is in every result, with its icon where it introduces itself (server/discover) only", async () => {
    const identity = (result: Record<string, unknown> | undefined) =>
      (result?._meta as Record<string, { name: string; version: string; icons?: { mimeType: string }[] }>)[
        "io.modelcontextprotocol/serverInfo"
      ];
    const discover = identity((await modern("server/discover", {})).body.result);
    expect(discover?.icons?.map((i) => i.mimeType)).toEqual(["image/png"]);
    const call = await modern(
      "tools/call",
      { name: "list_assets", arguments: { asset: "btc" } },
      { "mcp-name": "list_assets", "mcp-param-asset": "btc" },
    );
    const called = identity(call.body.result);
    expect(called).toMatchObject({ name: discover!.name, version: discover!.version });
    expect(called!.icons).toBeUndefined();
  });

  it("names the error for an unsupported version, a mismatched Mcp-Method, a missing Mcp-Param-Asset, a stale cursor and an unknown resource; nothing charged", async () => {
    const before = (await backend.service.creditsRemaining("demo-key"))!;
    const future = await modern("tools/list", {}, {}, "2099-01-01");
    expect(future.status).toBe(400);
    const INITIALIZE = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];
    const SERVED = [MODERN, ...INITIALIZE];
    // What server/discover lists (the suites check the two agree), and beside it what initialize reaches.
    expect(future.body.error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN], initialize: INITIALIZE, requested: "2099-01-01" },
    });
    expect(future.body.error!.message).toMatch(/2025-11-25/);
    expect((future.body as { id?: unknown }).id).toBe(1);
    // The 2025 style (the version in the header only, no envelope) is answered the same way.
    const older = await fetch(`${http.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-99-99" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });
    expect(older.status).toBe(400);
    expect(await older.json()).toMatchObject({ id: 7, error: { code: -32022, data: { supported: SERVED, requested: "2025-99-99" } } });
    // A header naming another version than the envelope's served one is a mismatch, not an unknown version.
    const disagreeing = await fetch(`${http.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "v999.0.0" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 8,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } },
      }),
    });
    expect(disagreeing.status).toBe(400);
    expect(((await disagreeing.json()) as { error: { code: number } }).error.code).toBe(-32020);
    const mismatch = await modern("tools/list", {}, { "mcp-method": "prompts/list" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error!.code).toBe(-32020);
    const call = { name: "get_metrics_variation", arguments: { asset: "btc" } };
    const unmirrored = await modern("tools/call", call, { "mcp-name": "get_metrics_variation" });
    expect(unmirrored.status).toBe(400);
    expect(unmirrored.body.error!.message).toMatch(/Mcp-Param-Asset/);
    const wrongAsset = await modern("tools/call", call, { "mcp-name": "get_metrics_variation", "mcp-param-asset": "eth" });
    expect(wrongAsset.status).toBe(400);
    const cursor = await modern("tools/list", { cursor: "page-2" });
    expect(cursor.body.error).toMatchObject({ code: -32602 });
    expect(cursor.body.error!.message).toMatch(/cursor/);
    const missing = await modern("resources/read", { uri: "crypto-metrics://nothing" }, { "mcp-name": "crypto-metrics://nothing" });
    expect(missing.body.error).toMatchObject({ code: -32602 });
    expect(await backend.service.creditsRemaining("demo-key")).toBe(before);
    // The same call with the header mirrored is served (and charged).
    const served = await modern("tools/call", call, { "mcp-name": "get_metrics_variation", "mcp-param-asset": "btc" });
    expect(served.body.result).toMatchObject({ resultType: "complete" });
    expect(await backend.service.creditsRemaining("demo-key")).toBe(before - 2);
  });

  it("meters each bearer key on its own, as in the 2025 era", async () => {
    const tiny = await overHttp("modern", {}, "tiny");
    try {
      const r = (await tiny.callTool({
        name: "get_series",
        arguments: { metric: "mining/DiffLast", asset: "btc", startDate: "2025-12-01" },
      })) as CallToolResult;
      expect((r.structuredContent as { credits: { remaining: number } }).credits.remaining).toBeLessThan(3);
    } finally {
      await tiny.close();
    }
  });
});
