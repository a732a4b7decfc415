// metrics-variation agrees with the series generators for the same days.
import { describe, expect, it } from "vitest";

import { generateRecords, generateVariation } from "../../../../src/backend/inprocess/readings/index.js";
import { DAY_MS, endpointsForAsset } from "../../../../src/catalog/index.js";
import { variationRecordSchema, variationSchema as schema } from "../../../../src/catalog/response-schemas.js";
import { VARIATION_FIELDS } from "../../../../src/catalog/responses.js";

const NOW = Date.parse("2025-12-31T15:20:00Z");

describe("generateVariation", () => {
  it("names its records' members (CSV columns) as the HTTP backend's schema checks them, in order", () => {
    expect([...VARIATION_FIELDS]).toEqual(Object.keys(variationRecordSchema.shape));
  });

  it("has one entry per series/OHLCV endpoint covering the asset, numbered 1..n, schema-valid", () => {
    for (const asset of ["btc", "eth", "sol", "doge", "pepe"]) {
      const entries = generateVariation(asset, NOW);
      schema.parse(entries);
      const expected = endpointsForAsset(asset).filter((e) => e.kind === "series" || e.kind === "ohlcv");
      expect(entries.map((e) => e.field)).toEqual(expected.map((e) => e.field));
      expect(entries.map((e) => e.collection)).toEqual(expected.map((e) => e.group));
      expect(entries.map((e) => e.position)).toEqual(expected.map((_, i) => i + 1));
      for (const e of entries) {
        expect(e.name.length).toBeGreaterThan(2);
        expect(e.sparkline_7d.length).toBe(7);
        expect(Number.isFinite(e.variation_24h_percent)).toBe(true);
      }
    }
    expect(generateVariation("btc", NOW).length).toBe(27);
  });

  it("last_value and sparkline_7d equal generateRecords for the last 7 complete days; 24h change from the last two", () => {
    for (const asset of ["btc", "eth", "sol"]) {
      const entries = generateVariation(asset, NOW);
      for (const endpoint of endpointsForAsset(asset).filter((e) => e.kind === "series" || e.kind === "ohlcv")) {
        const entry = entries.find((e) => e.field === endpoint.field)!;
        const today = Math.floor(NOW / DAY_MS) * DAY_MS;
        const records = generateRecords({ endpoint, asset, timeframe: "1d", startMs: today - 7 * DAY_MS, endMs: today - 1 });
        if (records.length < 7) continue; // a series that ended (checked below)
        const values = records.map((r) => r[endpoint.field] as number);
        expect(entry.sparkline_7d, `${asset} ${endpoint.id}`).toEqual(values);
        expect(entry.last_value).toBe(values[6]);
        const expected = values[5] === 0 ? 0 : (values[6]! / values[5]! - 1) * 100;
        expect(entry.variation_24h_percent).toBe(expected);
      }
    }
  });

  it("a series that ended (ETH hashprice at the Merge) reports its last week of history", () => {
    const entry = generateVariation("eth", NOW).find((e) => e.field === "revHashRateUSD")!;
    const endpoint = endpointsForAsset("eth").find((e) => e.field === "revHashRateUSD")!;
    const records = generateRecords({
      endpoint,
      asset: "eth",
      timeframe: "1d",
      startMs: Date.parse("2022-09-09"),
      endMs: Date.parse("2022-09-15"),
    });
    expect(entry.sparkline_7d).toEqual(records.map((r) => r.revHashRateUSD));
  });

  it("depends on now only through its day (the REST body cache keys on that)", () => {
    const day = Math.floor(NOW / DAY_MS) * DAY_MS;
    const at = (nowMs: number) => JSON.stringify(generateVariation("eth", nowMs));
    expect(at(day)).toBe(at(NOW));
    expect(at(day + DAY_MS - 1)).toBe(at(NOW));
  });

  it("depends on now: a day later, the sparkline shifts by one", () => {
    const a = generateVariation("btc", NOW)[0]!;
    const b = generateVariation("btc", NOW + DAY_MS)[0]!;
    expect(b.sparkline_7d.slice(0, 6)).toEqual(a.sparkline_7d.slice(1));
  });
});
