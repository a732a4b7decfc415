// Names people use: every ticker named, every metric with synonyms, and the look-ups the tools use.
import { describe, expect, it } from "vitest";

import { connect, textOf } from "../../harness/mcp.js";
import {
  ASSET_NAMES,
  assetName,
  assetsByName,
  ENDPOINTS,
  KNOWN_ASSETS,
  METRIC_SYNONYMS,
  metricsBySynonym,
  PRICE_ID,
} from "../../src/catalog/index.js";

describe("asset names", () => {
  it("name every ticker the catalog knows", () => {
    for (const t of KNOWN_ASSETS) expect(ASSET_NAMES.get(t)?.[0], t).toBeTruthy();
    expect(ASSET_NAMES.size).toBe(KNOWN_ASSETS.length);
  });

  it("map the names people use to tickers", () => {
    const cases: Array<[string, string]> = [
      ["bitcoin", "btc"],
      ["ether", "eth"],
      ["Ethereum", "eth"],
      ["dogecoin", "doge"],
      ["tether", "usdt"],
      ["USD Coin", "usdc"],
      ["ripple", "xrp"],
      ["shiba inu", "shib"],
      ["ether.fi", "ethfi"],
      ["polkadot", "dot"],
    ];
    for (const [name, ticker] of cases) expect(assetsByName(name), name).toEqual([ticker]);
    expect(assetName("usdt_trx")).toBe("Tether on Tron");
    expect(assetsByName("bitcoin", ["eth", "sol"])).toEqual([]);
  });
});

describe("metric synonyms", () => {
  it("cover every endpoint and price", () => {
    for (const e of ENDPOINTS) expect(METRIC_SYNONYMS[e.id]?.length, e.id).toBeGreaterThan(0);
    expect(METRIC_SYNONYMS[PRICE_ID]).toContain("price");
  });

  it("find metrics by the words analysts use", () => {
    expect(metricsBySynonym("exchange reserve")).toEqual(["exchange_flow/exchange_reserve"]);
    expect(metricsBySynonym("MVRV")).toEqual(["lifespan/Lth_mvrv"]);
    expect(metricsBySynonym("hash price")).toEqual(["mining/RevHashRateUSD"]);
    expect(metricsBySynonym("difficulty")).toEqual(["mining/DiffLast"]);
    expect(metricsBySynonym("whales")).toContain("addresses/AdrBalUSD1MCnt");
  });
});

describe("list_assets search", () => {
  it("finds tickers by name and metrics by synonym", async () => {
    const f = await connect();
    try {
      const text = textOf(await f.call("list_assets", { search: "ethereum" }));
      expect(text).toContain("eth (Ethereum)");
      expect(textOf(await f.call("list_assets", { search: "dogecoin" }))).toContain("doge (Dogecoin)");
      expect(textOf(await f.call("list_assets", { search: "exchange reserve" }))).toContain("exchange_flow/exchange_reserve (get_series)");
      expect(textOf(await f.call("list_assets", { search: "hash price" }))).toContain("mining/RevHashRateUSD");
      expect(textOf(await f.call("list_assets", { search: "candles" }))).toContain("price (get_ohlcv)");
    } finally {
      await f.close();
    }
  });
});
