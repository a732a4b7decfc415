// The heatmap answers the trader's questions: where the hottest level is, clusters narrow enough to
// act on (peak price, width, distance to the peak and to the edge), bands narrower than the level
// spacing said to be so, the defaults stated as they are, the ratio's venue and each venue's market
// as it writes it. Through a real MCP client and through `call`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { call, cliEnv } from "../../harness/cli.js";
import { connect, type Fixture, textOf } from "../../harness/mcp.js";
import { venueMarket, VENUES } from "../../src/catalog/index.js";
import type { CompactHeatmapDigest } from "../../src/summary/index.js";

const digestOf = (r: { structuredContent?: unknown }) => (r.structuredContent as { digest: CompactHeatmapDigest }).digest;

describe("get_liquidation_heatmap answers the trader", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await connect();
  });
  afterAll(async () => {
    await f.close();
  });

  it("names the hottest level's price and keeps clusters a few levels wide (btc 6h/2y)", async () => {
    const r = await f.call("get_liquidation_heatmap", { asset: "btc" });
    const d = digestOf(r);
    const l = d.latest!;
    const text = textOf(r);
    expect(text).toMatch(/hottest level \$[\d.,]+M at [\d,]+ \([+-][\d.]+ %\)/);
    expect(l.maxCellPrice).toBeTypeOf("number");
    // Before, "below nearest & largest 73,600–85,600" held 46.5 % of the column across 16 % of the price.
    for (const side of [l.above, l.below]) {
      for (const c of [side.largest, side.nearest, ...(side.also ?? [])]) {
        if (!c) continue;
        expect(c.widthPercent).toBeLessThan(8);
        expect(c.peak).toBeGreaterThanOrEqual(c.low);
        expect(c.peak).toBeLessThan(c.high);
        // The band's edges are its bins' edges: the width is theirs, and the text prints both edges.
        expect(c.widthPercent).toBeCloseTo(((c.high - c.low) / d.anchor![1]) * 100, 1);
        expect(text).toContain(`${c.low.toLocaleString("en-US")}–${c.high.toLocaleString("en-US")} (`);
      }
      for (const c of [side.largest, side.nearest]) if (c) expect(text).toContain(`peak ${c.peak.toLocaleString("en-US")} `);
    }
    expect(text).toContain("Clusters (peak level ≥ 10 % of hottest = ");
    expect(text).toMatch(
      / (above|below) (nearest|largest).* \(\d\.\d %\): \$[\d.,]+M \([\d.]+ %\), (edge [+-][\d.]+ %, )?peak [\d,]+ [+-][\d.]+ %/,
    );
    // The ratio's venue is named, and the default timeframe is the one served.
    expect(text).toContain("Binance top-trader long/short ratio: latest");
    expect(d.topTraderLsr!.venue).toBe("binance");
    expect(text).toContain("· timeframe 6h · lookback 2y");
  });

  it("says a ±1 % band narrower than the level spacing is n/a instead of $0 (sol; pepe 4h)", async () => {
    const sol = await f.call("get_liquidation_heatmap", { asset: "sol" });
    const d = digestOf(sol);
    const step = d.matrix.priceStep!;
    expect((step / d.anchor![1]) * 100).toBeGreaterThan(1);
    expect(d.latest!.bands["1"]).toMatchObject({ narrowerThanSpacing: true });
    expect(textOf(sol)).toMatch(
      /\(levels 2\.00 apart, 1\.6 % of the price: ±1 % narrower, n\/a\):\n {2}above \(short liquidations\) n\/a \/ /,
    );
    const pepe = textOf(await f.call("get_liquidation_heatmap", { asset: "pepe", timeframe: "4h" }));
    expect(pepe).toContain("3.8 % of the price: ±1 %, ±2 % narrower, n/a");
  });

  it("writes each venue's market as that venue writes it", async () => {
    const cases: Array<[string, string]> = [
      ["hyperliquid", "hyperliquid:BTC:perp"],
      ["okx", "okx:BTC-USDT-SWAP:perp"],
      ["bitmex", "bitmex:XBTUSD:perp"],
      ["binance", "binance:BTCUSDT:perp"],
    ];
    for (const [exchange, source] of cases) {
      const r = await f.call("get_liquidation_heatmap", { asset: "btc", exchange, timeframe: "1h", lookback: "7d" });
      expect(textOf(r).split("\n")[0]).toContain(`price source ${source} ·`);
      expect(textOf(r)).not.toContain(exchange === "binance" ? "XBT" : "BTCUSDT");
    }
  });

  it("names a market for every venue, filled in for the asset", () => {
    for (const venue of VENUES) {
      const { symbol, kind } = venueMarket(venue, "sol");
      expect(symbol).toMatch(/sol|SOL/);
      expect(symbol).not.toMatch(/[{}]/);
      expect(["perp", "future", "spot"]).toContain(kind);
    }
    // BTC is XBT where the venue writes it so, and only there.
    expect(venueMarket("kucoin", "btc").symbol).toBe("XBTUSDTM");
    expect(venueMarket("kucoin", "eth").symbol).toBe("ETHUSDTM");
    expect(venueMarket("binance", "btc").symbol).toBe("BTCUSDT");
  });

  it("states the default timeframe as 6h in tools/list and in call's help", async () => {
    const { tools } = await f.client.listTools();
    const heatmap = tools.find((t) => t.name === "get_liquidation_heatmap")!;
    const timeframe = (heatmap.inputSchema.properties as Record<string, { description?: string }>).timeframe!;
    expect(timeframe.description).toContain("default 6h");
    const help = await call(cliEnv().env(), "get_liquidation_heatmap", "--help");
    const flat = help.stdout.replace(/\s+/g, " ");
    expect(flat).toContain("--timeframe TEXT As get_ohlcv; default 6h.");
    expect(flat).not.toMatch(/Default 1d\.(?! \(the liquidation heatmap: 6h\))/);
  });

  it("gives call the same answer", async () => {
    const out = await call(cliEnv().env(), "get_liquidation_heatmap", "--asset", "btc", "--exchange", "hyperliquid");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("price source hyperliquid:BTC:perp");
    expect(out.stdout).toMatch(/hottest level \$[\d.,]+M at [\d,]+/);
    expect(out.stdout).toContain("Binance top-trader long/short ratio");
  });
});
