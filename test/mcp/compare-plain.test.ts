// compare in plain terms: each asset's unit (BTC, ETH, USD, never "native units"), ranks only among
// like quantities, one scale per line, and correlations or a lead/lag stated with their sample size
// only when they clear the stated significance threshold. Through a real MCP client and `call`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { call, cliEnv } from "../../harness/cli.js";
import { connect, type Fixture, textOf } from "../../harness/mcp.js";
import type { CompactCompareDigest } from "../../src/summary/index.js";
import { digestCompare, renderCompareText } from "../../src/summary/index.js";

const digestOf = (r: { structuredContent?: unknown }) => (r.structuredContent as { digest: CompactCompareDigest }).digest;

describe("compare in plain terms", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await connect();
  });
  afterAll(async () => {
    await f.close();
  });

  it("writes each asset's own unit and ranks a reserve only against reserves", async () => {
    const assets = await f.call("compare", { metric: "exchange_flow/exchange_reserve", assets: ["btc", "eth"] });
    const text = textOf(assets);
    expect(text).not.toContain("native units");
    expect(text).toContain("compare exchange_flow/exchange_reserve (BTC, ETH, timeframe 1d) of btc, eth");
    expect(text).toMatch(/\nbtc: [\d.]+M BTC → [\d.]+M BTC, -[\d.]+ %, #\d\n/);
    expect(text).toMatch(/\neth: [\d.]+M ETH → [\d.]+M ETH, -[\d.]+ %, #\d\n/);
    expect(digestOf(assets).members.map((m) => m.unit)).toEqual(["BTC", "ETH"]);

    const mixed = await f.call("compare", { asset: "btc", metrics: ["exchange_flow/exchange_reserve", "price"] });
    const mixedText = textOf(mixed);
    expect(mixedText).toContain("member: first → last, change\n");
    expect(mixedText).toMatch(/\nexchange_reserve: [\d.]+M BTC → [\d.]+M BTC, -[\d.]+ %\n/);
    expect(mixedText).not.toMatch(/#\d/);
    expect(digestOf(mixed).members.map((m) => m.rank)).toEqual([undefined, undefined]);
  });

  it("states a correlation with its sample size and threshold, or no significant relation", async () => {
    const prices = await f.call("compare", { metric: "price", assets: ["btc", "eth", "sol"], startDate: "2025-06-01" });
    const d = digestOf(prices);
    expect(d.correlation).toMatchObject({ changes: 210, level: 0.05 });
    const shown = String(Number(d.correlation!.threshold!.toPrecision(2)));
    expect(textOf(prices)).toContain(
      `correlation of 1 d log returns (Pearson r, 210 changes; shown where |r| ≥ ${shown} is significant at 5 % over 3 pairs, else "·"):`,
    );
    // Prices of majors move together: every pair clears the bar and is printed, as r without its "0.".
    expect(textOf(prices)).toMatch(/\neth: \.\d\d\nsol: \.\d\d \.\d\d\n/);

    // A reserve's daily changes against the price's over 998 changes: the bar is the same either
    // way, and the answer says whether r clears it (no relation) or prints r (two digits, no "0.").
    const mixed = textOf(await f.call("compare", { asset: "btc", metrics: ["exchange_flow/exchange_reserve", "price"] }));
    expect(mixed).toMatch(
      /\(Pearson r, 998 changes; (\|r\| ≥ 0\.06\d is significant at 5 %\): no significant relation\n|shown where \|r\| ≥ 0\.06\d is significant at 5 %, else "·"\):\ncolumns: exchange_reserve\nprice: -?\.\d\d\n)/,
    );
  });

  it("does not print a lead/lag at noise level (btc and eth reserves from 2025-08-29: was 'btc leads eth by 6 buckets, r 0.23 vs 0.13')", async () => {
    const r = await f.call("compare", { metric: "exchange_flow/exchange_reserve", assets: ["btc", "eth"], startDate: "2025-08-29" });
    const d = digestOf(r);
    expect(d.leadLag).toMatchObject({ maxLagBuckets: 10, level: 0.05 });
    expect(d.leadLag!.found).toBeUndefined();
    expect(d.leadLag!.threshold!).toBeGreaterThan(0.25);
    expect(textOf(r)).toMatch(
      /\nlead\/lag \(±10 buckets\): no significant relation \(needs \|r\| ≥ 0\.\d+ at 5 % over all pairs and lags\)\n/,
    );
    expect(textOf(r)).not.toContain("leads");
  });

  it("gives call the same answer", async () => {
    const out = await call(
      cliEnv().env(),
      "compare",
      "--metric",
      "exchange_flow/exchange_reserve",
      "--assets",
      "btc,eth",
      "--startDate",
      "2025-08-29",
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("(BTC, ETH, timeframe 1d)");
    expect(out.stdout).toContain("no significant relation");
    expect(out.stdout).not.toContain("native units");
  });
});

describe("renderCompareText", () => {
  it("writes each of a line's numbers in its own scale, reading by itself", () => {
    const day = 86_400_000;
    const times = [0, 1, 2].map((i) => i * day);
    const d = digestCompare(
      [
        { label: "btc", metric: "m", asset: "btc", unit: "BTC", nature: "level", times, values: [2_330_000, 1_500_000, 947_846.36] },
        { label: "eth", metric: "m", asset: "eth", unit: "ETH", nature: "level", times, values: [900, 950, 1_000] },
      ],
      { timeframeMs: day },
    );
    const text = renderCompareText({ title: "m", query: {}, notes: [] }, d);
    expect(text).toContain("btc: 2.33M BTC → 947,846.36 BTC, -59.32 %");
    expect(text).toContain("eth: 900 ETH → 1,000 ETH, +11.11 %");
  });
});
