// Resources (catalog, full data behind each digest), completions and prompts through a real client.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, type Fixture } from "../../harness/mcp.js";
import type { Heatmap, VariationRecord } from "../../src/backend/types.js";
import { ENDPOINTS, SET_A, VENUES } from "../../src/catalog/index.js";
import { num } from "../../src/summary/index.js";

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

async function read(uri: string): Promise<string> {
  const { contents } = await f.client.readResource({ uri });
  return (contents[0] as { text: string }).text;
}

describe("resources", () => {
  it("serves the catalog", async () => {
    const { resources } = await f.client.listResources();
    expect(resources.map((r) => r.uri)).toContain("crypto-metrics://catalog");
    const doc = JSON.parse(await read("crypto-metrics://catalog")) as {
      endpoints: unknown[];
      venues: string[];
      asset_sets: Record<string, { size?: number }>;
      output_schemas: Record<string, { properties: Record<string, unknown> }>;
    };
    expect(Object.keys(doc.output_schemas)).toEqual([
      "list_assets",
      "get_series",
      "get_ohlcv",
      "get_metrics_variation",
      "get_liquidation_heatmap",
      "compare",
      "rank_assets",
    ]);
    expect(doc.output_schemas.get_series!.properties.digest).toMatchObject({ type: "object" });
    expect(doc.endpoints).toHaveLength(ENDPOINTS.length);
    expect(doc.venues).toEqual([...VENUES]);
    expect(doc.asset_sets.A!.size).toBe(SET_A.length);
  });

  it("lists a template for each kind of full data", async () => {
    const { resourceTemplates } = await f.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "crypto-metrics://series/{asset}/{group}/{segment}{?startDate,endDate,timeframe,exchange,symbol,market_type,entity_name}",
      "crypto-metrics://heatmap/{asset}{?timeframe,lookback,scope,exchange}",
      "crypto-metrics://variation/{asset}",
      "crypto-metrics://chart/heatmap/{asset}.png{?timeframe,lookback,scope,exchange}",
      "crypto-metrics://chart/series/{asset}/{group}/{segment}.png{?startDate,endDate,timeframe,exchange,symbol,market_type,entity_name}",
    ]);
  });

  it("serves the records behind a series digest as CSV at the URI the tool gave", async () => {
    const r = await f.call("get_ohlcv", {
      metric: "derivatives/Volume_usd",
      asset: "btc",
      timeframe: "1h",
      startDate: "2025-12-20T00:00:00Z",
      exchange: "okx",
    });
    const { resource, digest } = r.structuredContent as { resource: string; digest: { count: number; max: [string, number] } };
    expect(resource).toBe(
      "crypto-metrics://series/btc/derivatives/Volume_usd?startDate=2025-12-20T00%3A00%3A00Z&timeframe=1h&exchange=okx",
    );
    const lines = (await read(resource)).trim().split("\n");
    expect(lines[0]).toBe("time,volume_usd");
    expect(lines).toHaveLength(digest.count + 1);
    expect(num(Math.max(...lines.slice(1).map((l) => Number(l.split(",")[1]))))).toBe(digest.max[1]);
  });

  it("serves the heatmap and variation bodies as JSON", async () => {
    const heat = JSON.parse(await read("crypto-metrics://heatmap/eth?timeframe=4h")) as Heatmap;
    expect(heat.asset).toBe("eth");
    expect(heat.timeframe).toBe("4h");
    expect(heat.z).toHaveLength(heat.y.length);
    const variation = JSON.parse(await read("crypto-metrics://variation/sol")) as VariationRecord[];
    expect(variation.length).toBeGreaterThan(0);
  });

  it("answers a read for an uncovered asset with the tools' did-you-mean text", async () => {
    await expect(read("crypto-metrics://series/btcc/lifespan/Cvdd")).rejects.toThrow(
      /not covered by lifespan\/Cvdd .*Did you mean "btc" \(Bitcoin\)\?/,
    );
    await expect(read("crypto-metrics://series/btc/lifespan/Nope")).rejects.toThrow(/Unknown metric "lifespan\/Nope"/);
    await expect(read("crypto-metrics://heatmap/btc?colour=red")).rejects.toThrow(/not found/);
  });
});

describe("completions", () => {
  const complete = async (uri: string, name: string, value: string, args?: Record<string, string>) =>
    (
      await f.client.complete({
        ref: { type: "ref/resource", uri },
        argument: { name, value },
        ...(args && { context: { arguments: args } }),
      })
    ).completion.values;
  const SERIES = "crypto-metrics://series/{asset}/{group}/{segment}{?startDate,endDate,timeframe,exchange,symbol,market_type,entity_name}";

  it("completes assets the chosen metric covers, by prefix", async () => {
    expect(await complete(SERIES, "asset", "b", { group: "lifespan", segment: "Cvdd" })).toEqual(["bch", "btc"]);
    expect(await complete(SERIES, "asset", "e", { group: "lifespan", segment: "Lth_mvrv" })).toEqual([]);
    expect(await complete(SERIES, "asset", "bt")).toContain("btc");
  });

  it("completes names people use to the tickers they name, within the metric's coverage", async () => {
    expect(await complete(SERIES, "asset", "bitc", { group: "lifespan", segment: "Cvdd" })).toEqual(["bch", "btc"]);
    expect(await complete(SERIES, "asset", "dogeco", { group: "lifespan", segment: "Cvdd" })).toEqual(["doge"]);
    expect(await complete(SERIES, "asset", "ether", { group: "lifespan", segment: "Cvdd" })).toEqual([]);
    const prompt = await f.client.complete({
      ref: { type: "ref/prompt", name: "asset_brief" },
      argument: { name: "asset", value: "ethere" },
    });
    expect(prompt.completion.values).toContain("eth");
  });

  it("completes an unknown prompt, template or argument to nothing instead of failing", async () => {
    const prompt = await f.client.complete({ ref: { type: "ref/prompt", name: "no_such_prompt" }, argument: { name: "arg1", value: "x" } });
    expect(prompt.completion.values).toEqual([]);
    expect(await complete("crypto-metrics://nothing/{x}", "x", "")).toEqual([]);
    expect(await complete(SERIES, "colour", "")).toEqual([]);
  });

  it("completes groups and segments, narrowed by the chosen asset", async () => {
    expect(await complete(SERIES, "group", "li")).toEqual(["lifespan"]);
    expect(await complete(SERIES, "segment", "", { group: "lifespan", asset: "doge" })).toEqual(["Terminal_adjusted_cdd", "Cvdd"]);
  });

  it("caps completions at 100 with the total, and uses each template's asset set", async () => {
    const all = await f.client.complete({
      ref: { type: "ref/resource", uri: "crypto-metrics://heatmap/{asset}{?timeframe,lookback,scope,exchange}" },
      argument: { name: "asset", value: "" },
    });
    expect(all.completion).toMatchObject({ total: SET_A.length, hasMore: true });
    expect(all.completion.values).toHaveLength(100);
    expect(await complete("crypto-metrics://variation/{asset}", "asset", "tus")).toEqual([]);
    expect(await complete("crypto-metrics://heatmap/{asset}{?timeframe,lookback,scope,exchange}", "asset", "tus")).toEqual(["tusd"]);
  });
});

describe("prompts", () => {
  it("lists the asset and liquidation briefs", async () => {
    const { prompts } = await f.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["asset_brief", "liquidation_risk_brief"]);
  });

  it("builds an asset brief from the metrics that cover the asset", async () => {
    const { messages } = await f.client.getPrompt({ name: "asset_brief", arguments: { asset: "eth" } });
    const text = (messages[0]!.content as { text: string }).text;
    expect(text).toContain("get_series metric=exchange_flow/exchange_reserve asset=eth");
    expect(text).toContain("get_metrics_variation asset=eth");
    expect(text).not.toContain("Lth_mvrv");
    // Concrete dates from the service's now (2025-12-28T12:00Z in the fixture), not placeholders.
    expect(text).toContain("get_ohlcv metric=price asset=eth startDate=2024-12-28");
    expect(text).toContain("get_ohlcv metric=derivatives/Volume_usd asset=eth startDate=2025-09-29");
    // The call sends no market_type: its answer is every market's volume, and the brief says so.
    expect(text).toMatch(/Volume_usd asset=eth startDate=2025-09-29 — volume trend, all markets \(spot, swap and futures/);
    expect(text).not.toMatch(/perpetuals volume/);
    expect(text).not.toMatch(/<[^>]*ago>/);
  });

  it("plans only calls that cover the asset", async () => {
    // usdc: on-chain series and no derivatives: no price, volume, variation or heatmap step.
    const { messages } = await f.client.getPrompt({ name: "asset_brief", arguments: { asset: "usdc" } });
    const text = (messages[0]!.content as { text: string }).text;
    expect(text).toContain("get_series metric=exchange_flow/exchange_reserve asset=usdc startDate=2024-12-28");
    expect(text).not.toMatch(/get_ohlcv|get_liquidation_heatmap|get_metrics_variation/);
    const liq = await f.client.getPrompt({ name: "liquidation_risk_brief", arguments: { asset: "btc" } });
    expect((liq.messages[0]!.content as { text: string }).text).toContain("timeframe=1h startDate=2025-12-25T12:00:00Z");
  });

  it("builds a liquidation brief for the given timeframe", async () => {
    const { messages } = await f.client.getPrompt({ name: "liquidation_risk_brief", arguments: { asset: "btc", timeframe: "4h" } });
    expect((messages[0]!.content as { text: string }).text).toContain(
      "get_liquidation_heatmap asset=btc timeframe=4h top_k=5 (lookback defaults to 365d)",
    );
  });

  it("refuses an unknown asset with a suggestion, and completes the asset argument", async () => {
    await expect(f.client.getPrompt({ name: "asset_brief", arguments: { asset: "soll" } })).rejects.toThrow(/Did you mean "sol"\?/);
    const { completion } = await f.client.complete({
      ref: { type: "ref/prompt", name: "liquidation_risk_brief" },
      argument: { name: "asset", value: "et" },
    });
    // Tickers by prefix first, then those whose name starts so (Ethena, Ethereum Name Service).
    expect(completion.values).toEqual(["etc", "eth", "ethfi", "ena", "ens"]);
    const brief = await f.client.complete({ ref: { type: "ref/prompt", name: "asset_brief" }, argument: { name: "asset", value: "all_" } });
    expect(brief.completion.values).toEqual(["all_stablecoins"]);
  });
});
