// One answer, either backend: every tool and kind answered through the real-service client (over our
// REST face on loopback) carries the structuredContent members the embedded service's answer carries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type McpRig, mcpRig } from "../../../harness/mcp.js";
import { SILENT } from "../../../harness/mock-upstream.js";
import { NOW, type RestRig, startRest } from "../../../harness/service.js";
import { HttpBackend } from "../../../src/backend/http/index.js";
import { InProcessBackend } from "../../../src/backend/inprocess/backend.js";

let h: RestRig;
let remote: HttpBackend;
let viaService: McpRig;
let embedded: McpRig;

beforeAll(async () => {
  h = await startRest();
  remote = new HttpBackend({ baseUrl: h.rest.url, apiKey: "full-key", timeouts: { callMs: 10_000 }, log: SILENT, now: () => NOW });
  viaService = await mcpRig(remote);
  embedded = await mcpRig(new InProcessBackend(h.service, "full-key"));
});
afterAll(async () => {
  await viaService.close();
  await embedded.close();
  await remote.close();
  await h.stop();
});

/**
 * The series' whole history (first and last record ever) is known to the embedded service; the real
 * one reports only the records asked for, and finding the history would cost a second, wide read.
 */
const HISTORY_ONLY_EMBEDDED = [".digest.coverage.historyFrom", ".digest.coverage.historyTo"];

/** Every member path of a JSON value ("digest.first", "rows[]"); array elements merged, provenance left out. */
function keyPaths(value: unknown, at = ""): Set<string> {
  const out = new Set<string>();
  if (Array.isArray(value)) for (const v of value) for (const p of keyPaths(v, `${at}[]`)) out.add(p);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      // Provenance differs by design (simulated and calibrated, or the service's host).
      if (at === "" && k === "source") continue;
      out.add(`${at}.${k}`);
      for (const p of keyPaths(v, `${at}.${k}`)) out.add(p);
    }
  return out;
}

const CALLS: Array<[string, Record<string, unknown>]> = [
  ["list_assets", { asset: "btc" }],
  ["get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-06-01" }],
  ["get_series", { metric: "exchange_flow/exchange_reserve", asset: "eth", startDate: "2025-11-01" }],
  ["get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h", startDate: "2025-12-20" }],
  ["get_ohlcv", { metric: "price", asset: "eth", timeframe: "4h", startDate: "2025-12-01" }],
  ["get_metrics_variation", { asset: "eth" }],
  ["get_liquidation_heatmap", { asset: "btc", timeframe: "1h" }],
  ["compare", { metric: "price", assets: ["btc", "eth"], startDate: "2025-11-01" }],
  ["compare", { asset: "btc", metrics: ["price", "lifespan/Lth_mvrv"], startDate: "2025-11-01" }],
];

describe("both backends answer with the same structuredContent members", () => {
  it.each(CALLS)("%s %j", async (tool, args) => {
    const [a, b] = [await embedded.call(tool, args), await viaService.call(tool, args)];
    expect(a.isError, JSON.stringify(a.content)).toBeFalsy();
    expect(b.isError, JSON.stringify(b.content)).toBeFalsy();
    const embeddedKeys = [...keyPaths(a.structuredContent)].filter((k) => !HISTORY_ONLY_EMBEDDED.includes(k));
    expect([...keyPaths(b.structuredContent)].sort()).toEqual(embeddedKeys.sort());
  });

  it("gives get_metrics_variation's price row through the real service, from its price source", async () => {
    const r = await viaService.call("get_metrics_variation", { asset: "btc" });
    const price = (r.structuredContent as { price?: { close: number; change24hPercent: number } }).price;
    const local = (await embedded.call("get_metrics_variation", { asset: "btc" })).structuredContent as { price: { close: number } };
    expect(price?.close).toBeCloseTo(local.price.close, 6);
    expect(r.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/\| price \(daily close\)$/m) });
  });
});
