// The heatmap as typed arrays: its JSON body written from them byte for byte as JSON.stringify
// writes the objects, the conversion of a JSON body back into them, and digests and views that
// are the same whichever form they read.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { round } from "../../src/backend/inprocess/readings/heatmap.js";
import { buildHeatmap, generateHeatmap, heatmapBody, heatmapJson, type HeatmapQuery } from "../../src/backend/inprocess/readings/index.js";
import type { TypedHeatmap } from "../../src/backend/types.js";
import { cellMatrix, releaseCells, typedHeatmap } from "../../src/catalog/heatmap-typed.js";
import { heatmapView } from "../../src/charts/model/view-data.js";
import { digestHeatmap } from "../../src/summary/index.js";

const NOW = Date.parse("2025-12-31T15:47:12Z");
const QUERIES: HeatmapQuery[] = [
  { asset: "btc", timeframe: "6h", lookback: "2y", scope: "all", nowMs: NOW },
  { asset: "btc", timeframe: "1m", lookback: "12h", scope: "all", nowMs: Date.parse("2025-12-28T12:30:40Z") },
  { asset: "eth", timeframe: "1h", lookback: "30d", scope: "exchange", exchange: "okx", nowMs: NOW },
  { asset: "btc", timeframe: "1h", lookback: "7d", scope: "exchange", exchange: "cme", nowMs: NOW },
  { asset: "pepe", timeframe: "1d", lookback: "6y", scope: "all", nowMs: NOW },
];
const CHOICES = { timeframes: [], lookbacks: {}, exchanges: [] };

/** The typed form with its arrays as bytes: a 460,000-cell matrix compared in one step. */
function bytesOf(h: TypedHeatmap): Record<string, unknown> {
  const b = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("base64");
  const { times, levels, cells, candles, lsr, ...rest } = h;
  return {
    ...rest,
    times: b(times),
    levels: b(levels),
    cells: b(cells),
    candles: Object.fromEntries(Object.entries(candles).map(([k, v]) => [k, b(v)])),
    lsr: { times: b(lsr.times), values: b(lsr.values) },
  };
}

describe("the typed heatmap", () => {
  it.each(QUERIES.map((q) => [`${q.asset} ${q.timeframe}/${q.lookback} ${q.exchange ?? q.scope}`, q] as const))(
    "%s: body bytes, objects and the JSON round trip agree",
    (_name, q) => {
      const typed = buildHeatmap(q);
      const json = JSON.stringify(generateHeatmap(q));
      expect(heatmapJson(typed).toString("utf8")).toBe(json);
      expect(JSON.stringify(heatmapBody(typed))).toBe(json);
      // What the HTTP backend does with the body it receives gives back the service's arrays.
      expect(bytesOf(typedHeatmap(JSON.parse(json)))).toEqual(bytesOf(typed));
    },
  );

  it("gives the same digest and view as the JSON body it is written to", () => {
    for (const q of QUERIES.slice(0, 3)) {
      const typed = buildHeatmap(q);
      const body = generateHeatmap(q);
      for (const opts of [{}, { includeMatrix: true, topK: 10 }, { clusterFraction: 0.4, topK: 1 }]) {
        const digest = digestHeatmap(typed, opts);
        expect(digest).toEqual(digestHeatmap(body, opts));
        expect(heatmapView(typed, digest, { choices: CHOICES })).toEqual(heatmapView(body, digest, { choices: CHOICES }));
      }
    }
  });

  it("keeps an upstream's undated columns as text and counts null, negative and missing cells as nothing", () => {
    const body = generateHeatmap(QUERIES[2]!);
    body.x[3] = "not a date";
    body.z[0]![1] = null;
    body.z[1]![2] = -5;
    body.z[2] = body.z[2]!.slice(0, 4);
    body.df = [...body.df].reverse();
    const typed = typedHeatmap(body);
    expect(typed.labels?.[3]).toBe("not a date");
    expect(Number.isNaN(typed.times[3]!)).toBe(true);
    const cols = body.x.length;
    expect([typed.cells[1], typed.cells[cols + 2], typed.cells[2 * cols + 4]]).toEqual([0, 0, 0]);
    expect(typedHeatmap(typed)).toBe(typed);
    const digest = digestHeatmap(typed, { includeMatrix: true });
    expect(digest.matrix!.cols[0]!.start).toBe(body.x[0]);
    // Reversed candles are read by their dates: the anchor is still the latest close.
    expect(digest.anchor.time).toBe(body.x.at(-1));
  });
});

describe("round (significant digits without a string)", () => {
  const same = (v: number, digits: number) => Object.is(round(v, digits), Number(v.toPrecision(digits)));

  it("equals Number(v.toPrecision(digits)) for prices and ratios of every magnitude", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-12, max: 1e12, noNaN: true }), fc.constantFrom(4, 6), (v, d) => same(v, d)),
      { numRuns: 20_000 },
    );
  });

  it("equals it on exact halves, their neighbours, powers of ten and values that are not prices", () => {
    const values: number[] = [0, -0, -1.5, NaN, Infinity, -Infinity, 5e-324, 1e300, 0.5, 2.5, 87_747.65];
    for (let e = -12; e <= 12; e++) {
      for (const m of [1, 1.000005, 1.0000049999, 9.999995, 9.99999, 1.00005, 123_456.5 / 1e5]) {
        const v = m * 10 ** e;
        values.push(v, v * (1 + 2 ** -52), v * (1 - 2 ** -52));
      }
    }
    for (const v of values) for (const d of [4, 6]) expect(same(v, d), `${v} to ${d} digits`).toBe(true);
  });
});

describe("releaseCells", () => {
  it("empties a matrix that owns its buffer and leaves the rest of the heatmap as it was", () => {
    const h = buildHeatmap(QUERIES[1]!);
    const times = h.times.slice();
    releaseCells(h);
    expect(h.cells.length).toBe(0);
    expect(h.times).toEqual(times);
    releaseCells(h); // a second release is harmless
  });

  it("leaves a matrix that is a view of a larger buffer alone", () => {
    const h = buildHeatmap(QUERIES[1]!);
    const shared = new Float64Array(h.cells.length + 1);
    shared.set(h.cells, 1);
    const view = { ...h, cells: shared.subarray(1) };
    releaseCells(view);
    expect(view.cells).toEqual(h.cells);
  });

  it("lends a released matrix's memory to the next one, zeroed, so that a heatmap never reads another's cells", () => {
    const expected = buildHeatmap(QUERIES[1]!).cells.slice();
    const large = buildHeatmap(QUERIES[0]!);
    const bytes = large.cells.buffer.byteLength;
    releaseCells(large);
    expect(large.cells.length).toBe(0); // moved, not copied: no view of it reads what comes next
    const next = buildHeatmap(QUERIES[1]!);
    expect(next.cells.buffer.byteLength).toBeGreaterThanOrEqual(bytes); // the large map's memory, a prefix of it
    expect(next.cells).toEqual(expected);
    expect(cellMatrix(1).buffer.byteLength).toBe(8); // the spare is lent out: a new buffer
    releaseCells(next); // a prefix of a lent buffer owns all of it
    expect(next.cells.length).toBe(0);
    const lent = cellMatrix(4);
    expect(lent.buffer.byteLength).toBeGreaterThanOrEqual(bytes);
    expect([...lent]).toEqual([0, 0, 0, 0]);
  });
});
