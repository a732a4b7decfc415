// MCP Apps and PNG charts through a real client: tools/list's _meta only for clients that render
// views, the ui:// resources, the views' data (outside the model's fields), the image block on
// `chart: true`, and the PNG resources.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, type Fixture, loadView, textOf } from "../../harness/mcp.js";
import { decodePng } from "../../harness/png.js";

let plain: Fixture;
let ui: Fixture;
beforeAll(async () => {
  plain = await connect();
  ui = await connect({ ui: true });
});
afterAll(async () => {
  await plain.close();
  await ui.close();
});

const imageOf = (r: CallToolResult) => r.content.filter((c) => c.type === "image");

describe("MCP Apps declaration", () => {
  it("lists _meta.ui.resourceUri only to clients that declare the UI extension", async () => {
    const withUi = (await ui.client.listTools()).tools;
    const without = (await plain.client.listTools()).tools;
    const uriOf = (name: string) =>
      (withUi.find((t) => t.name === name)?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect(uriOf("get_liquidation_heatmap")).toBe("ui://crypto-metrics/heatmap.html");
    expect(uriOf("get_series")).toBe("ui://crypto-metrics/chart.html");
    expect(uriOf("get_ohlcv")).toBe("ui://crypto-metrics/chart.html");
    expect(uriOf("compare")).toBe("ui://crypto-metrics/chart.html");
    expect(uriOf("list_assets")).toBeUndefined();
    expect(without.every((t) => t._meta === undefined)).toBe(true);
  });

  it("serves each view as one self-contained HTML file with the MCP Apps MIME type", async () => {
    for (const name of ["heatmap", "chart"]) {
      const { contents } = await ui.client.readResource({ uri: `ui://crypto-metrics/${name}.html` });
      const html = (contents[0] as { text: string }).text;
      expect(contents[0]!.mimeType).toBe("text/html;profile=mcp-app");
      expect(html.startsWith("<!doctype html>")).toBe(true);
      expect(html).toContain("<script>");
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import|url\(\s*['"]?https?:/i);
      expect(html.replaceAll("http://www.w3.org/2000/svg", "")).not.toMatch(/https?:\/\//);
    }
  });
});

describe("the view's data", () => {
  it("reaches a UI client's view outside the model's fields; the text and structuredContent are the same as for others", async () => {
    const args = { asset: "btc", timeframe: "1h" };
    const a = await ui.call("get_liquidation_heatmap", args);
    const b = await plain.call("get_liquidation_heatmap", args);
    const view = (await loadView<{ kind: string; rows: number; cols: number; z: string; zMax: number }>(ui, a))!;
    expect(view.kind).toBe("heatmap");
    expect(Buffer.from(view.z, "base64").length).toBe(view.rows * view.cols * 2);
    expect(b._meta).toBeUndefined();
    expect(textOf(a)).toBe(textOf(b));
    expect(a.structuredContent).toEqual(b.structuredContent);
  });

  it("carries the series for a UI client", async () => {
    const r = await ui.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-01-01" });
    const view = (await loadView<{ kind: string; series: Array<{ times: number[]; values: number[] }> }>(ui, r))!;
    expect(view.kind).toBe("series");
    expect(view.series[0]!.times.length).toBe(view.series[0]!.values.length);
    expect(view.series[0]!.times.length).toBeGreaterThan(300);
  });
});

describe("chart: true", () => {
  it("adds one PNG of at most 800 × 500 and 150 KB to the heatmap, after the same text", async () => {
    const r = await plain.call("get_liquidation_heatmap", { asset: "btc", chart: true });
    const images = imageOf(r);
    expect(images).toHaveLength(1);
    const img = images[0] as { data: string; mimeType: string };
    expect(img.mimeType).toBe("image/png");
    const bytes = Buffer.from(img.data, "base64");
    expect(bytes.length).toBeLessThanOrEqual(150 * 1024);
    const png = decodePng(bytes);
    expect(png.width).toBeLessThanOrEqual(800);
    expect(png.height).toBeLessThanOrEqual(500);
    expect(r.content[0]!.type).toBe("text");
    expect((r.structuredContent as { view?: unknown }).view).toBeUndefined();
  });

  it("adds a PNG to a series and to an OHLCV result", async () => {
    for (const [tool, args] of [
      ["get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", chart: true }],
      ["get_ohlcv", { metric: "derivatives/Volume_usd", asset: "eth", timeframe: "1h", chart: true }],
    ] as const) {
      const r = await plain.call(tool, args);
      expect(r.isError).toBeFalsy();
      expect(imageOf(r)).toHaveLength(1);
    }
  });

  it("adds a PNG to price candles and to compare; a UI client gets candles and the compared series", async () => {
    const price = await plain.call("get_ohlcv", { metric: "price", asset: "btc", startDate: "2025-10-01", chart: true });
    expect(price.isError).toBeFalsy();
    expect(imageOf(price)).toHaveLength(1);
    const cmp = await plain.call("compare", { metric: "price", assets: ["btc", "eth", "sol"], startDate: "2025-06-01", chart: true });
    expect(cmp.isError).toBeFalsy();
    expect(imageOf(cmp)).toHaveLength(1);
    const p = (await loadView<{ candles: { times: number[]; close: number[] } }>(
      ui,
      await ui.call("get_ohlcv", { metric: "price", asset: "btc", startDate: "2025-10-01" }),
    ))!;
    expect(p.candles.times.length).toBeGreaterThan(80);
    const c = (await loadView<{ layout: string; series: unknown[] }>(
      ui,
      await ui.call("compare", { asset: "btc", metrics: ["price", "lifespan/Lth_mvrv"], startDate: "2025-06-01" }),
    ))!;
    expect(c.layout).toBe("twin");
    expect(c.series).toHaveLength(2);
  });

  it("answers a range outside the history with the span that exists and no image", async () => {
    const r = await plain.call("get_series", {
      metric: "lifespan/Lth_mvrv",
      asset: "btc",
      startDate: "2030-01-01",
      endDate: "2030-02-01",
      chart: true,
    });
    expect(r.isError).toBe(true);
    expect(imageOf(r)).toHaveLength(0);
    expect(textOf(r)).toContain("its history runs");
  });

  it("without chart, no image", async () => {
    const r = await plain.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" });
    expect(imageOf(r)).toHaveLength(0);
  });

  it("refuses a non-boolean chart naming the field", async () => {
    const r = await plain.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", chart: "yes" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/chart/);
  });
});

describe("PNG resources", () => {
  it("reads the heatmap and a series as PNG", async () => {
    for (const uri of [
      "crypto-metrics://chart/heatmap/btc.png?timeframe=1h",
      "crypto-metrics://chart/series/eth/derivatives/Volume_usd.png?timeframe=4h",
    ]) {
      const { contents } = await plain.client.readResource({ uri });
      const c = contents[0] as { mimeType: string; blob: string };
      expect(c.mimeType).toBe("image/png");
      const png = decodePng(Buffer.from(c.blob, "base64"));
      expect([png.width, png.height]).toEqual([800, 500]);
    }
  });

  it("answers a bad asset with the tool's fix-it text", async () => {
    await expect(plain.client.readResource({ uri: "crypto-metrics://chart/heatmap/notacoin.png" })).rejects.toThrow(/notacoin/);
  });
});
