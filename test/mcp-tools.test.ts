// Every tool's happy path through a real MCP client, checking that the numbers in the text are the
// numbers of the data the backend serves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS, endpointsForAsset, SET_L1, VENUES } from "../src/catalog/index.js";
import type { Heatmap, TimeRecord, VariationRecord } from "../src/backend/types.js";
import { formatNumber } from "../src/summary/index.js";
import { connect, textOf, type Fixture } from "./mcp-fixture.js";

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

type Structured = Record<string, unknown> & {
  digest: {
    count: number;
    first: { time: string; value: number };
    last: { time: string; value: number };
    min: { time: string; value: number };
    max: { time: string; value: number };
    points: Array<{ time: string; value: number }>;
    sampling: { returned: number; total: number; method: string };
  };
};

async function records(endpoint: string, asset: string, query: Record<string, string | undefined> = {}): Promise<TimeRecord[]> {
  return (await f.backend.fetch({ endpoint, asset, query })).body as TimeRecord[];
}

describe("list_assets", () => {
  it("gives an overview naming every endpoint and how to drill down", async () => {
    const r = await f.call("list_assets");
    expect(r.isError).toBeFalsy();
    const text = textOf(r);
    for (const e of ENDPOINTS.filter((x) => x.kind === "series")) expect(text).toContain(e.segment);
    expect(text).toContain("list_assets metric=<id>");
    expect((r.structuredContent as { endpoints: unknown[] }).endpoints).toHaveLength(ENDPOINTS.length);
  });

  it("lists a metric's coverage", async () => {
    const r = await f.call("list_assets", { metric: "lifespan/Cvdd" });
    expect(textOf(r)).toContain(SET_L1.join(", "));
    expect(r.structuredContent).toMatchObject({ view: "metric", assets: [...SET_L1] });
  });

  it("the open set of TxTfrValMedNtv is every known ticker, not any string", async () => {
    const r = await f.call("list_assets", { metric: "transactions/TxTfrValMedNtv", asset: "anything_new" });
    expect(textOf(r)).toMatch(/every ticker the catalog knows/);
    expect(r.structuredContent).toMatchObject({ covered: false });
    const known = await f.call("list_assets", { metric: "transactions/TxTfrValMedNtv", asset: "usdt_omni" });
    expect(known.structuredContent).toMatchObject({ covered: true });
  });

  it("lists the endpoints that cover an asset, grouped by tool", async () => {
    const r = await f.call("list_assets", { asset: "ETH" });
    const ids = (r.structuredContent as { endpoints: Array<{ id: string }> }).endpoints.map((e) => e.id);
    expect(ids).toEqual(endpointsForAsset("eth").map((e) => e.id));
    expect(textOf(r)).toMatch(/^eth \(Ethereum\): \d+ endpoints and price\./);
    expect(textOf(r)).not.toContain("lifespan/Lth_mvrv");
  });

  it("searches tickers and endpoints", async () => {
    const r = await f.call("list_assets", { search: "mvrv" });
    expect(textOf(r)).toContain("lifespan/Lth_mvrv (get_series)");
    const s = await f.call("list_assets", { search: "doge" });
    expect((s.structuredContent as { assets: string[] }).assets[0]).toBe("doge");
  });
});

describe("get_series", () => {
  it("digests 1,000 daily points to 120 and reports true statistics", async () => {
    const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" });
    expect(r.isError).toBeFalsy();
    const rows = await records("lifespan/Lth_mvrv", "btc");
    const values = rows.map((x) => x.lth_mvrv as number);
    const d = (r.structuredContent as Structured).digest;
    expect(d.count).toBe(rows.length);
    expect(d.max.value).toBe(Math.max(...values));
    expect(d.min.value).toBe(Math.min(...values));
    expect(d.last).toEqual({ time: rows.at(-1)!.time, value: values.at(-1) });
    expect(d.sampling).toEqual({ returned: 120, total: rows.length, method: "lttb" });
    const text = textOf(r);
    expect(text).toContain(`max ${formatNumber(Math.max(...values))} (${d.max.time.slice(0, 10)})`);
    expect(text).toContain(`last ${formatNumber(values.at(-1)!)} (${rows.at(-1)!.time.slice(0, 10)})`);
    expect(text).toContain("crypto-metrics://series/btc/lifespan/Lth_mvrv");
  });

  it("returns every point when the range fits max_points, from startDate on", async () => {
    const r = await f.call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "eth", startDate: "2025-12-01", max_points: 5000 });
    const d = (r.structuredContent as Structured).digest;
    expect(d.sampling.method).toBe("all");
    expect(d.points[0]!.time).toBe("2025-12-01T00:00:00.000Z");
    expect(d.points).toHaveLength(d.count);
  });

  it("passes entity_name to the exchange-flow metrics", async () => {
    const all = await f.call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "btc", startDate: "2025-12-20" });
    const one = await f.call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "btc", startDate: "2025-12-20", entity_name: "Binance" });
    expect((one.structuredContent as Structured).query).toMatchObject({ entity_name: "binance" });
    expect((one.structuredContent as Structured).digest.last.value).toBeLessThan((all.structuredContent as Structured).digest.last.value);
  });
});

describe("get_ohlcv", () => {
  it("digests hourly venue volume with true extremes", async () => {
    const args = { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h", exchange: "binance", startDate: "2025-12-01" };
    const r = await f.call("get_ohlcv", args);
    const rows = await records("derivatives/Volume_usd", "btc", { timeframe: "1h", exchange: "binance", startDate: "2025-12-01" });
    const d = (r.structuredContent as Structured).digest;
    expect(d.count).toBe(rows.length);
    expect(d.max.value).toBe(Math.max(...rows.map((x) => x.volume_usd as number)));
    // A flow: its largest bucket is the peak, written in the answer's one scale.
    const peak = /peak bucket \$([\d,.]+)([KMBT]?) \(([^)]+)\)/.exec(textOf(r))!;
    const scale = { "": 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[peak[2]!]!;
    expect(Math.abs(Number(peak[1]!.replace(/,/g, "")) * scale - d.max.value)).toBeLessThanOrEqual(0.5 * scale);
    expect(peak[3]).toBe(d.max.time.slice(0, 16).replace("T", " "));
    expect((r.structuredContent as Structured).timeframe).toBe("1h");
  });

  it("accepts market_type and a symbol on Buy_trades", async () => {
    const r = await f.call("get_ohlcv", { metric: "derivatives/Buy_trades", asset: "eth", market_type: "swap", symbol: "ethusdt", startDate: "2025-12-20" });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as Structured).query).toMatchObject({ market_type: "swap", symbol: "ETHUSDT" });
  });
});

describe("get_metrics_variation", () => {
  it("tabulates every record, largest |24h change| first", async () => {
    const r = await f.call("get_metrics_variation", { asset: "sol" });
    const body = (await f.backend.fetch({ endpoint: "derivatives/metrics-variation", asset: "sol", query: {} })).body as VariationRecord[];
    const rows = (r.structuredContent as { rows: Array<{ change24hPercent: number | null; metric: string | null }> }).rows;
    expect(rows).toHaveLength(body.length);
    const moves = rows.map((x) => Math.abs(x.change24hPercent ?? 0));
    expect(moves).toEqual([...moves].sort((a, b) => b - a));
    const first = body.find((b) => Math.abs(b.variation_24h_percent) === moves[0])!;
    expect(textOf(r)).toContain(formatNumber(first.variation_24h_percent, "%"));
  });
});

describe("get_liquidation_heatmap", () => {
  it("anchors on the last candle close and lists top_k clusters per side", async () => {
    const r = await f.call("get_liquidation_heatmap", { asset: "btc", timeframe: "1h", top_k: 5 });
    const body = (await f.backend.fetch({ endpoint: "liquidation_levels/heatmap", asset: "btc", query: { timeframe: "1h" } })).body as Heatmap;
    const d = (r.structuredContent as { digest: { anchor: { price: number }; latest: { above: { top: unknown[] }; below: { top: unknown[] } }; matrix?: unknown } }).digest;
    expect(d.anchor.price).toBe(body.df.at(-1)!.close);
    expect(d.latest.above.top.length).toBeLessThanOrEqual(5);
    expect(d.latest.below.top.length).toBeLessThanOrEqual(5);
    expect(d.latest.above.top.length + d.latest.below.top.length).toBeGreaterThan(3);
    expect(d.matrix).toBeUndefined();
    expect(textOf(r)).toContain("Anchor: last candle close");
  });

  it("adds a re-binned matrix of at most 24 × 24 on request, per venue", async () => {
    const r = await f.call("get_liquidation_heatmap", { asset: "eth", exchange: VENUES[0], include_matrix: true });
    const m = (r.structuredContent as { digest: { matrix: { cells: number[][] } }; query: Record<string, string> });
    expect(m.query).toMatchObject({ scope: "exchange", exchange: VENUES[0] });
    expect(m.digest.matrix.cells.length).toBeLessThanOrEqual(24);
    for (const row of m.digest.matrix.cells) expect(row.length).toBeLessThanOrEqual(24);
  });
});
