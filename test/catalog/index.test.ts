// Catalog helpers: coverage, costs, heatmap pairings and suggestions.
import { describe, expect, it } from "vitest";

import {
  allowedLookbacks,
  ASSET_SETS,
  CANONICAL_LOOKBACK,
  covers,
  creditCost,
  endpointById,
  ENDPOINTS,
  endpointsForAsset,
  heatmapColumns,
  KNOWN_ASSETS,
  LOOKBACKS,
  MAX_HEATMAP_COLUMNS,
  nearestAssets,
  nearestEndpoints,
  pathOf,
  TIMEFRAMES,
} from "../../src/catalog/index.js";

describe("catalog", () => {
  it("sets have the sizes the spec gives", () => {
    expect(ASSET_SETS.A.members).toHaveLength(210);
    expect(ASSET_SETS.B.members).toHaveLength(204);
    expect(ASSET_SETS.M2_LEO.members).toContain("leo_eos");
    expect(new Set(KNOWN_ASSETS).size).toBe(KNOWN_ASSETS.length);
  });

  it("coverage: the open set is every ticker the catalog knows, closed sets only members", () => {
    const tx = endpointById("transactions/TxTfrValMedNtv")!;
    expect(covers(tx, "anything_123")).toBe(false);
    expect(covers(tx, "usdt_omni")).toBe(true);
    expect(KNOWN_ASSETS.every((a) => covers(tx, a))).toBe(true);
    expect(covers(tx, "BTC")).toBe(false);
    expect(covers(endpointById("lifespan/Lth_mvrv")!, "eth")).toBe(false);
    expect(endpointsForAsset("btc").length).toBeGreaterThan(25);
  });

  it("canonical lookbacks fit under the column cap and 30m maps to 30d", () => {
    expect(CANONICAL_LOOKBACK["30m"]).toBe("30d");
    expect(heatmapColumns("30m", "30d")).toBe(1441);
    for (const tf of TIMEFRAMES) {
      expect(heatmapColumns(tf, CANONICAL_LOOKBACK[tf])).toBeLessThanOrEqual(MAX_HEATMAP_COLUMNS);
      expect(allowedLookbacks(tf)).toContain(CANONICAL_LOOKBACK[tf]);
    }
    expect(allowedLookbacks("1m")).toEqual(LOOKBACKS.slice(0, 3));
  });

  it("costs: records add a credit per 10,000", () => {
    const volume = endpointById("derivatives/Volume_usd")!;
    expect(creditCost(volume, 365)).toBe(1);
    expect(creditCost(volume, 10_000)).toBe(2);
    expect(creditCost(endpointById("liquidation_levels/heatmap")!)).toBe(5);
    expect(creditCost(endpointById("derivatives/metrics-variation")!)).toBe(2);
  });

  it("paths follow the spec", () => {
    expect(pathOf(endpointById("lifespan/Cvdd")!, "btc")).toBe("/btc/lifespan/Cvdd");
    expect(pathOf(endpointById("liquidation_levels/heatmap")!, "btc")).toBe("/liquidation_levels/heatmap");
    expect(ENDPOINTS.every((e) => e.id === `${e.group}/${e.segment}`)).toBe(true);
  });

  it("suggestions find near misses", () => {
    expect(nearestAssets("ethh")[0]).toBe("eth");
    expect(nearestAssets("btcc")).toContain("btc");
    expect(nearestEndpoints("lifespan/lth_mvrv")[0]).toBe("lifespan/Lth_mvrv");
  });
});
