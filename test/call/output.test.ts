// CSV of what a call read, in-process: one series as its resource writes it, candles, several
// series joined on time (as a comparison reads them), and no table for a heatmap matrix.
import { describe, expect, it } from "vitest";

import type { Heatmap, TypedHeatmap, VariationRecord } from "../../src/backend/types.js";
import { csvOfCall } from "../../src/call/output.js";
import type { Fetched } from "../../src/library/session.js";

const usage = { charged: 1 };
const series = (endpoint: string, asset: string, field: string, points: Array<[string, number]>): Fetched => ({
  request: { endpoint, asset, query: {} },
  result: { kind: "series", body: points.map(([time, v]) => ({ time, [field]: v })), usage },
});
const T = (d: number) => `2025-01-0${d}T00:00:00.000Z`;

describe("csvOfCall", () => {
  it("writes one series as time,<field> rows, and an empty one as its header", () => {
    expect(
      csvOfCall([
        series("lifespan/Lth_mvrv", "btc", "lth_mvrv", [
          [T(1), 1.5],
          [T(2), 1.25],
        ]),
      ]),
    ).toBe(`time,lth_mvrv\n${T(1)},1.5\n${T(2)},1.25\n`);
    expect(csvOfCall([series("lifespan/Lth_mvrv", "btc", "lth_mvrv", [])])).toBe("time,lth_mvrv\n");
  });

  it("joins several series on time, columns named by what tells them apart, blanks where one has no value", () => {
    const byAsset = csvOfCall([
      series("derivatives/Volume_usd", "btc", "volume_usd", [
        [T(1), 10],
        [T(2), 11],
      ]),
      series("derivatives/Volume_usd", "eth", "volume_usd", [
        [T(2), 5],
        [T(3), 6],
      ]),
    ]);
    expect(byAsset).toBe(`time,btc,eth\n${T(1)},10,\n${T(2)},11,5\n${T(3)},,6\n`);
    const byMetric = csvOfCall([
      series("lifespan/Lth_mvrv", "btc", "lth_mvrv", [[T(1), 2]]),
      series("mining/DiffLast", "btc", "diffLast", [[T(1), 1.4e14]]),
    ]);
    expect(byMetric).toBe(`time,lth_mvrv,diffLast\n${T(1)},2,140000000000000\n`);
  });

  it("writes candles as time,open,high,low,close and has no table for a matrix", () => {
    const day = Date.UTC(2025, 0, 1);
    const candles: Fetched = {
      request: { endpoint: "price", asset: "btc", query: {} },
      result: {
        kind: "candles",
        body: [],
        usage,
        candles: {
          times: Float64Array.of(day),
          open: Float64Array.of(1),
          high: Float64Array.of(2),
          low: Float64Array.of(0.5),
          close: Float64Array.of(1.5),
        },
      },
    };
    expect(csvOfCall([candles])).toBe(`time,open,high,low,close\n${T(1)},1,2,0.5,1.5\n`);
    const heatmap: Fetched = {
      request: { endpoint: "liquidation_levels/heatmap", asset: "btc", query: {} },
      result: { kind: "heatmap", body: { x: [], y: [], z: [] } as unknown as Heatmap, heatmap: {} as TypedHeatmap, usage },
    };
    expect(csvOfCall([heatmap])).toBeUndefined();
    expect(csvOfCall([])).toBeUndefined();
  });

  it("quotes a cell holding a comma or a quote", () => {
    const f: Fetched = {
      request: { endpoint: "derivatives/metrics-variation", asset: "btc", query: {} },
      result: { kind: "variation", body: [{ name: 'Volume, "USD"', sparkline_7d: [1, 2] }] as unknown as VariationRecord[], usage },
    };
    expect(csvOfCall([f])).toBe(`name,sparkline_7d\n"Volume, ""USD""",1 2\n`);
  });
});
