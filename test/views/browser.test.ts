// The views as a person sees them: each loaded in headless Chromium inside a page that plays the
// host, fed a real tool result; asserts it draws (the hottest cell where the digest says), has no
// console errors, makes no request, follows the host theme, answers hover and the controls, and
// shows a clear message for a malformed or empty result. Screenshots go to test-output/views/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { browserUnavailable, collect, type HostedView, type HostOptions, hostView, launch } from "../../harness/browser-host.js";
import { connect, type Fixture, loadView, NOW } from "../../harness/mcp.js";
import { type Decoded, decodePng } from "../../harness/png.js";
import { skipping } from "../../harness/skips.js";
import { candleColumns } from "../../src/backend/inprocess/readings/candles.js";
import { VIRIDIS } from "../../src/charts/colormap.js";
import { heatmapLayout } from "../../src/charts/heatmap-scene.js";
import type { HeatmapView } from "../../src/charts/model/types.js";
import { seriesLine, seriesView, viewCandles } from "../../src/charts/model/view-data.js";
import { VIEW_META_KEY } from "../../views/data.js";

const OUT = join(import.meta.dirname, "..", "..", "test-output", "views");
const missing = browserUnavailable();
if (missing) {
  if (process.env["CI"] === "true") throw new Error(`Chromium is required in CI: ${missing}`);
  skipping("the views in Chromium (test/views)", `apt-get install chromium, as .ci/run does; ${missing}`);
}

let f: Fixture;
let browser: Browser;
const html: Record<string, string> = {};

beforeAll(async () => {
  if (missing) return;
  mkdirSync(OUT, { recursive: true });
  f = await connect({ ui: true });
  for (const name of ["heatmap", "chart"]) {
    const { contents } = await f.client.readResource({ uri: `ui://crypto-metrics/${name}.html` });
    html[name] = (contents[0] as { text: string }).text;
  }
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await f?.close();
});

/** The view in a host whose tool calls reach this file's server. */
const host = (opts: HostOptions) => hostView(browser, { callTool: (name, a) => f.call(name, a), ...opts });

async function drawn(h: HostedView, selector = ".chart svg"): Promise<void> {
  await h.frame.waitForSelector(`${selector}, .msg`, { timeout: 15_000 });
}

async function shot(h: HostedView, name: string): Promise<Decoded> {
  const png = await h.page.screenshot({ clip: { x: 0, y: 0, width: 800, height: 560 } });
  writeFileSync(join(OUT, `${name}.png`), png);
  return decodePng(png);
}

/** Position of an RGB colour on the viridis ramp (0–1), or -1 when it is not on it. */
function viridisPosition(r: number, g: number, b: number): number {
  let best = -1;
  let bestD = 12 ** 2 * 3;
  for (let i = 0; i < 256; i++) {
    const d = (VIRIDIS[i * 3]! - r) ** 2 + (VIRIDIS[i * 3 + 1]! - g) ** 2 + (VIRIDIS[i * 3 + 2]! - b) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i / 255;
    }
  }
  return best;
}

function pixel(img: Decoded, x: number, y: number): [number, number, number] {
  const i = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.pixels[i]!, img.pixels[i + 1]!, img.pixels[i + 2]!];
}

const run = missing ? describe.skip : describe;

run("heatmap view in Chromium", () => {
  let result: CallToolResult;
  const args = { asset: "btc", timeframe: "4h" };
  beforeAll(async () => {
    result = await f.call("get_liquidation_heatmap", args);
  });

  it("draws the matrix with the hottest cell where the digest puts the peak, no errors, no requests", async () => {
    const h = await host({ html: html["heatmap"]!, result, args });
    await drawn(h);
    const img = await shot(h, "heatmap-light");
    await collect(h);
    expect(h.errors).toEqual([]);
    expect(h.requests).toEqual([]);
    expect(h.sizes.length).toBeGreaterThan(0);

    const s = {
      ...(result.structuredContent as { digest: { peak: { price: number; time: string } } }),
      view: (await loadView<HeatmapView>(f, result))!,
    };
    const box = (await (await h.page.$("#view"))!.boundingBox())!;
    const chart = (await h.frame.locator(".chart").boundingBox())!;
    const L = heatmapLayout(s.view, Math.round(chart.width), Math.round(chart.height));
    // The digest's peak cell, found in the picture: the brightest colour of the ramp around it.
    const px = box.x + chart.x + L.x(Date.parse(s.digest.peak.time) + 1);
    const py = box.y + chart.y + L.y(s.digest.peak.price);
    let best = -1;
    for (let dx = -4; dx <= 4; dx++)
      for (let dy = -3; dy <= 3; dy++) best = Math.max(best, viridisPosition(...pixel(img, px + dx, py + dy)));
    expect(best).toBeGreaterThan(0.8);
    // And the picture is not one colour: far from the price path the map is at the bottom of the ramp.
    const corner = viridisPosition(...pixel(img, box.x + chart.x + L.plot.x0 + 3, box.y + chart.y + L.plot.y1 - 3));
    expect(corner).toBeGreaterThanOrEqual(0);
    expect(corner).toBeLessThan(0.3);
    await h.page.close();
  });

  it("shows price, time and notional on hover", async () => {
    const h = await host({ html: html["heatmap"]!, result, args });
    await drawn(h);
    const chart = (await h.frame.locator(".chart").boundingBox())!;
    const box = (await (await h.page.$("#view"))!.boundingBox())!;
    await h.page.mouse.move(box.x + chart.x + chart.width * 0.5, box.y + chart.y + chart.height * 0.5);
    const tip = h.frame.locator(".tip");
    await tip.waitFor({ state: "visible" });
    const text = await tip.innerText();
    expect(text).toMatch(/Liquidation notional \$?[\d.]+[kMB]?|Liquidation notional \$0/);
    expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    await shot(h, "heatmap-hover");
    await collect(h);
    expect(h.errors).toEqual([]);
    await h.page.close();
  });

  it("switching the timeframe calls the tool through the host and redraws", async () => {
    const h = await host({ html: html["heatmap"]!, result, args, callTool: (name, a) => f.call(name, a) });
    await drawn(h);
    await h.frame.locator("select").first().selectOption("1h");
    await h.frame.waitForFunction(() => document.querySelector("svg text")?.textContent?.includes("· 1h ·"), undefined, {
      timeout: 20_000,
    });
    await collect(h);
    expect(h.toolCalls.filter((c) => c.name !== "view_data")).toEqual([
      { name: "get_liquidation_heatmap", arguments: { asset: "btc", timeframe: "1h" } },
    ]);
    expect(h.errors).toEqual([]);
    await shot(h, "heatmap-1h");
    await h.page.close();
  });

  it("follows a dark host theme and its variables", async () => {
    const h = await host({
      html: html["heatmap"]!,
      result,
      args,
      theme: "dark",
      variables: { "--color-background-primary": "light-dark(#ffffff, #101014)", "--color-text-primary": "light-dark(#000000, #fafafa)" },
    });
    await drawn(h);
    const img = await shot(h, "heatmap-dark");
    const box = (await (await h.page.$("#view"))!.boundingBox())!;
    const [r, g, b] = pixel(img, box.x + 4, box.y + 4);
    expect(r + g + b).toBeLessThan(3 * 40);
    await collect(h);
    expect(h.errors).toEqual([]);
    await h.page.close();
  });
});

run("chart view in Chromium", () => {
  it("draws a series with hover, no errors, no requests", async () => {
    const args = { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-01-01" };
    const result = await f.call("get_series", args);
    const h = await host({ html: html["chart"]!, result, args });
    await drawn(h);
    const d = await h.frame.locator(".chart svg path").last().getAttribute("d");
    expect((d ?? "").split("L").length).toBeGreaterThan(300);
    const chart = (await h.frame.locator(".chart").boundingBox())!;
    const box = (await (await h.page.$("#view"))!.boundingBox())!;
    await h.page.mouse.move(box.x + chart.x + chart.width * 0.6, box.y + chart.y + chart.height * 0.5);
    await h.frame.locator(".tip").waitFor({ state: "visible" });
    expect(await h.frame.locator(".tip").innerText()).toMatch(/lth_mvrv/);
    await shot(h, "series-light");
    await collect(h);
    expect(h.errors).toEqual([]);
    expect(h.requests).toEqual([]);
    await h.page.close();
  });

  it("draws an hourly OHLCV series in dark mode", async () => {
    const args = { metric: "derivatives/Volume_usd", asset: "eth", timeframe: "1h" };
    const result = await f.call("get_ohlcv", args);
    const h = await host({ html: html["chart"]!, result, args, theme: "dark" });
    await drawn(h);
    await shot(h, "ohlcv-dark");
    await collect(h);
    expect(h.errors).toEqual([]);
    await h.page.close();
  });
});

/** A result as a tool returns it, around a view built from real generated data. */
function resultOf(view: unknown, text: string): CallToolResult {
  return { content: [{ type: "text", text }], _meta: { [VIEW_META_KEY]: { view } } };
}

run("chart view: candles and several series", () => {
  const DAY = 86_400_000;
  const start = Date.parse("2025-06-01T00:00:00Z");
  const btc = candleColumns("btc", DAY, start, NOW, NOW);
  const eth = candleColumns("eth", DAY, start, NOW, NOW);

  it("draws price candles with OHLC on hover", async () => {
    const view = seriesView("BTC price · 1d", [], viewCandles(btc));
    const h = await host({ html: html["chart"]!, result: resultOf(view, "BTC price"), args: {} });
    await drawn(h);
    const chart = (await h.frame.locator(".chart").boundingBox())!;
    const box = (await (await h.page.$("#view"))!.boundingBox())!;
    await h.page.mouse.move(box.x + chart.x + chart.width * 0.5, box.y + chart.y + chart.height * 0.5);
    await h.frame.locator(".tip").waitFor({ state: "visible" });
    expect(await h.frame.locator(".tip").innerText()).toMatch(/O [\d,]+ H [\d,]+ L [\d,]+ C [\d,]+/);
    await shot(h, "price-candles");
    await collect(h);
    expect(h.errors).toEqual([]);
    await h.page.close();
  });

  it("rebases several series to 100 and switches two units to twin axes", async () => {
    const lines = [seriesLine("btc close", "USD", btc.times, btc.close), seriesLine("eth close", "USD", eth.times, eth.close)];
    const rebased = seriesView("BTC vs ETH price", lines)!;
    expect(rebased.layout).toBe("rebased");
    const h = await host({ html: html["chart"]!, result: resultOf(rebased, "compare"), args: {} });
    await drawn(h);
    expect(await h.frame.locator("svg").innerHTML()).toContain("rebased: 100 at first common date");
    expect(await h.frame.locator(".chart svg path").count()).toBeGreaterThanOrEqual(2);
    await shot(h, "compare-rebased");
    await h.frame.locator("button", { hasText: "Own axes" }).click();
    await h.frame.waitForFunction(() => !document.querySelector("svg")?.innerHTML.includes("rebased: 100"));
    expect(await h.frame.locator("svg").innerHTML()).toContain("(left)");
    await shot(h, "compare-twin");
    await collect(h);
    expect(h.errors).toEqual([]);
    await h.page.close();
  });
});

run("bad input", () => {
  const cases: Array<[string, string, unknown, RegExp]> = [
    [
      "heatmap",
      "malformed matrix",
      { content: [{ type: "text", text: "x" }], _meta: { [VIEW_META_KEY]: { view: { kind: "heatmap", rows: 3, cols: 2, times: [1] } } } },
      /cannot be drawn/,
    ],
    [
      "heatmap",
      "short cell data",
      {
        content: [{ type: "text", text: "x" }],
        structuredContent: {
          view: {
            kind: "heatmap",
            rows: 2,
            cols: 1,
            times: [0],
            columnMs: 1,
            priceLow: 1,
            priceStep: 1,
            zMax: 1,
            z: "AAA=",
            marks: [],
            choices: { timeframes: [], lookbacks: {}, exchanges: [] },
            candles: { open: [null], high: [null], low: [null], close: [null] },
          },
        },
      },
      /cannot be drawn/,
    ],
    [
      "heatmap",
      "no view",
      { content: [{ type: "text", text: "BTC: no data between 2030-01-01 and 2030-02-01." }] },
      /Nothing to draw\. BTC: no data/,
    ],
    ["heatmap", "an error", { isError: true, content: [{ type: "text", text: 'Asset "btcc" is not covered.' }] }, /not covered/],
    ["chart", "not an object", "garbage", /Nothing to draw/],
    [
      "chart",
      "mismatched series",
      {
        content: [],
        structuredContent: {
          view: { kind: "series", title: "t", layout: "single", series: [{ label: "a", unit: "", times: [1, 2], values: [1] }] },
        },
      },
      /cannot be drawn/,
    ],
    ["chart", "wrong kind", { content: [], _meta: { [VIEW_META_KEY]: { view: { kind: "heatmap" } } } }, /not a series chart/],
  ];
  for (const [view, name, result, message] of cases) {
    it(`${view}: ${name} → a clear message`, async () => {
      const h = await host({ html: html[view]!, result, args: {} });
      await h.frame.waitForFunction(
        () => /Nothing|cannot|not |covered/.test(document.querySelector(".msg")?.textContent ?? ""),
        undefined,
        { timeout: 10_000 },
      );
      expect(await h.frame.locator(".msg").innerText()).toMatch(message);
      await collect(h);
      expect(h.errors).toEqual([]);
      await h.page.close();
    });
  }
});

interface TextBox {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Every SVG text of the view as laid out, and the frame's width. */
async function texts(h: HostedView): Promise<{ boxes: TextBox[]; width: number }> {
  return h.frame.evaluate(() => ({
    width: document.documentElement.clientWidth,
    boxes: Array.from(document.querySelectorAll(".chart svg text")).map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent ?? "", x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
    }),
  }));
}

const overlap = (a: TextBox, b: TextBox) => a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5;

/** The last size the view reported, once it has settled. */
async function reportedHeight(h: HostedView): Promise<number> {
  await h.page.waitForTimeout(150);
  await collect(h);
  return h.sizes.at(-1)!.height;
}

run("views fit any pane (Chromium, 360, 380 and 800 px, light and dark)", () => {
  const compareArgs = { metric: "price", assets: ["btc", "eth", "sol", "xrp", "bnb", "doge", "ada", "link"], startDate: "2025-06-01" };
  const heatmapArgs = { asset: "eth", timeframe: "1h", lookback: "90d" };
  const results: Record<string, CallToolResult> = {};
  beforeAll(async () => {
    results["heatmap"] = await f.call("get_liquidation_heatmap", heatmapArgs);
    results["chart"] = await f.call("compare", compareArgs);
  });

  for (const view of ["heatmap", "chart"] as const) {
    for (const width of [360, 380, 800]) {
      for (const theme of ["light", "dark"] as const) {
        it(`${view} at ${width} px, ${theme}: every text inside the pane, none over another; the size reported is the content's`, async () => {
          const h = await host({
            html: html[view]!,
            result: results[view]!,
            args: view === "heatmap" ? heatmapArgs : compareArgs,
            width,
            theme,
          });
          await drawn(h);
          const png = await h.page.screenshot({ clip: { x: 0, y: 0, width, height: 560 } });
          writeFileSync(join(OUT, `fit-${view}-${width}-${theme}.png`), png);
          const { boxes, width: frameWidth } = await texts(h);
          expect(boxes.length).toBeGreaterThan(5);
          for (const b of boxes) {
            expect(b.x0, b.text).toBeGreaterThanOrEqual(0);
            expect(b.x1, b.text).toBeLessThanOrEqual(frameWidth);
          }
          for (let i = 0; i < boxes.length; i++) {
            for (let j = i + 1; j < boxes.length; j++)
              expect(overlap(boxes[i]!, boxes[j]!), `"${boxes[i]!.text}" over "${boxes[j]!.text}"`).toBe(false);
          }
          // The frame is 660 px tall; the view asks for what its content takes.
          const content = await h.frame.evaluate(() => Math.ceil(document.getElementById("app")!.getBoundingClientRect().bottom));
          const height = await reportedHeight(h);
          expect(height).toBeLessThan(660);
          expect(Math.abs(height - content)).toBeLessThanOrEqual(2);
          expect(h.errors).toEqual([]);
          await h.page.close();
        });
      }
    }
  }

  it("reports a smaller size when a message replaces a chart, and a short one for an error", async () => {
    const error = { isError: true, content: [{ type: "text", text: 'Asset "btcc" is not covered. Did you mean "btc"?' }] };
    const h = await host({ html: html["chart"]!, result: error, args: {} });
    await h.frame.waitForSelector(".msg.error");
    expect(await reportedHeight(h)).toBeLessThan(150);
    await h.page.close();
  });
});

run(
  "every host draws (the official AppBridge, a full host, one that strips _meta and refuses the view's calls, one without serverTools)",
  () => {
    const cases = {
      heatmap: { tool: "get_liquidation_heatmap", args: { asset: "btc" } },
      chart: { tool: "get_ohlcv", args: { metric: "price", asset: "btc" } },
    } as const;
    const results: Record<string, CallToolResult> = {};
    beforeAll(async () => {
      for (const [view, c] of Object.entries(cases)) results[view] = await f.call(c.tool, c.args);
    });
    const hosts = ["appbridge", "full", "strips-meta", "no-server-tools"] as const;
    for (const view of ["heatmap", "chart"] as const) {
      for (const kind of hosts) {
        for (const width of [380, 800]) {
          for (const theme of ["light", "dark"] as const) {
            it(`${view} in a ${kind} host at ${width} px, ${theme}: drawn, captioned as simulated, no console error`, async () => {
              const h = await host({ html: html[view]!, result: results[view]!, args: cases[view].args, host: kind, width, theme });
              await drawn(h);
              await h.page.waitForTimeout(100);
              const png = await h.page.screenshot({ clip: { x: 0, y: 0, width: width + 20, height: 600 } });
              writeFileSync(join(OUT, `host-${kind}-${view}-${width}-${theme}.png`), png);
              expect(await h.frame.locator(".chart svg").count()).toBe(1);
              const svgText = await h.frame.locator(".chart svg").textContent();
              expect(svgText).toContain("Simulated · calibrated to real history through 2025-12-28");
              const note = h.frame.locator(".note");
              if (kind === "full" || kind === "appbridge") {
                expect(await note.count()).toBe(0);
                // The full detail: the heatmap's matrix image, the candles of the price chart.
                if (view === "heatmap") expect(await h.frame.locator(".chart svg image").count()).toBe(1);
              } else {
                expect(await note.innerText()).toMatch(
                  kind === "strips-meta" ? /does not pass the chart's detail/ : /does not let views load the chart's detail/,
                );
                expect(await h.frame.locator(".chart svg image").count()).toBe(0);
              }
              await collect(h);
              expect(h.errors).toEqual([]);
              expect(h.requests).toEqual([]);
              // A host without serverTools is never asked for view_data; the full host is, once.
              const dataCalls = h.toolCalls.filter((c) => c.name === "view_data").length;
              const byHandle = typeof (results[view]!._meta?.[VIEW_META_KEY] as { handle?: unknown }).handle === "string";
              expect(dataCalls).toBe((kind === "full" || kind === "appbridge") && byHandle ? 1 : 0);
              await h.page.close();
            });
          }
        }
      }
    }
  },
);
