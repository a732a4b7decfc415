// The PNG renderer as pixels: size, a picture that is not blank, the matrix painted the right way
// up (cells' colours where the layout puts them, the hottest cell at the top of the ramp), and a
// series line through its last point. Plus the formatting the axes rely on.
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NOW, tempDir, writeKeys } from "../../harness/mcp.js";
import { type Decoded, decodePng } from "../../harness/png.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { candleColumns } from "../../src/backend/inprocess/readings/candles.js";
import { resultAs } from "../../src/backend/types.js";
import type { Heatmap } from "../../src/catalog/responses.js";
import { colorPosition, VIRIDIS } from "../../src/charts/colormap.js";
import { numCompact, priceLabel, timeLabel, usdCompact } from "../../src/charts/format.js";
import { heatmapLayout } from "../../src/charts/heatmap-scene.js";
import { decodeCells, type HeatmapView, LIGHT } from "../../src/charts/model/types.js";
import { heatmapView, seriesLine, seriesView, viewCandles } from "../../src/charts/model/view-data.js";
import { chartPng, forgetTexts, PNG_HEIGHT, PNG_WIDTH } from "../../src/charts/png.js";
import { niceTicks, timeTicks } from "../../src/charts/scale.js";
import { seriesLayout } from "../../src/charts/series-svg.js";
import { digestHeatmap } from "../../src/summary/index.js";

let backend: InProcessBackend;
beforeAll(async () => {
  const dir = tempDir();
  backend = await InProcessBackend.create({ apiKey: "demo-key", keysFile: writeKeys(dir), stateDir: join(dir, "state"), now: () => NOW });
});

function rgbAt(img: Decoded, x: number, y: number): [number, number, number] {
  const i = (Math.floor(y) * img.width + Math.floor(x)) * 4;
  return [img.pixels[i]!, img.pixels[i + 1]!, img.pixels[i + 2]!];
}

/** Index of the nearest viridis entry, or -1 when the colour is not on the ramp. */
function rampIndex([r, g, b]: [number, number, number]): number {
  let best = -1;
  let bestD = 3 * 6 ** 2;
  for (let i = 0; i < 256; i++) {
    const d = (VIRIDIS[i * 3]! - r) ** 2 + (VIRIDIS[i * 3 + 1]! - g) ** 2 + (VIRIDIS[i * 3 + 2]! - b) ** 2;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

afterAll(async () => {
  await backend?.close();
});

describe("heatmap PNG", () => {
  let view: HeatmapView;
  let img: Decoded;
  let bytes: Uint8Array;
  beforeAll(async () => {
    const body = (await backend.fetch({ endpoint: "liquidation_levels/heatmap", asset: "btc", query: { timeframe: "4h" } }))
      .body as Heatmap;
    view = heatmapView(body, digestHeatmap(body), { choices: { timeframes: [], lookbacks: {}, exchanges: [] } })!;
    bytes = await chartPng(view);
    img = decodePng(bytes);
  });

  it("is 800 × 500, under 150 KB, and far from blank", () => {
    expect([img.width, img.height]).toEqual([PNG_WIDTH, PNG_HEIGHT]);
    expect(bytes.length).toBeLessThanOrEqual(150 * 1024);
    const colours = new Set<number>();
    for (let i = 0; i < img.pixels.length; i += 4 * 7) colours.add((img.pixels[i]! << 16) | (img.pixels[i + 1]! << 8) | img.pixels[i + 2]!);
    expect(colours.size).toBeGreaterThan(200);
  });

  it("draws the same bytes whether its texts were drawn before or not", async () => {
    const other = (await backend.fetch({ endpoint: "liquidation_levels/heatmap", asset: "eth", query: { timeframe: "1d" } }))
      .body as Heatmap;
    const otherView = heatmapView(other, digestHeatmap(other), { choices: { timeframes: [], lookbacks: {}, exchanges: [] } })!;
    forgetTexts();
    const cold = Buffer.from(await chartPng(otherView));
    expect(Buffer.from(await chartPng(otherView)).equals(cold)).toBe(true);
    // btc's texts (ticks, colour bar, title) drawn again after eth's, and from a cold start.
    expect(Buffer.from(await chartPng(view)).equals(Buffer.from(bytes))).toBe(true);
    forgetTexts();
    expect(Buffer.from(await chartPng(view)).equals(Buffer.from(bytes))).toBe(true);
    // Every text of the chart is on it: the title's ink sits in the band above the plot.
    let ink = 0;
    for (let x = 0; x < 400; x++) if (rgbAt(img, x, 16)[0] < 128) ink++;
    expect(ink).toBeGreaterThan(20);
  });

  it("paints each cell's colour where the layout puts its price row and time column", () => {
    const cells = decodeCells(view, (b) => Buffer.from(b, "base64"));
    const L = heatmapLayout(view, PNG_WIDTH, PNG_HEIGHT);
    let checked = 0;
    let matched = 0;
    // Deterministic sample over the grid; cells under candles or labels are off the ramp and skipped.
    for (let k = 0; k < 400; k++) {
      const row = (k * 37) % view.rows;
      const col = (k * 91) % view.cols;
      const x = L.x(view.times[col]! + view.columnMs / 2);
      const y = L.y(view.priceLow + row * view.priceStep);
      const seen = rampIndex(rgbAt(img, x, y));
      if (seen < 0) continue;
      checked++;
      const expected = Math.round(colorPosition(cells[row * view.cols + col]!, view.zMax) * 255);
      if (Math.abs(seen - expected) <= 3) matched++;
    }
    expect(checked).toBeGreaterThan(200);
    expect(matched / checked).toBeGreaterThan(0.95);
  });

  it("draws the hottest cell at the top of the ramp at its price row (not mirrored)", () => {
    const cells = decodeCells(view, (b) => Buffer.from(b, "base64"));
    let best = 0;
    for (let k = 1; k < cells.length; k++) if (cells[k]! > cells[best]!) best = k;
    const row = Math.floor(best / view.cols);
    const col = best % view.cols;
    const L = heatmapLayout(view, PNG_WIDTH, PNG_HEIGHT);
    const x = L.x(view.times[col]! + view.columnMs / 2);
    let top = -1;
    for (let dx = -1; dx <= 1; dx++) top = Math.max(top, rampIndex(rgbAt(img, x + dx, L.y(view.priceLow + row * view.priceStep))));
    expect(top).toBeGreaterThanOrEqual(250);
    const mirrored = view.rows - 1 - row;
    const expectedMirror = Math.round(colorPosition(cells[mirrored * view.cols + col]!, view.zMax) * 255);
    expect(expectedMirror).toBeLessThan(250);
  });
});

describe("series PNG", () => {
  it("draws the line through its last point", async () => {
    const r = await backend.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: { startDate: "2025-01-01" } });
    const { columns } = resultAs(r, "series", "lifespan/Lth_mvrv");
    const view = seriesView("BTC lth_mvrv", [seriesLine("lth_mvrv", "ratio", columns!.times, columns!.values)])!;
    const img = decodePng(await chartPng(view));
    expect([img.width, img.height]).toEqual([PNG_WIDTH, PNG_HEIGHT]);
    const L = seriesLayout(view, PNG_WIDTH, PNG_HEIGHT, LIGHT.palette);
    const line = L.lines[0]!;
    const n = line.times.length - 1;
    const [lr, lg, lb] = [0x2f, 0x6f, 0xed];
    let near = false;
    for (let dx = -2; dx <= 0; dx++) {
      for (let dy = -2; dy <= 2; dy++) {
        const [r2, g2, b2] = rgbAt(img, L.x(line.times[n]!) + dx, L.right(line.shown[n]!) + dy);
        if (Math.abs(r2 - lr) + Math.abs(g2 - lg) + Math.abs(b2 - lb) < 60) near = true;
      }
    }
    expect(near).toBe(true);
  });

  it("draws price candles in both colours and two series rebased", async () => {
    const start = Date.parse("2025-06-01T00:00:00Z");
    const btc = candleColumns("btc", 86_400_000, start, NOW, NOW);
    const eth = candleColumns("eth", 86_400_000, start, NOW, NOW);
    const count = (img: Decoded, hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
      let n = 0;
      for (let i = 0; i < img.pixels.length; i += 4) if (img.pixels[i] === r && img.pixels[i + 1] === g && img.pixels[i + 2] === b) n++;
      return n;
    };
    const candles = decodePng(await chartPng(seriesView("BTC price", [], viewCandles(btc))!));
    expect(count(candles, LIGHT.up)).toBeGreaterThan(500);
    expect(count(candles, LIGHT.down)).toBeGreaterThan(500);
    const two = seriesView("BTC vs ETH", [seriesLine("btc", "USD", btc.times, btc.close), seriesLine("eth", "USD", eth.times, eth.close)])!;
    expect(two.layout).toBe("rebased");
    const img = decodePng(await chartPng(two));
    expect(count(img, LIGHT.palette[0]!)).toBeGreaterThan(200);
    expect(count(img, LIGHT.palette[1]!)).toBeGreaterThan(200);
  });

  it("has no view for an empty range", () => {
    expect(seriesView("x", [seriesLine("a", "", [], [])])).toBeNull();
  });
});

describe("axis formatting", () => {
  it("formats compact USD and prices", () => {
    expect(usdCompact(200e9)).toBe("$200B");
    expect(usdCompact(1.25e9)).toBe("$1.25B");
    expect(usdCompact(750e6)).toBe("$750M");
    expect(usdCompact(91_200)).toBe("$91.2k");
    expect(numCompact(0.2473)).toBe("0.247");
    expect(priceLabel(87412.4, 100)).toBe("87,412");
    expect(priceLabel(0.24731, 0.001)).toBe("0.2473");
  });

  it("chooses round ticks", () => {
    expect(niceTicks(0, 10, 5)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(timeTicks(Date.UTC(2025, 0, 1), Date.UTC(2025, 11, 31), 5).map((t) => new Date(t).toISOString().slice(0, 10))).toEqual([
      "2025-01-01",
      "2025-04-01",
      "2025-07-01",
      "2025-10-01",
    ]);
    expect(timeLabel(Date.UTC(2025, 11, 28, 14), 86_400_000)).toBe("Dec 28 14:00");
  });
});
