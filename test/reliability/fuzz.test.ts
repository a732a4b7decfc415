// Fuzzed tool arguments through a real MCP Client and createServer(): wrong types, 2 MB strings,
// deep nesting, __proto__/constructor keys, lone surrogates, impossible dates, huge numbers and
// NaN-like strings give no crash, no unhandled rejection, no prototype pollution and no -32603;
// every input the tool's schema refuses is an isError result naming a field it got wrong.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type McpRig, mcpRig, textOf } from "../../harness/mcp.js";
import { BIG_RATE, type ServiceRig, serviceRig } from "../../harness/service.js";
import { createServer } from "../../src/server.js";
import { allTools } from "../../src/tools/index.js";

const BASE: Record<string, Record<string, unknown>> = {
  list_assets: {},
  get_series: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-06-01", endDate: "2025-06-03" },
  get_ohlcv: { metric: "derivatives/Volume_usd", asset: "btc", startDate: "2025-06-01", endDate: "2025-06-02" },
  get_metrics_variation: { asset: "btc" },
  get_liquidation_heatmap: { asset: "btc", timeframe: "1h", lookback: "24h" },
  compare: { metric: "price", assets: ["btc", "eth"], startDate: "2025-06-01", endDate: "2025-06-05" },
  rank_assets: { metric: "exchange_flow/exchange_reserve", assets: ["btc", "eth"], window: "7d" },
};
const REQUIRED: Record<string, string[]> = {
  list_assets: [],
  get_series: ["metric", "asset"],
  get_ohlcv: ["metric", "asset"],
  get_metrics_variation: ["asset"],
  get_liquidation_heatmap: ["asset"],
  compare: [],
  rank_assets: [],
};
const STRANGE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "apiKey", "Asset", "metric ", ""];

const HUGE = "x".repeat(2 * 1024 * 1024);
const deep = (depth: number, leaf: unknown, array: boolean): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = array ? [v] : { a: v };
  return v;
};
const DEEP_OBJECT = deep(1_000, "x", false);
const DEEP_ARRAY = deep(1_000, 1, true);

/** What no answer may carry raw: C0/C1 controls but line breaks, bidi and zero-width format characters. */
const SPOOFING = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/;

/** Any UTF-16 code units: lone surrogates, C0/C1 controls, bidi overrides, NUL. */
const codeUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 24 }).map((c) => String.fromCharCode(...c));
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(HUGE, DEEP_OBJECT, DEEP_ARRAY, "x".repeat(41), "x".repeat(65)),
  fc.constantFrom("\ud800", "a\udfffb", "\u202ebtc", "btc\u0000", "\u0000", "\ufeff", "\u2066eth\u2069", "a\u200db", "\u0085x\u009b"),
  fc.constantFrom(
    "2025-02-30",
    "2025-13-01",
    "0000-00-00",
    "2025-06-31T25:61:00Z",
    "+275760-09-13",
    "-000001-01-01",
    "2025-06-01T00:00:00+99:00",
    "99999-01-01",
    "1969-12-31",
    "2025-06-01T",
  ),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -0, 1.5, 4.000001, 5_001, 3, -1, 0),
  fc.constantFrom("NaN", "Infinity", "-Infinity", "1e309", "0x10", " 12 ", "", "null", "undefined", "true"),
  fc.constantFrom(
    "../../etc/passwd",
    "btc/../eth",
    "btc?x=1",
    "%2e%2e",
    "<script>",
    "'; DROP TABLE",
    "BTC",
    " btc ",
    "lifespan/LTH_MVRV",
    "derivatives/metrics-variation",
  ),
  codeUnits,
  fc.jsonValue({ maxDepth: 3 }),
);

type Mutation = { op: "set"; key: string; value: unknown } | { op: "delete"; key: string };

function caseArb(toolName: string): fc.Arbitrary<{ tool: string; mutations: Mutation[] }> {
  const tool = allTools.find((t) => t.name === toolName)!;
  const fields = Object.keys(tool.input.shape);
  const set = fc.record({ op: fc.constant("set" as const), key: fc.constantFrom(...fields, ...STRANGE_KEYS), value: hostile });
  const del = REQUIRED[toolName]!.length
    ? [fc.record({ op: fc.constant("delete" as const), key: fc.constantFrom(...REQUIRED[toolName]!) })]
    : [];
  const mutation: fc.Arbitrary<Mutation> = fc.oneof({ weight: 9, arbitrary: set }, ...del.map((arbitrary) => ({ weight: 1, arbitrary })));
  return fc.record({ tool: fc.constant(toolName), mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }) });
}

/** The arguments as a client would send them: JSON text parsed, so "__proto__" is an own key. */
function buildArgs(tool: string, mutations: Mutation[]): { args: Record<string, unknown>; json: string } {
  const entries = new Map<string, unknown>(Object.entries(BASE[tool]!));
  for (const m of mutations) {
    if (m.op === "delete") entries.delete(m.key);
    else entries.set(m.key, m.value);
  }
  const json = `{${[...entries].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`;
  return { args: JSON.parse(json) as Record<string, unknown>, json };
}

let rig: ServiceRig;
let mcp: McpRig;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  process.on("uncaughtException", onUnhandled);
  rig = serviceRig({ keys: [{ key: "fuzz", credits: 1_000_000_000, rateLimit: BIG_RATE }] });
  mcp = await mcpRig(rig.backend);
});

afterAll(async () => {
  await mcp.close();
  rig.close();
  process.off("unhandledRejection", onUnhandled);
  process.off("uncaughtException", onUnhandled);
});

describe("fuzzed tool arguments over MCP", () => {
  const stats = { calls: 0, isError: 0, ok: 0 };

  for (const tool of allTools) {
    it(`${tool.name}: 1,000 hostile argument sets, each refused with the field named or answered as the schema allows`, async () => {
      await fc.assert(
        fc.asyncProperty(caseArb(tool.name), async ({ mutations }) => {
          const { args } = buildArgs(tool.name, mutations);
          const result = await mcp.call(tool.name, args);
          stats.calls++;
          const text = textOf(result);
          // Echoed input never carries a format or control character raw (bidi, zero-width, C0/C1).
          expect(text, JSON.stringify(text.slice(0, 300))).not.toMatch(SPOOFING);
          // An own "__proto__" key is refused like any unknown argument (the server checks it before
          // the SDK's parse would drop it), so the schema sees exactly what was sent.
          const seen = args;
          const valid = tool.input.safeParse(seen).success;
          if (!result.isError) {
            stats.ok++;
            expect(valid, `accepted what the schema refuses: ${JSON.stringify(seen).slice(0, 200)}`).toBe(true);
            return;
          }
          stats.isError++;
          expect(text.length).toBeGreaterThan(0);
          expect(text.length).toBeLessThan(2_000);
          if (/maximum of \d+ elements/.test(text)) return; // the SDK's element cap (GHSA-46jr-4wx8-v453): about the arguments as a whole
          const keys = mutations.map((m) => m.key);
          const named = keys.filter((k) => k !== "");
          const lower = text.toLowerCase();
          const names =
            named.some((k) => lower.includes(k.trim().toLowerCase())) || (keys.includes("") && lower.includes('unknown argument ""'));
          expect(names, `"${text.slice(0, 300)}" names none of ${JSON.stringify(named)}`).toBe(true);
        }),
        { numRuns: 1_000 },
      );
    });
  }

  it("left no unhandled rejection, no uncaught exception and no polluted prototype; the server still answers", async () => {
    expect(stats.calls).toBeGreaterThanOrEqual(5_000);
    expect(stats.isError).toBeGreaterThan(stats.calls / 2);
    expect(unhandled).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    await expect(mcp.client.ping()).resolves.toBeDefined();
    const ok = await mcp.call("get_series", BASE.get_series);
    expect(ok.isError).toBeFalsy();
  });
});

describe("malformed requests at the protocol level", () => {
  async function raw(messages: object[]): Promise<Map<number, JSONRPCMessage>> {
    const r = serviceRig({ keys: [{ key: "k", credits: 1_000 }] });
    const server = createServer({ backend: r.backend });
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    const replies = new Map<number, JSONRPCMessage>();
    client.onmessage = (m) => {
      if ("id" in m && typeof m.id === "number") replies.set(m.id, m);
    };
    await server.connect(serverSide);
    await client.start();
    await client.send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    for (const m of messages) await client.send(m as JSONRPCMessage);
    for (let i = 0; i < 50 && replies.size < messages.length + 1; i++) await new Promise((res) => setTimeout(res, 5));
    await server.close();
    r.close();
    return replies;
  }

  it("answers params that fail the method's schema with -32602 naming the field, never -32603", async () => {
    const cases: [object, string][] = [
      [{ name: "get_series", arguments: [1, 2] }, "arguments"],
      [{ name: "get_series", arguments: "btc" }, "arguments"],
      [{ name: "get_series", arguments: null }, "arguments"],
      [{ name: 42, arguments: {} }, "name"],
      [{}, "name"],
    ];
    const requests = cases.map(([params], i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params }));
    requests.push({ jsonrpc: "2.0", id: 10, method: "resources/read", params: { uri: 5 } as unknown as object });
    requests.push({ jsonrpc: "2.0", id: 11, method: "prompts/get", params: {} });
    const replies = await raw(requests);
    const expectations: [number, string][] = [...cases.map(([, field], i): [number, string] => [i + 1, field]), [10, "uri"], [11, "name"]];
    for (const [id, field] of expectations) {
      const reply = replies.get(id) as { error?: { code: number; message: string } } | undefined;
      expect(reply?.error?.code, `request ${id}`).toBe(-32602);
      expect(reply!.error!.message).toContain(field);
    }
  });

  it("answers an unknown tool as an isError result, not a protocol failure", async () => {
    const replies = await raw([{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "drop_tables", arguments: {} } }]);
    const reply = replies.get(1) as { result?: { isError?: boolean; content: { text: string }[] } };
    expect(reply.result?.isError).toBe(true);
    expect(reply.result!.content[0]!.text).toContain("drop_tables");
  });
});
