// Every endpoint yields finite, sensibly signed values for every asset it covers.
import { describe, expect, it } from "vitest";

import {
  generateColumns,
  generateHeatmap,
  generateVariation,
  inceptionMs,
  seriesExtent,
} from "../../../../src/backend/inprocess/readings/index.js";
import { labelOf, metricFn } from "../../../../src/backend/inprocess/readings/metrics.js";
import { coverage, covers, ENDPOINTS, KNOWN_ASSETS, SET_A } from "../../../../src/catalog/index.js";

const NOW = Date.parse("2026-01-15T08:00:00Z");
const START = NOW - 20 * 86_400_000;
/** Series that may legitimately go below zero. */
const SIGNED = new Set(["exchange_flow/running_total_usd", "market/Realized_cap_impulse_long_term"]);

describe("coverage", () => {
  it("the registry answers a series id with its function and a records id with its label, and nothing else", () => {
    // Completeness is the compiler's (the tables are typed by the catalog's ids); these are the lookups by a plain string.
    for (const e of ENDPOINTS) {
      expect(typeof metricFn(e.id), e.id).toBe(e.kind === "series" ? "function" : "undefined");
      expect(typeof labelOf(e.id), e.id).toBe(e.kind === "series" || e.kind === "ohlcv" ? "string" : "undefined");
    }
    for (const id of ["constructor", "toString", "__proto__", "lifespan/lth_mvrv", "price"]) {
      expect(metricFn(id), id).toBeUndefined();
      expect(labelOf(id), id).toBeUndefined();
    }
  });

  it("every series/OHLCV endpoint × every covered asset: finite values, non-negative unless signed; empty only outside the asset's history", () => {
    const problems: string[] = [];
    for (const endpoint of ENDPOINTS.filter((e) => e.kind === "series" || e.kind === "ohlcv")) {
      const assets = coverage(endpoint) ?? KNOWN_ASSETS.slice(0, 40);
      for (const asset of assets) {
        const query = { endpoint, asset, timeframe: "1d" as const, startMs: START, endMs: NOW, nowMs: NOW };
        const { values } = generateColumns(query);
        // Empty is right only when the series' whole history misses the window (listed later,
        // ended earlier, or none at all: difficulty of a coin that is not mined).
        const extent = seriesExtent(query);
        const outside = extent === undefined || extent.lastMs < START || extent.firstMs > NOW;
        if ((values.length === 0) !== outside)
          problems.push(`${endpoint.id} ${asset}: ${values.length} values, extent ${JSON.stringify(extent)}`);
        for (const v of values) {
          if (!Number.isFinite(v) || (!SIGNED.has(endpoint.id) && v < 0)) problems.push(`${endpoint.id} ${asset}: ${v}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("metrics-variation and a short heatmap work for every asset of set A", () => {
    const problems: string[] = [];
    for (const asset of SET_A.filter((a) => inceptionMs(a) < NOW)) {
      for (const entry of generateVariation(asset, NOW)) {
        if (![entry.last_value, entry.variation_24h_percent, ...entry.sparkline_7d].every(Number.isFinite))
          problems.push(`variation ${asset} ${entry.field}`);
      }
      const h = generateHeatmap({ asset, timeframe: "1h", lookback: "24h", scope: "all", nowMs: NOW });
      if (h.z.length !== h.y.length || !h.y.every((y) => y > 0 && Number.isFinite(y))) problems.push(`heatmap ${asset}`);
      if (h.df.some((c) => !(c.low > 0 && c.low <= Math.min(c.open, c.close) && c.high >= Math.max(c.open, c.close))))
        problems.push(`candles ${asset}`);
    }
    expect(problems).toEqual([]);
    expect(SET_A.every((a) => covers(ENDPOINTS[0]!, a))).toBe(true);
  });
});
