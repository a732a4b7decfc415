// Views never feed the model: for a client that renders MCP Apps views, the model-facing fields
// (text, structuredContent) are the digest alone, the view's data travels in _meta or through the
// app-only view_data tool, and a handle is stateless, tamper-proof, bound to its caller, expiring
// and never charged. Token counts are o200k, as hosts' models see them.
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, errorOf, type Fixture, loadView, type McpRig, mcpRig, NOW, tempDir, textOf, writeKeys } from "../../harness/mcp.js";
import { SILENT } from "../../harness/mock-upstream.js";
import { startRest } from "../../harness/service.js";
import { HttpBackend } from "../../src/backend/http/index.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { callerTag, contentSha, signHandle } from "../../src/mcp/view-handle.js";
import { viewSecret } from "../../src/state-dir.js";
import { CHUNK_BYTES, INLINE_MAX_BYTES, VIEW_META_KEY, type ViewStore } from "../../src/tools/view-data.js";
import { createViewStore } from "../../src/tools/view-store.js";

const EIGHT = ["btc", "eth", "sol", "xrp", "bnb", "doge", "ada", "link"];
/** The calls the bench measures, and the largest answers a view draws. */
const CASES: Array<[string, Record<string, unknown>]> = [
  ["get_liquidation_heatmap", { asset: "btc" }],
  ["get_liquidation_heatmap", { asset: "eth", timeframe: "30m", lookback: "30d" }],
  ["compare", { metric: "price", assets: EIGHT }],
  ["get_ohlcv", { metric: "price", asset: "btc" }],
  ["get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" }],
  ["get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", startDate: "2025-12-27", endDate: "2025-12-27" }],
  ["get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc" }],
];

const textTokens = (r: CallToolResult) => countTokens(textOf(r));
const metaOf = (r: CallToolResult) => (r._meta as Record<string, Record<string, unknown>> | undefined)?.[VIEW_META_KEY];

let plain: Fixture;
let ui: Fixture;
let secret: Buffer;
let store: ViewStore;
let rig: McpRig;
let backend: InProcessBackend;

beforeAll(async () => {
  plain = await connect();
  ui = await connect({ ui: true });
  secret = randomBytes(32);
  store = createViewStore(() => secret);
  const dir = tempDir();
  backend = await InProcessBackend.create({ apiKey: "demo-key", keysFile: writeKeys(dir), stateDir: `${dir}/state`, now: () => NOW });
  rig = await mcpRig(backend, { configuredKey: "demo-key", now: () => NOW, ui: true, views: store });
});
afterAll(async () => {
  await plain.close();
  await ui.close();
  await rig.close();
  await backend.close();
});

describe("the model's fields with the UI extension declared", () => {
  it.each(CASES)("%s %j: the same text and structuredContent as without it, ≤ 1.3× the text; _meta ≤ 8k tokens", async (name, args) => {
    const a = await ui.call(name, args);
    const b = await plain.call(name, args);
    expect(a.isError).toBeFalsy();
    expect(textOf(a)).toBe(textOf(b));
    expect(a.structuredContent).toEqual(b.structuredContent);
    expect(countTokens(JSON.stringify(a.structuredContent))).toBeLessThanOrEqual(1.3 * textTokens(a));
    expect(countTokens(JSON.stringify(a._meta))).toBeLessThanOrEqual(8_000);
    expect(b._meta).toBeUndefined();
    const meta = metaOf(a)!;
    // Small data inline, larger by handle: never both, never more than the inline bound in _meta.
    if (meta.view !== undefined) expect(JSON.stringify(meta.view).length).toBeLessThanOrEqual(INLINE_MAX_BYTES);
    else expect(meta.handle).toMatch(/^v1\./);
    expect(await loadView(ui, a)).toBeDefined();
  });

  it("keeps the view's data out of the text and structuredContent for every tool that draws", async () => {
    const r = await ui.call("get_liquidation_heatmap", { asset: "btc", timeframe: "1h" });
    const view = (await loadView<{ z: string }>(ui, r))!;
    expect(JSON.stringify(r.structuredContent)).not.toContain(view.z.slice(0, 40));
    expect(JSON.stringify(r.content)).not.toContain(view.z.slice(0, 40));
  });
});

describe("tools/list by capability", () => {
  it("lists view_data, app-only, to UI clients only; the model-visible tools are the same", async () => {
    const withUi = (await ui.client.listTools()).tools;
    const without = (await plain.client.listTools()).tools;
    const vd = withUi.find((t) => t.name === "view_data")!;
    expect((vd._meta as { ui: { visibility: string[] } }).ui.visibility).toEqual(["app"]);
    expect(without.some((t) => t.name === "view_data")).toBe(false);
    const model = withUi.filter((t) => t.name !== "view_data").map(({ _meta: _, ...t }) => t);
    expect(model).toEqual(without);
    // Deterministic: the same list on every call.
    expect((await ui.client.listTools()).tools).toEqual(withUi);
  });
});

describe("view_data", () => {
  async function heatmapHandle(): Promise<{ result: CallToolResult; handle: string; bytes: number }> {
    const result = await rig.call("get_liquidation_heatmap", { asset: "btc" });
    const meta = metaOf(result)!;
    return { result, handle: meta.handle as string, bytes: meta.bytes as number };
  }
  const credits = () => backend.service.creditsRemaining("demo-key");

  it("serves the data from any instance with the secret, replaying the call uncharged when none remembers it", async () => {
    const { handle, bytes } = await heatmapHandle();
    const first = (await rig.call("view_data", { handle })).structuredContent as { data: string; total: number; next: number | null };
    expect(first.total).toBe(bytes);
    const before = await credits();
    // A second server sharing only the secret (another instance behind a load balancer).
    const other = await mcpRig(backend, { configuredKey: "demo-key", now: () => NOW, ui: true, views: createViewStore(() => secret) });
    try {
      const again = (await other.call("view_data", { handle })).structuredContent as { data: string; total: number };
      expect(again.data).toBe(first.data);
      expect(contentSha(again.data)).toBe(contentSha(first.data));
    } finally {
      await other.close();
    }
    expect(await credits()).toBe(before);
  });

  it("answers in chunks of at most 500 KB that join to the whole", async () => {
    const result = await rig.call("compare", { metric: "price", assets: EIGHT, timeframe: "4h", startDate: "2024-01-01" });
    const handle = metaOf(result)!.handle as string;
    const first = (await rig.call("view_data", { handle })).structuredContent as { data: string; total: number; next: number | null };
    expect(first.data.length).toBeLessThanOrEqual(CHUNK_BYTES);
    const view = (await loadView<{ series: unknown[] }>(rig, result))!;
    expect(view.series).toHaveLength(8);
    if (first.total > CHUNK_BYTES) expect(first.next).toBe(CHUNK_BYTES);
  });

  it("refuses a forged, truncated, foreign or expired handle, and an offset past the end, charging nothing", async () => {
    const { handle, bytes } = await heatmapHandle();
    const before = await credits();
    const flip = handle.slice(0, -3) + (handle.at(-3) === "A" ? "B" : "A") + handle.slice(-2);
    const cases: Array<[Record<string, unknown>, RegExp, string]> = [
      [{ handle: flip }, /not issued by this server or was altered/, "handle"],
      [{ handle: handle.slice(0, handle.length - 10) }, /not a view handle/, "handle"],
      [{ handle: "v1.e30.AAAAAAAAAAAAAAAAAAAAAA" }, /not issued by this server/, "handle"],
      [{ handle, offset: bytes }, /past the end/, "offset"],
      [{ handle, offset: -1 }, /offset/, "offset"],
      [{}, /handle/, "handle"],
    ];
    const expired = signHandle(secret, {
      tool: "get_liquidation_heatmap",
      args: { asset: "btc" },
      asOfMs: NOW,
      caller: callerTag(secret, "demo-key"),
      expiresMs: Date.now() - 1,
      bytes,
      sha: "x",
    });
    cases.push([{ handle: expired }, /expired/, "handle"]);
    // The same call signed for another key, or edited to name another asset: neither reads anything.
    const foreign = signHandle(secret, {
      tool: "get_liquidation_heatmap",
      args: { asset: "btc" },
      asOfMs: NOW,
      caller: callerTag(secret, "second-key"),
      expiresMs: Date.now() + 60_000,
      bytes,
      sha: "x",
    });
    cases.push([{ handle: foreign }, /another caller/, "handle"]);
    const [v, body, mac] = handle.split(".");
    const edited = Buffer.from(body!, "base64url").toString("utf8").replace('"btc"', '"eth"');
    cases.push([{ handle: `${v}.${Buffer.from(edited).toString("base64url")}.${mac}` }, /altered/, "handle"]);
    for (const [args, message, parameter] of cases) {
      const r = await rig.call("view_data", args);
      expect(r.isError, JSON.stringify(args).slice(0, 80)).toBe(true);
      expect(textOf(r)).toMatch(message);
      expect(errorOf(r).parameter).toBe(parameter);
      // What a handle stood for is never told back.
      if (parameter === "handle") expect(textOf(r)).not.toMatch(/eth|btc|heatmap|asset/);
    }
    expect(await credits()).toBe(before);
  });

  it("a replay that would not give the same bytes is refused, not served", async () => {
    const { bytes } = await heatmapHandle();
    const wrong = signHandle(secret, {
      tool: "get_liquidation_heatmap",
      args: { asset: "btc" },
      asOfMs: NOW,
      caller: callerTag(secret, "demo-key"),
      expiresMs: Date.now() + 60_000,
      bytes,
      sha: contentSha("something else"),
    });
    const r = await rig.call("view_data", { handle: wrong });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/no longer held as it was answered/);
  });

  it("is refused to a client that never declared the extension, charging nothing", async () => {
    const { handle } = await heatmapHandle();
    const r = await plain.call("view_data", { handle });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/io\.modelcontextprotocol\/ui/);
    expect(textOf(r)).toMatch(/Nothing was charged/);
  });
});

describe("the handles' key", () => {
  it("is kept in the state directory, owner-readable, the same for every process sharing it; the environment overrides it", () => {
    const dir = `${tempDir()}/state`;
    const a = viewSecret({}, dir);
    expect(a.length).toBe(32);
    expect(viewSecret({}, dir).equals(a)).toBe(true);
    if (process.platform !== "win32") expect(statSync(join(dir, "view-secret")).mode & 0o777).toBe(0o600);
    const shared = viewSecret({ CRYPTO_METRICS_VIEW_SECRET: "one value on every machine" }, dir);
    expect(shared.equals(a)).toBe(false);
    expect(viewSecret({ CRYPTO_METRICS_VIEW_SECRET: "one value on every machine" }, `${tempDir()}/other`).equals(shared)).toBe(true);
  });
});

describe("view_data with the real service", () => {
  it("replays from the response cache only: served while cached, refused (not re-bought) once the answer has left it", async () => {
    const rest = await startRest();
    let clock = NOW;
    const remote = new HttpBackend({
      baseUrl: rest.rest.url,
      apiKey: "full-key",
      timeouts: { callMs: 5_000 },
      log: SILENT,
      now: () => clock,
    });
    const key = randomBytes(32);
    const a = await mcpRig(remote, { configuredKey: "full-key", ui: true, views: createViewStore(() => key) });
    const b = await mcpRig(remote, { configuredKey: "full-key", ui: true, views: createViewStore(() => key) });
    try {
      const result = await a.call("get_liquidation_heatmap", { asset: "btc", timeframe: "4h" });
      expect(result.isError).toBeFalsy();
      const handle = metaOf(result)!.handle as string;
      const spent = await rest.service.creditsRemaining("full-key");
      // Another instance, which never saw the call: the cached upstream answer, no new upstream call.
      const view = await loadView<{ kind: string }>(b, result);
      expect(view!.kind).toBe("heatmap");
      expect(await rest.service.creditsRemaining("full-key")).toBe(spent);
      // Past the cache's time to live, a third instance cannot replay it and says so.
      clock += 3_600_000;
      const c = await mcpRig(remote, { configuredKey: "full-key", ui: true, views: createViewStore(() => key) });
      try {
        const r = await c.call("view_data", { handle });
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/no longer held as it was answered: ask for the chart again/);
      } finally {
        await c.close();
      }
      expect(await rest.service.creditsRemaining("full-key")).toBe(spent);
    } finally {
      await a.close();
      await b.close();
      await remote.close();
      await rest.stop();
    }
  });
});
