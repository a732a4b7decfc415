// rank_assets through a real MCP client: its rows against the same figures read one asset at a
// time, the same rows from the embedded service and through the real-service client, honest
// metering (quoted and refused before any read), progress, and every bad input named.
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, errorOf, type Fixture, mcpRig, textOf } from "../../harness/mcp.js";
import { SILENT } from "../../harness/mock-upstream.js";
import { NOW as REST_NOW, type RestRig, startRest } from "../../harness/service.js";
import { HttpBackend } from "../../src/backend/http/index.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { restHandler } from "../../src/backend/rest.js";

interface Rank {
  from: string;
  asOf: string;
  ranked: number;
  rows: Array<[number, string, number, number]>;
  tied?: string[];
  excluded?: Array<{ reason: string; count: number; assets: string[]; detail?: string }>;
  credits: { charged: number; remaining?: number };
  reads: number;
}
interface Digest {
  first: [string, number];
  last: [string, number];
  change: { percent: number };
}

// Ten large assets both price and exchange_flow/exchange_reserve cover.
const TEN = ["btc", "eth", "xrp", "doge", "ada", "link", "ltc", "uni", "aave", "algo"];
const DAY = 86_400_000;
const day = (iso: string, back = 0) => new Date(Date.parse(iso) - back).toISOString().slice(0, 10);

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

const rank = async (args: Record<string, unknown>, rig: { call: Fixture["call"] } = f) => {
  const r = await rig.call("rank_assets", args);
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent as unknown as Rank;
};

describe("rank_assets against separate reads", () => {
  it.each([
    ["price", "get_ohlcv", { timeframe: "1d" }],
    ["exchange_flow/exchange_reserve", "get_series", {}],
  ] as const)("ranks %s's 30-day change over 10 assets as 10 separate %s reads compute it", async (metric, tool, extra) => {
    const out = await rank({ metric, window: "30d", assets: TEN, limit: 25 });
    expect(out.rows).toHaveLength(10);
    // The window's reference close and last close, as dates of their buckets.
    const startDate = day(out.from, DAY);
    const endDate = day(out.asOf, DAY);
    expect(Date.parse(endDate) - Date.parse(startDate)).toBe(30 * DAY);
    const separate = new Map<string, Digest>();
    for (const asset of TEN) {
      const r = await f.call(tool, { metric, asset, startDate, endDate, ...extra });
      expect(r.isError, textOf(r)).toBeFalsy();
      separate.set(asset, (r.structuredContent as { digest: Digest }).digest);
    }
    for (const [, asset, change, value] of out.rows) {
      const d = separate.get(asset)!;
      expect([d.first[0], d.last[0]]).toEqual([startDate, endDate]);
      expect(change).toBe(d.change.percent);
      expect(value).toBe(d.last[1]);
    }
    // Ordered by change, highest first, each asset once.
    const changes = out.rows.map((r) => r[2]);
    expect(changes).toEqual([...changes].sort((a, b) => b - a));
    expect(new Set(out.rows.map((r) => r[1]))).toEqual(new Set(TEN));
  });
});

describe("what moved today, embedded and through the real service", () => {
  let h: RestRig;
  let remote: HttpBackend;
  beforeAll(async () => {
    h = await startRest();
    remote = new HttpBackend({ baseUrl: h.rest.url, apiKey: "full-key", now: () => REST_NOW, log: SILENT });
  });
  afterAll(async () => {
    await remote.close();
    await h.stop();
  });

  it("gives the same rows over the default universe", async () => {
    const local = await mcpRig(new InProcessBackend(h.service, "full-key"));
    const viaHttp = await mcpRig(remote);
    const a = await rank({}, local);
    const b = await rank({}, viaHttp);
    expect(a.reads).toBe(50);
    expect(b.rows.map((r) => [r[0], r[1]])).toEqual(a.rows.map((r) => [r[0], r[1]]));
    // The real service's prices come through the heatmap's candles, rounded as it rounds them.
    for (const [i, row] of b.rows.entries()) {
      expect(row[2]).toBeCloseTo(a.rows[i]![2], 2);
      expect(Math.abs(row[3] / a.rows[i]![3] - 1)).toBeLessThan(1e-4);
    }
    expect([b.from, b.asOf]).toEqual([a.from, a.asOf]);
    // Each price read over the real service is one heatmap call.
    expect(b.credits.charged).toBe(5 * 50);
    await local.close();
    await viaHttp.close();
  });

  it("leaves out an asset whose read failed, naming why, and ranks the rest", async () => {
    const handler = restHandler(h.service);
    const server: Server = createHttpServer((req, res) => {
      if (req.url?.startsWith("/eth/")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { status: 404, code: "asset_not_supported", message: "eth is not served here" } }));
      } else handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const backend = new HttpBackend({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: "full-key",
      now: () => REST_NOW,
      log: SILENT,
    });
    const rig = await mcpRig(backend);
    const out = await rank({ metric: "exchange_flow/exchange_reserve", assets: ["btc", "eth", "ltc"], window: "7d" }, rig);
    expect(out.rows.map((r) => r[1]).sort()).toEqual(["btc", "ltc"]);
    expect(out.excluded).toEqual([{ reason: "read_failed", count: 1, assets: ["eth"], detail: "asset_not_supported" }]);
    await rig.close();
    await backend.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("rank_assets metering", () => {
  it("charges each read as the service does and says so", async () => {
    const before = await f.backend.service.creditsRemaining("demo-key");
    const out = await rank({ metric: "exchange_flow/exchange_reserve", window: "7d" });
    const after = await f.backend.service.creditsRemaining("demo-key");
    expect(out.credits.charged).toBe(out.reads);
    expect(before! - after!).toBe(out.credits.charged);
    expect(out.credits.remaining).toBe(after);
  });

  it("refuses a rank the key's credits cannot cover before any read, naming one that fits", async () => {
    const tiny = await connect({ key: "tiny" });
    const r = await tiny.call("rank_assets", { assets: TEN });
    expect(r.isError).toBe(true);
    expect(errorOf(r).code).toBe("credits_exhausted");
    expect(textOf(r)).toMatch(
      /costing 10 credits; the key has 3 left\. Nothing was read or charged\. A rank that fits now: assets=\["btc","eth","xrp"\]/,
    );
    expect(await tiny.backend.service.creditsRemaining("tiny")).toBe(3);
    await tiny.close();
  });

  it("refuses a rank the rate window cannot admit, with the wait", async () => {
    const slow = await connect({ key: "slow" });
    const r = await slow.call("rank_assets", { assets: ["btc", "eth"] });
    expect(errorOf(r)).toMatchObject({ code: "rate_limited", retryable: true });
    expect(await slow.backend.service.creditsRemaining("slow")).toBe(1000);
    await slow.close();
  });

  it("reports progress read by read", async () => {
    const updates: Array<{ progress: number; total?: number }> = [];
    const r = await f.client.callTool({ name: "rank_assets", arguments: { assets: TEN } }, undefined, {
      onprogress: (p) => updates.push(p),
    });
    expect(r.isError).toBeFalsy();
    expect(updates.map((u) => u.progress)).toEqual(TEN.map((_, i) => i + 1));
    expect(updates.every((u) => u.total === 10)).toBe(true);
  });
});

describe("rank_assets answers", () => {
  it("names what it left out: not covered, and history starting inside the window", async () => {
    const out = await rank({ metric: "exchange_flow/exchange_reserve", assets: ["btc", "sol", "eth"], window: "7d" });
    expect(out.excluded).toEqual([{ reason: "not_covered", count: 1, assets: ["sol"] }]);
    const year = await rank({ window: "365d", assets: ["btc", "trump", "eth"] });
    expect(year.rows.map((r) => r[1]).sort()).toEqual(["btc", "eth"]);
    expect(year.excluded).toEqual([{ reason: "listed_too_late", count: 1, assets: ["trump"] }]);
    expect(year.reads).toBe(2);
  });

  it("keeps rows within above/below and ranks ascending on request", async () => {
    const all = await rank({ metric: "exchange_flow/exchange_reserve", window: "30d", assets: TEN, order: "asc" });
    const changes = all.rows.map((r) => r[2]);
    expect(changes).toEqual([...changes].sort((a, b) => a - b));
    const kept = await rank({ metric: "exchange_flow/exchange_reserve", window: "30d", assets: TEN, above: 0 });
    expect(kept.rows.every((r) => r[2] > 0)).toBe(true);
    expect(kept.rows.length).toBe(all.rows.filter((r) => r[2] > 0).length);
  });

  it("ranks a flow's window total by value", async () => {
    const out = await rank({ metric: "derivatives/Volume_usd", by: "value", window: "7d", assets: ["btc", "eth"] });
    const r = await f.call("get_ohlcv", {
      metric: "derivatives/Volume_usd",
      asset: "btc",
      startDate: day(out.from),
      endDate: day(out.asOf, DAY),
      max_points: 10,
    });
    const digest = (r.structuredContent as { digest: { flow: { sum: number } } }).digest;
    expect(out.rows[0]).toEqual([1, "btc", digest.flow.sum, digest.flow.sum]);
  });
});

describe("rank_assets bad input: one clear error naming the field, nothing charged", () => {
  it.each([
    [{ metric: "exchange_reserv" }, "metric", /Did you mean "exchange_flow\/exchange_reserve"/],
    [{ metric: "derivatives/metrics-variation" }, "metric", /not a time series/],
    [{ metric: "lifespan/Lth_mvrv", window: "1h" }, "window", /finer than .*daily buckets; use 24h or longer/],
    [{ above: 5, below: 5 }, "above", /above \(5\) must be less than below \(5\)/],
    [{ assets: [] }, "assets", /2–50 tickers \(got 0\)/],
    [{ assets: Array.from({ length: 51 }, (_, i) => `a${i}`) }, "assets", /2–50 tickers \(got 51\)/],
    [{ assets: ["btc", "etth"] }, "assets[1]", /"etth" is not a known ticker\. Did you mean "eth"/],
    [{ assets: ["btc", "eth", "btc"] }, "assets", /names btc more than once/],
    [{ window: "365d", assets: ["trump", "night"] }, "window", /No asset of the universe has price data/],
  ])("%j → %s", async (args, parameter, message) => {
    const before = await f.backend.service.creditsRemaining("demo-key");
    const r = await f.call("rank_assets", args);
    expect(r.isError).toBe(true);
    expect(errorOf(r).parameter).toBe(parameter);
    expect(textOf(r)).toMatch(message);
    expect(textOf(r)).toMatch(/nothing was (read or )?charged/i);
    expect(await f.backend.service.creditsRemaining("demo-key")).toBe(before);
  });

  it("refuses a metric the key's plan does not include, before any read", async () => {
    const restricted = await connect({ key: "onchain-only" });
    const r = await restricted.call("rank_assets", { metric: "exchange_flow/exchange_reserve" });
    expect(errorOf(r).code).toBe("metric_not_allowed");
    expect(textOf(r)).toMatch(/nothing was charged/i);
    expect(await restricted.backend.service.creditsRemaining("onchain-only")).toBe(1000);
    await restricted.close();
  });
});
