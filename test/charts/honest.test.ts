// Charts that say what they show: the year on the time axis where the range spans or leaves a year,
// titles in words with the unit, and amounts per bucket (flows) drawn as bars. Pure renderers, and
// the views a real MCP client receives.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, type Fixture, loadView } from "../../harness/mcp.js";
import { timeTickLabels } from "../../src/charts/format.js";
import { heatmapScene } from "../../src/charts/heatmap-scene.js";
import { type ChartView, type HeatmapView, LIGHT, type SeriesView } from "../../src/charts/model/types.js";
import { metricTitle, seriesLine, seriesView } from "../../src/charts/model/view-data.js";
import { seriesSvg } from "../../src/charts/series-svg.js";

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);
/** The view a UI client's chart draws for a result. */
const viewOf = async (rig: Fixture, r: CallToolResult) => (await loadView<ChartView>(rig, r))!;
/** The x-axis labels of an SVG: texts drawn just below the plot, left to right. */
const axisTexts = (svg: string) =>
  [
    ...svg.matchAll(/<text x="[\d.]+" y="(\d+(?:\.\d+)?)" font-size="11" text-anchor="(?:start|middle|end)" fill="[^"]+">([^<]+)<\/text>/g),
  ].map((m) => m[2]!);

describe("time axis labels", () => {
  it("carry the year on the first tick and on each new year's first", () => {
    const ticks = [at("2024-11-01"), at("2024-12-01"), at("2025-01-01"), at("2025-02-01")];
    expect(timeTickLabels(ticks, 120 * DAY)).toEqual(["Nov 1 2024", "Dec 1", "Jan 1 2025", "Feb 1"]);
    // A past year's range says which year it is, even without crossing one.
    expect(timeTickLabels([at("2023-03-01"), at("2023-04-01")], 60 * DAY)[0]).toBe("Mar 1 2023");
    expect(timeTickLabels([at("2025-12-27T00:00:00Z"), at("2025-12-28T00:00:00Z")], 2 * DAY)).toEqual([
      "Dec 27 2025 00:00",
      "Dec 28 00:00",
    ]);
  });

  it("appear so in the series and heatmap charts", async () => {
    const times = Array.from({ length: 120 }, (_, i) => at("2024-11-01") + i * DAY);
    const view = seriesView("t", [
      seriesLine(
        "x",
        "USD",
        times,
        times.map((_, i) => 1 + (i % 7)),
      ),
    ])!;
    const labels = axisTexts(seriesSvg(view as SeriesView, { width: 800, height: 500, theme: LIGHT }));
    expect(labels).toContain("Jan 1 2025");
    expect(labels.some((l) => / 2024$/.test(l))).toBe(true);
    const f = await connect({ ui: true });
    try {
      const heat = (await viewOf(f, await f.call("get_liquidation_heatmap", { asset: "btc" }))) as HeatmapView;
      const ticks = heatmapScene(heat, 800, 500, LIGHT).timeTicks.map((t) => t.label);
      // 2y to 2025-12-28: the first tick names 2023 or 2024, and 2025's first names it.
      expect(ticks[0]).toMatch(/^[A-Z][a-z]{2}( \d{1,2})? 202[34]$/);
      expect(ticks.some((l) => / 2025$/.test(l))).toBe(true);
    } finally {
      await f.close();
    }
  });
});

describe("series charts", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await connect({ ui: true });
  });
  afterAll(async () => {
    await f.close();
  });

  it("title the metric in words with its unit", async () => {
    expect(metricTitle("btc", "native units held on exchange wallets", "BTC", "1d")).toBe("BTC · BTC held on exchange wallets (BTC) · 1d");
    expect(metricTitle("btc", "mean fee per transaction in USD", "USD", "1d", "binance")).toBe(
      "BTC · Mean fee per transaction in USD · 1d · binance",
    );
    const fees = (await viewOf(f, await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" }))) as SeriesView;
    expect(fees.title).toBe("BTC · Long-term holder MVRV: price over LTH realized price (ratio) · 1d");
    const price = (await viewOf(f, await f.call("get_ohlcv", { metric: "price", asset: "eth", startDate: "2025-12-01" }))) as SeriesView;
    expect(price.title).toBe("ETH · Price, OHLC candles (USD) · 1d");
  });

  it("draw an amount per bucket as bars and a level as a line", async () => {
    const volume = (await viewOf(
      f,
      await f.call("get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h", startDate: "2025-12-27" }),
    )) as SeriesView;
    expect(volume.series[0]!.bars).toBe(true);
    const svg = seriesSvg(volume, { width: 800, height: 500, theme: LIGHT });
    // One closed bar per bucket from the zero line, and no line path.
    const bars = svg.match(/<path d="([^"]+)" fill="#2f6fed" fill-opacity="0.85"\/>/)![1]!;
    expect(bars.match(/z/g)!.length).toBe(volume.series[0]!.times.length);
    expect(svg).not.toContain('fill="none" stroke="#2f6fed"');
    const level = (await viewOf(f, await f.call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "btc" }))) as SeriesView;
    expect(level.series[0]!.bars).toBeUndefined();
    expect(seriesSvg(level, { width: 800, height: 500, theme: LIGHT })).toContain('fill="none" stroke="#2f6fed"');
  });
});
