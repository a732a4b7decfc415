// Output budgets: tools/list + instructions, every default call's text, and a long 1-minute series
// costing about what a short one does.
import { encode } from "gpt-tokenizer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { answerTokens, defaultCalls, worstAnswers } from "../../harness/answer-sizes.js";
import { connect, type Fixture, textOf } from "../../harness/mcp.js";
import { SIMULATED_ORIGIN } from "../../src/backend/inprocess/origin.js";
import { instructionsFor } from "../../src/server.js";

const tokens = (text: string) => encode(text).length;

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

describe("token budgets", () => {
  it("keeps what hosts give the model of tools/list (names, descriptions, input schemas) and the instructions within 1,300 tokens", async () => {
    const listed = await f.client.listTools();
    const instructions = instructionsFor(SIMULATED_ORIGIN);
    expect(f.client.getInstructions()).toBe(instructions);
    expect(instructions).toMatch(/^Simulated .* calibrated to real history through 2025-12-28; present figures as simulated\./);
    const shown = listed.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    const total = tokens(JSON.stringify({ tools: shown })) + tokens(instructions);
    expect(listed.tools).toHaveLength(7);
    expect(total).toBeLessThanOrEqual(1_300);
  });

  const defaults: Array<[string, Record<string, unknown>, number]> = [
    ["list_assets", {}, 1_500],
    ["list_assets", { metric: "derivatives/Volume_usd" }, 1_500],
    ["list_assets", { asset: "btc" }, 1_500],
    ["get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" }, 1_500],
    ["get_series", { metric: "exchange_flow/exchange_reserve", asset: "eth" }, 1_500],
    ["get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc" }, 1_500],
    ["get_ohlcv", { metric: "spot/Trades", asset: "sol", timeframe: "1m" }, 1_500],
    ["get_metrics_variation", { asset: "btc" }, 1_500],
    ["get_liquidation_heatmap", { asset: "btc" }, 2_000],
    ["get_liquidation_heatmap", { asset: "btc", include_matrix: true, top_k: 10 }, 2_000],
    ["get_ohlcv", { metric: "price", asset: "btc" }, 1_500],
    ["compare", { metric: "price", assets: ["btc", "eth", "sol", "xrp", "bnb", "doge", "ada", "link"] }, 1_500],
    ["compare", { metric: "derivatives/Volume_usd", assets: ["btc", "eth", "sol", "xrp", "bnb", "doge", "ada", "link"] }, 1_500],
    [
      "compare",
      { asset: "btc", metrics: ["price", "lifespan/Lth_mvrv", "exchange_flow/exchange_reserve", "holder_supply/sth_supply_in_profit"] },
      1_500,
    ],
    // "What moved today" over the default 50 assets at limit 10, and a level's 30-day change.
    ["rank_assets", {}, 450],
    ["rank_assets", { metric: "exchange_flow/exchange_reserve", window: "30d", order: "asc" }, 450],
  ];
  it.each(defaults)("%s %j answers within its budget, in the text and in structuredContent alike", async (name, args, budget) => {
    const r = await f.call(name, args);
    expect(r.isError).toBeFalsy();
    const text = tokens(textOf(r));
    expect(text).toBeLessThanOrEqual(budget);
    // Hosts that forward JSON.stringify(structuredContent) instead of the text give the model this.
    expect(tokens(JSON.stringify(r.structuredContent))).toBeLessThanOrEqual(1.3 * text);
  });

  // Inputs of every kind and every timeframe, picked for long answers: shib's eight-digit prices,
  // sui's trade counts, volumes in billions, a stablecoin's supply (the bench runs the 20 largest).
  it("keeps every default answer of every tool and timeframe within 1,500 tokens, text and structured, structured ≤ 1.3× text", async () => {
    const calls = defaultCalls(["btc", "shib", "sui", "usdt"]).filter(
      (c) =>
        (c.tool !== "get_liquidation_heatmap" || c.args.asset === "shib") &&
        // A rank reads up to 50 series: the default and one on-chain metric keep the key's credits for the rest.
        (c.tool !== "rank_assets" || (c.timeframe === "24h" && !c.args.by) || c.args.metric !== undefined),
    );
    const ratios: string[] = [];
    const { worst, errors } = await worstAnswers(calls, async (tool, args) => {
      const r = await f.call(tool, args);
      const t = answerTokens(r);
      if (!r.isError && t.structured > 1.3 * t.text) ratios.push(`${tool} ${JSON.stringify(args)}: ${t.structured} / ${t.text}`);
      return r;
    });
    // Errors are only coverage (usdt has no price, eth no Lth_mvrv in compare…): none of them a size.
    for (const e of errors) expect(e.text).toMatch(/not covered|no data/i);
    expect(new Set(worst.map((w) => w.tool))).toEqual(
      new Set(["list_assets", "get_series", "get_ohlcv", "get_metrics_variation", "get_liquidation_heatmap", "compare", "rank_assets"]),
    );
    expect(worst.filter((w) => w.tool === "get_ohlcv").map((w) => w.timeframe)).toHaveLength(9);
    const over = worst.filter((w) => w.text > 1_500 || w.structured > 1_500);
    expect(over.map((w) => `${w.tool} ${w.timeframe}: ${w.text} / ${w.structured}`)).toEqual([]);
    expect(ratios).toEqual([]);
  });

  it("answers a 60-day 1-minute price series in about the size of a 1-day one", async () => {
    const base = { metric: "price", asset: "btc", timeframe: "1m", endDate: "2025-12-28T00:00:00Z" };
    const day = await f.call("get_ohlcv", { ...base, startDate: "2025-12-27T00:00:00Z" });
    const sixty = await f.call("get_ohlcv", { ...base, startDate: "2025-10-29T00:00:00Z" });
    expect(day.isError).toBeFalsy();
    expect(sixty.isError).toBeFalsy();
    expect(tokens(textOf(sixty)) / tokens(textOf(day))).toBeLessThanOrEqual(1.3);
  });

  it("answers a 60-day 1-minute series in about the size of a 1-day one", async () => {
    const base = { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", endDate: "2025-12-28T00:00:00Z" };
    const day = await f.call("get_ohlcv", { ...base, startDate: "2025-12-27T00:00:00Z" });
    const sixty = await f.call("get_ohlcv", { ...base, startDate: "2025-10-29T00:00:00Z" });
    type Digest = { count: number; sampling: string; points: Record<string, unknown[]> };
    const [a, b] = [day, sixty].map((r) => (r.structuredContent as { digest: Digest }).digest);
    const returned = (d: Digest) => Object.values(d.points).reduce((n, p) => n + p.length, 0);
    expect(a!.count).toBe(1_441);
    expect(b!.count).toBe(60 * 1_440 + 1);
    expect(b!.sampling).toBe("lttb");
    // The default count depends on the values' length and the month headings, never on the range's length.
    expect(Math.abs(returned(b!) - returned(a!))).toBeLessThanOrEqual(3);
    expect(tokens(textOf(sixty)) / tokens(textOf(day))).toBeLessThanOrEqual(1.3);
  });
});
