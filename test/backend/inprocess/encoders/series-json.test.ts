// Series bodies written from columns must be byte for byte what JSON.stringify makes of the records.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { seriesJson } from "../../../../src/backend/inprocess/encoders/series-json.js";
import { generateColumns, recordsFromColumns } from "../../../../src/backend/inprocess/readings/index.js";
import { endpointById } from "../../../../src/catalog/index.js";

const viaRecords = (times: Float64Array, values: Float64Array, field: string) =>
  Buffer.from(JSON.stringify(recordsFromColumns({ times, values }, field)));

describe("seriesJson", () => {
  it("equals JSON.stringify of the records for any times and values", () => {
    const time = fc.oneof(
      fc.integer({ min: 0, max: 4_000_000 }).map((m) => m * 60_000), // minute buckets
      fc.integer({ min: 0, max: 4_102_444_800_000 }), // any millisecond up to 2100
    );
    const value = fc.oneof(fc.double(), fc.constantFrom(0, -0, 1e21, 1.5e-7, -123456.789, Number.MAX_VALUE, Number.MIN_VALUE));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(time, value), { maxLength: 60 }),
        fc.constantFrom("volume_usd", "lth_mvrv", "splyAdrBalNtv100K"),
        (pairs, field) => {
          const times = Float64Array.from(pairs.map((p) => p[0]));
          const values = Float64Array.from(pairs.map((p) => p[1]));
          expect(seriesJson({ times, values }, field).equals(viaRecords(times, values, field))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("equals it on generated series, daily and 1m", () => {
    for (const [id, timeframe, days] of [
      ["lifespan/Lth_mvrv", "1d", 1_000],
      ["derivatives/Volume_usd", "1m", 3],
    ] as const) {
      const endpoint = endpointById(id)!;
      const endMs = Date.parse("2025-12-30T23:59:00Z");
      const cols = generateColumns({ endpoint, asset: "btc", timeframe, startMs: endMs - days * 86_400_000, endMs });
      expect(cols.times.length).toBeGreaterThanOrEqual(1_000);
      expect(seriesJson(cols, endpoint.field).equals(viaRecords(cols.times, cols.values, endpoint.field))).toBe(true);
    }
  });
});
