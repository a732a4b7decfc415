// structuredContent as hosts that forward it instead of the text give it to the model: the text's
// facts and points in compact form, validated by the client against each tool's advertised schema.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, type Fixture, textOf } from "../../harness/mcp.js";
import { num, when } from "../../src/summary/index.js";

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

describe("compact numbers and times", () => {
  it("keeps 6 significant digits, whole numbers from 100,000, and never writes zeros for digits", () => {
    expect(num(1.3061214867087008)).toBe(1.30612);
    expect(num(0.0021802150941844984)).toBe(0.00218022);
    expect(num(87280.67159452342)).toBe(87280.7);
    expect(num(36409745925.57969)).toBe(36409745926);
    expect(num(5606255)).toBe(5606255);
    expect(num(-0.0000001234567)).toBe(-1.23457e-7);
    expect(Object.is(num(-0), 0)).toBe(true);
  });

  it("writes a time at its own precision", () => {
    expect(when("2025-12-27T00:00:00.000Z")).toBe("2025-12-27");
    expect(when("2025-12-27T14:05:00.000Z")).toBe("2025-12-27T14:05Z");
    expect(when("2025-12-27T14:05:07.000Z")).toBe("2025-12-27T14:05:07Z");
    expect(when("2025-12-27T14:05:07.250Z")).toBe("2025-12-27T14:05:07.250Z");
    for (const iso of ["2025-12-27T00:00:00.000Z", "2025-12-27T14:05:00.000Z", "2025-12-27T14:05:07.000Z"])
      expect(Date.parse(when(iso))).toBe(Date.parse(iso));
  });
});

describe("structuredContent", () => {
  it("advertises each tool's real output schema, and the client validates every result against it", async () => {
    const { tools } = await f.client.listTools();
    for (const t of tools) {
      expect(Object.keys(t.outputSchema?.properties ?? {}).length, t.name).toBeGreaterThan(3);
      expect(t.outputSchema?.properties).toHaveProperty("error");
    }
    // The fixture's client checks each structuredContent against these (a mismatch is an McpError).
    const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", max_points: 30 });
    expect(r.isError).toBeFalsy();
    const bad = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btcc" });
    expect(bad.isError).toBe(true);
  });

  it("carries the text's points, with the text's numbers, grouped by month", async () => {
    for (const args of [
      { metric: "lifespan/Lth_mvrv", asset: "btc" },
      { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h", startDate: "2025-12-20" },
    ]) {
      const r = await f.call(args.metric.startsWith("derivatives") ? "get_ohlcv" : "get_series", args);
      const digest = (r.structuredContent as { digest: { points: Record<string, Array<[string, number]>> } }).digest;
      const lines = textOf(r).split("\n");
      const from = lines.findIndex((l) => l.startsWith("points ("));
      const text: string[] = [];
      // The block: month headings and point lines, up to the first line that is neither.
      for (const line of lines.slice(from + 1)) {
        if (/^\d{4}-\d\d:$/.test(line)) continue;
        if (!/^\d\d( \d\d:\d\d)? -?[\d.]+[MBT]?$/.test(line)) break;
        text.push(line);
      }
      expect(text.length).toBeGreaterThan(20);
      // The same number raw in the unit: "13.2B" in the text is 13200000000 here, never 132 and a scale.
      const read = (v: string) => Number(v.replace(/[MBT]$/, "")) * ({ M: 1e6, B: 1e9, T: 1e12 }[v.slice(-1)] ?? 1);
      const structured = Object.values(digest.points).flat();
      expect(structured.map(([at]) => at)).toEqual(text.map((l) => l.slice(0, l.lastIndexOf(" "))));
      structured.forEach(([, v], i) => {
        const printed = read(text[i]!.slice(text[i]!.lastIndexOf(" ") + 1));
        expect(Math.abs(v - printed)).toBeLessThanOrEqual(1e-9 * Math.abs(printed));
      });
      expect(digest).not.toHaveProperty("pointScale");
    }
  });

  it("names clusters as the text does, each band its sides, the anchor as the text does, and holds no null", async () => {
    const r = await f.call("get_liquidation_heatmap", { asset: "btc" });
    const d = (
      r.structuredContent as {
        digest: {
          anchor: [string, number];
          latest: {
            bands: Record<string, { above: number; below: number }>;
            above: { nearest?: { low: number; high: number; peak: number } };
          };
        };
      }
    ).digest;
    expect(Object.keys(d.latest.bands)).toEqual(["1", "2", "5", "10"]);
    // A cluster is an object wherever it is named, so `nearest.peak` reads without a resolver.
    expect(typeof d.latest.above.nearest!.peak).toBe("number");
    expect(d.latest.above.nearest!.high).toBeGreaterThan(d.latest.above.nearest!.low);
    expect(textOf(r)).toContain(
      `Anchor: last candle close ${d.anchor[1].toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
    );
    expect(JSON.stringify(r.structuredContent)).not.toContain("null");
  });
});
