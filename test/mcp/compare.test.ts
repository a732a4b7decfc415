// compare through a real MCP client: both modes against the tools' own single-series answers,
// and every bad input refused by name before anything is charged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, errorOf, type Fixture, textOf } from "../../harness/mcp.js";
import type { CompactCompareDigest } from "../../src/summary/index.js";

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

interface Out {
  mode: string;
  timeframe: string;
  notes: string[];
  digest: CompactCompareDigest;
  credits: { charged: number };
}
const out = (r: Awaited<ReturnType<Fixture["call"]>>) => r.structuredContent as unknown as Out;
const left = async () => (await f.backend.service.creditsRemaining("demo-key"))!;

describe("compare: one metric over assets", () => {
  it("aligns prices, rebases them and ranks the changes; each member's figures are get_ohlcv's", async () => {
    const range = { startDate: "2025-01-01", endDate: "2025-12-27" };
    const r = await f.call("compare", { metric: "price", assets: ["btc", "eth", "sol"], ...range });
    expect(r.isError).toBeFalsy();
    const d = out(r).digest;
    expect(out(r).credits.charged).toBe(3);
    expect(d.grid.count).toBe(361);
    for (const m of d.members) {
      const single = (await f.call("get_ohlcv", { metric: "price", asset: m.asset, ...range })).structuredContent as {
        digest: { first: [string, number]; last: [string, number] };
      };
      expect(m.first).toBe(single.digest.first[1]);
      expect(m.last).toBe(single.digest.last[1]);
      expect(m.change).toBeCloseTo(((m.last! - m.first!) / m.first!) * 100, 2);
      expect(m.rebased).toBe(true);
    }
    const byChange = [...d.members].sort((a, b) => b.change! - a.change!).map((m) => m.asset);
    expect(
      d.members
        .filter((m) => m.rank !== undefined)
        .sort((a, b) => a.rank! - b.rank!)
        .map((m) => m.asset),
    ).toEqual(byChange);
    // Rows of [time, one value per member], rebased to 1,000 at the first time (as the text writes them).
    const first = Object.values(d.points)[0]![0]!;
    expect(first.slice(1)).toEqual([1000, 1000, 1000]);
    expect(
      Object.values(d.points)
        .flat()
        .every((row) => row.length === 4),
    ).toBe(true);
    expect(d.correlation!.triangle.map((row) => row.length)).toEqual([1, 2]);
    expect(textOf(r)).toContain("correlation of 1 d log returns");
  });

  it("totals flows over the grid", async () => {
    const range = { startDate: "2025-12-01", endDate: "2025-12-20" };
    const r = await f.call("compare", { metric: "derivatives/Volume_usd", assets: "btc, eth", ...range });
    const d = out(r).digest;
    const single = (await f.call("get_ohlcv", { metric: "derivatives/Volume_usd", asset: "eth", ...range })).structuredContent as {
      digest: { flow: { sum: number } };
    };
    expect(d.members[1]!.basis).toBe("sum");
    expect(d.members[1]!.change).toBe(single.digest.flow.sum);
    expect(d.members[0]!.rebased).toBeUndefined();
  });
});

describe("compare: metrics of one asset", () => {
  it("puts price beside daily series on the daily grid, each change in its own unit", async () => {
    const r = await f.call("compare", {
      asset: "btc",
      metrics: ["price", "lifespan/Lth_mvrv", "exchange_flow/exchange_reserve"],
      timeframe: "1h",
      startDate: "2025-06-01",
    });
    expect(r.isError).toBeFalsy();
    const o = out(r);
    expect(o.mode).toBe("metrics");
    expect(o.timeframe).toBe("1d");
    expect(o.notes[0]).toContain("raised to 1d");
    expect(o.digest.members.map((m) => [m.label, m.basis])).toEqual([
      ["price", "percent"],
      ["Lth_mvrv", "points"],
      ["exchange_reserve", "percent"],
    ]);
    expect(o.digest.members[1]!.rank).toBeUndefined();
    expect(o.digest.correlation!.of).toBe("log returns (prices), differences (others)");
  });
});

describe("compare: bad input is refused by name, charging nothing", () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    [
      "a mix of both modes",
      { metric: "price", assets: ["btc", "eth"], asset: "btc" },
      "invalid_arguments",
      /either metric \+ assets .* or asset \+ metrics/,
    ],
    ["a duplicate asset", { metric: "price", assets: ["btc", "eth", "btc"] }, "invalid_arguments", /names btc more than once/],
    [
      "more than 8 assets",
      { metric: "price", assets: ["btc", "eth", "sol", "xrp", "bnb", "doge", "ada", "link", "dot"] },
      "invalid_arguments",
      /2–8 tickers \(got 9\)/,
    ],
    ["one asset", { metric: "price", assets: ["btc"] }, "invalid_arguments", /2–8 tickers \(got 1\)/],
    [
      "an uncovered member",
      { metric: "lifespan/Lth_mvrv", assets: ["btc", "eth"] },
      "asset_not_supported",
      /does not cover "eth" .*Remove it from assets/,
    ],
    [
      "an unknown ticker",
      { metric: "price", assets: ["btc", "ethh"] },
      "asset_not_supported",
      /"ethh" \(did you mean "eth" \(Ethereum\)\?\)/,
    ],
    [
      "a metric without a series",
      { metric: "liquidation_levels/heatmap", assets: ["btc", "eth"] },
      "invalid_arguments",
      /no time series to align/,
    ],
    ["an unknown metric", { asset: "btc", metrics: ["price", "lifespan/Lth_mvr"] }, "unknown_metric", /Did you mean "lifespan\/Lth_mvrv"/],
    [
      "a metric not covering the asset",
      { asset: "eth", metrics: ["price", "lifespan/Lth_mvrv"] },
      "asset_not_supported",
      /eth is not covered by lifespan\/Lth_mvrv; remove it/,
    ],
    [
      "timeframe on daily series only",
      { asset: "btc", metrics: ["lifespan/Lth_mvrv", "market/metcalfe_ratio"], timeframe: "1h" },
      "invalid_arguments",
      /timeframe applies only/,
    ],
    ["an unknown timeframe", { metric: "price", assets: ["btc", "eth"], timeframe: "2h" }, "invalid_arguments", /timeframe must be one of/],
    ["metrics without asset", { metrics: ["price", "lifespan/Lth_mvrv"] }, "invalid_arguments", /metrics needs the asset/],
  ];
  it.each(cases)("%s", async (_name, args, code, message) => {
    const before = await left();
    const r = await f.call("compare", args);
    expect(r.isError).toBe(true);
    expect(errorOf(r).code).toBe(code);
    expect(textOf(r)).toMatch(message);
    expect(await left()).toBe(before);
  });

  it("refuses a member the key may not call, listing what it may, before any call", async () => {
    const restricted = await connect({ key: "onchain-only" });
    try {
      const r = await restricted.call("compare", { asset: "btc", metrics: ["lifespan/Lth_mvrv", "price"] });
      expect(errorOf(r).code).toBe("metric_not_allowed");
      expect(textOf(r)).toContain("lifespan/Lth_mvrv, market/metcalfe_ratio");
      expect(await restricted.backend.service.creditsRemaining("onchain-only")).toBe(1000);
    } finally {
      await restricted.close();
    }
  });
});
