// Every tool's happy path through a real MCP client, checking that the numbers in the text are the
// numbers of the data the backend serves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, type Fixture, textOf } from "../../harness/mcp.js";
import type { Heatmap, TimeRecord, VariationRecord } from "../../src/backend/types.js";
import { ENDPOINTS, endpointsForAsset, SET_L1, VENUES } from "../../src/catalog/index.js";
import { formatNumber, num, when } from "../../src/summary/index.js";

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

type Pair = [string, number];
type Structured = Record<string, unknown> & {
  digest: { count: number; first: Pair; last: Pair; min: Pair; max: Pair; points: Record<string, Pair[]>; sampling: string };
};
const pointCount = (d: Structured["digest"]) => Object.values(d.points).reduce((n, p) => n + p.length, 0);

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
    const byTool = (r.structuredContent as { endpoints: Record<string, unknown[]> }).endpoints;
    expect(Object.values(byTool).flat()).toHaveLength(ENDPOINTS.length);
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
    const covers = (r.structuredContent as { covers: Record<string, Record<string, string[]>> }).covers;
    const ids = Object.values(covers).flatMap((groups) =>
      Object.entries(groups).flatMap(([g, ids]) => ids.map((id) => (g === "price" ? id : `${g}/${id}`))),
    );
    expect(ids.sort()).toEqual([...endpointsForAsset("eth").map((e) => e.id), "price"].sort());
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
  it("digests 1,000 daily points to at most 120 (as many as the budget holds) and reports true statistics", async () => {
    const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" });
    expect(r.isError).toBeFalsy();
    const rows = await records("lifespan/Lth_mvrv", "btc");
    const values = rows.map((x) => x.lth_mvrv as number);
    const d = (r.structuredContent as Structured).digest;
    expect(d.count).toBe(rows.length);
    expect(d.max[1]).toBe(num(Math.max(...values)));
    expect(d.min[1]).toBe(num(Math.min(...values)));
    expect(d.last).toEqual([when(rows.at(-1)!.time), num(values.at(-1)!)]);
    expect(d.sampling).toBe("lttb");
    expect(pointCount(d)).toBeGreaterThanOrEqual(80);
    expect(pointCount(d)).toBeLessThanOrEqual(120);
    const text = textOf(r);
    expect(text).toContain(`max ${formatNumber(Math.max(...values))} (${d.max[0]})`);
    expect(text).toContain(`last ${formatNumber(values.at(-1)!)} (${rows.at(-1)!.time.slice(0, 10)})`);
    expect(text).toContain("crypto-metrics://series/btc/lifespan/Lth_mvrv");
  });

  it("returns every point when the range fits max_points, from startDate on", async () => {
    const r = await f.call("get_series", {
      metric: "exchange_flow/exchange_reserve",
      asset: "eth",
      startDate: "2025-12-01",
      max_points: 5000,
    });
    const d = (r.structuredContent as Structured).digest;
    expect(d.sampling).toBe("all");
    expect(Object.keys(d.points)[0]).toBe("2025-12");
    expect(d.points["2025-12"]![0]![0]).toBe("01");
    expect(pointCount(d)).toBe(d.count);
  });

  it("passes entity_name to the exchange-flow metrics", async () => {
    const all = await f.call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "btc", startDate: "2025-12-20" });
    const one = await f.call("get_series", {
      metric: "exchange_flow/exchange_reserve",
      asset: "btc",
      startDate: "2025-12-20",
      entity_name: "Binance",
    });
    expect((one.structuredContent as Structured).query).toMatchObject({ entity_name: "binance" });
    expect((one.structuredContent as Structured).digest.last[1]).toBeLessThan((all.structuredContent as Structured).digest.last[1]);
  });
});

describe("get_ohlcv", () => {
  it("digests hourly venue volume with true extremes", async () => {
    const args = { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h", exchange: "binance", startDate: "2025-12-01" };
    const r = await f.call("get_ohlcv", args);
    const rows = await records("derivatives/Volume_usd", "btc", { timeframe: "1h", exchange: "binance", startDate: "2025-12-01" });
    const d = (r.structuredContent as Structured).digest;
    expect(d.count).toBe(rows.length);
    expect(d.max[1]).toBe(num(Math.max(...rows.map((x) => x.volume_usd as number))));
    // A flow: its largest bucket is the peak, written in the answer's one scale.
    const peak = /peak bucket \$([\d,.]+)([KMBT]?) \(([^)]+)\)/.exec(textOf(r))!;
    const scale = { "": 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[peak[2]!]!;
    expect(Math.abs(Number(peak[1]!.replace(/,/g, "")) * scale - d.max[1])).toBeLessThanOrEqual(0.5 * scale);
    expect(peak[3]).toBe(d.max[0].slice(0, 16).replace("T", " ").replace("Z", ""));
    expect((r.structuredContent as Structured).timeframe).toBe("1h");
  });

  it("accepts market_type and a symbol on Buy_trades", async () => {
    const r = await f.call("get_ohlcv", {
      metric: "derivatives/Buy_trades",
      asset: "eth",
      market_type: "swap",
      symbol: "ethusdt",
      startDate: "2025-12-20",
    });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as Structured).query).toMatchObject({ market_type: "swap", symbol: "ETHUSDT" });
  });
});

describe("get_metrics_variation", () => {
  it("tabulates every record, largest |24h change| first", async () => {
    const r = await f.call("get_metrics_variation", { asset: "sol" });
    const body = (await f.backend.fetch({ endpoint: "derivatives/metrics-variation", asset: "sol", query: {} })).body as VariationRecord[];
    const out = r.structuredContent as { columns: string[]; rows: Array<Array<string | number | null>> };
    expect(out.rows).toHaveLength(body.length);
    const [change, measure] = [out.columns.indexOf("change24h"), out.columns.indexOf("changeIn")];
    const moves = out.rows.filter((x) => x[measure] === "%").map((x) => Math.abs((x[change] as number | null) ?? 0));
    expect(moves).toEqual([...moves].sort((a, b) => b - a));
    const first = body.find((b) => num(Math.abs(b.variation_24h_percent)) === moves[0])!;
    expect(textOf(r)).toContain(formatNumber(first.variation_24h_percent, "%"));
  });
});

describe("get_liquidation_heatmap", () => {
  it("anchors on the last candle close and lists top_k clusters per side", async () => {
    const r = await f.call("get_liquidation_heatmap", { asset: "btc", timeframe: "1h", top_k: 5 });
    const body = (await f.backend.fetch({ endpoint: "liquidation_levels/heatmap", asset: "btc", query: { timeframe: "1h" } }))
      .body as Heatmap;
    const d = (
      r.structuredContent as {
        digest: {
          anchor: [string, number];
          latest: Record<"above" | "below", { largest?: unknown; nearest?: unknown; also?: unknown[] }>;
          binned?: unknown;
        };
      }
    ).digest;
    expect(d.anchor[1]).toBe(num(body.df.at(-1)!.close));
    // top_k per side: nearest and largest (one cluster when they coincide), then the others.
    const named = (s: { largest?: unknown; nearest?: unknown; also?: unknown[] }) =>
      new Set([s.largest, s.nearest].filter(Boolean).map((c) => JSON.stringify(c))).size + (s.also?.length ?? 0);
    expect(named(d.latest.above)).toBeLessThanOrEqual(5);
    expect(named(d.latest.below)).toBeLessThanOrEqual(5);
    expect(named(d.latest.above) + named(d.latest.below)).toBeGreaterThan(3);
    expect(d.binned).toBeUndefined();
    expect(textOf(r)).toContain("Anchor: last candle close");
  });

  it("adds a re-binned matrix of at most 24 × 24 on request, per venue", async () => {
    const r = await f.call("get_liquidation_heatmap", { asset: "eth", exchange: VENUES[0], include_matrix: true });
    const m = r.structuredContent as {
      digest: { scope: string; exchange: string; binned: { rows: unknown[]; cols: unknown[]; levels: string[] } };
    };
    expect(m.digest).toMatchObject({ scope: "exchange", exchange: VENUES[0] });
    expect(m.digest.binned.levels.length).toBeLessThanOrEqual(24);
    expect(m.digest.binned.levels).toHaveLength(m.digest.binned.rows.length);
    for (const row of m.digest.binned.levels) expect(row).toMatch(new RegExp(`^[0-9]{${m.digest.binned.cols.length}}$`));
  });
});
