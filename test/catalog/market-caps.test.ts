// The default universe's order is generated from the simulated world: the committed list must match it.
import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { marketCapsSource } from "../../scripts/generate-market-caps.js";
import { BY_MARKET_CAP, KNOWN_ASSETS } from "../../src/catalog/index.js";

describe("market-cap order", () => {
  it("matches what the generator writes (run npm run docs after a change)", () => {
    expect(readFileSync(new URL("../../src/catalog/market-caps.ts", import.meta.url), "utf8")).toBe(marketCapsSource());
  });

  it("holds known tickers once each, the largest first", () => {
    expect(new Set(BY_MARKET_CAP).size).toBe(BY_MARKET_CAP.length);
    expect(BY_MARKET_CAP.every((a) => KNOWN_ASSETS.includes(a))).toBe(true);
    expect(BY_MARKET_CAP.slice(0, 2)).toEqual(["btc", "eth"]);
    // Chain variants and aggregates trade on another ticker's price: never a row of their own.
    for (const variant of ["usdt_eth", "wbtc", "weth", "all_stablecoins"]) expect(BY_MARKET_CAP).not.toContain(variant);
  });
});
