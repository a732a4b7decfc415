// In-process series travel as columns: the records built from them on demand, and the digests
// made from them, equal what the records path gives.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { InProcessBackend } from "../../../src/backend/inprocess/backend.js";
import { generateRecords } from "../../../src/backend/inprocess/readings/index.js";
import { resultAs, type TimeRecord } from "../../../src/backend/types.js";
import { endpointById, type Timeframe, TIMEFRAME_MS, type Venue } from "../../../src/catalog/index.js";
import { digestSeries } from "../../../src/summary/index.js";
import { digestRecords } from "../../../src/tools/series-common.js";

const NOW = Date.parse("2025-12-31T12:00:00Z");
const dir = mkdtempSync(join(tmpdir(), "cm-columns-"));
const keysFile = join(dir, "keys.json");
writeFileSync(keysFile, JSON.stringify({ keys: [{ key: "k", credits: 1_000_000, rateLimit: { requests: 10_000, windowSeconds: 60 } }] }));
const backend = await InProcessBackend.create({ apiKey: "k", keysFile, stateDir: join(dir, "state"), now: () => NOW });

afterAll(async () => backend.close());

const CASES: Array<{ endpoint: string; asset: string; query: Record<string, string>; timeframe: Timeframe }> = [
  { endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {}, timeframe: "1d" },
  {
    endpoint: "derivatives/Volume_usd",
    asset: "eth",
    query: { timeframe: "1m", startDate: "2025-12-30", endDate: "2025-12-30", exchange: "binance" },
    timeframe: "1m",
  },
  { endpoint: "spot/Trades", asset: "sol", query: { timeframe: "4h", startDate: "2025-06-01" }, timeframe: "4h" },
  { endpoint: "mining/RevHashRateUSD", asset: "eth", query: { startDate: "2022-09-01", endDate: "2022-10-01" }, timeframe: "1d" },
];

describe("in-process series as columns", () => {
  for (const c of CASES) {
    it(`${c.endpoint} ${c.asset}: columns, lazy records and digests agree`, async () => {
      const result = resultAs(await backend.fetch({ endpoint: c.endpoint, asset: c.asset, query: c.query }), "series", c.endpoint);
      const columns = result.columns!;
      expect(columns.times.length).toBeGreaterThan(0);
      const records = result.body as TimeRecord[];
      const field = endpointById(c.endpoint)!.field;
      expect(records.length).toBe(columns.times.length);
      expect(records[0]).toEqual({ time: new Date(columns.times[0]!).toISOString(), [field]: columns.values[0] });
      expect(records.at(-1)).toEqual({ time: new Date(columns.times.at(-1)!).toISOString(), [field]: columns.values.at(-1) });
      // The same records the generator makes for the same grid.
      const again = generateRecords({
        endpoint: endpointById(c.endpoint)!,
        asset: c.asset,
        timeframe: c.timeframe,
        startMs: columns.times[0]!,
        endMs: columns.times.at(-1)!,
        ...(c.query.exchange && { exchange: c.query.exchange as Venue }),
      });
      expect(records).toEqual(again);
      expect(result.body).toBe(records); // built once
      const opts = { timeframeMs: TIMEFRAME_MS[c.timeframe], maxPoints: 60 };
      expect(digestSeries(columns.times, columns.values, opts)).toEqual(digestRecords(records, field, opts.timeframeMs, opts.maxPoints));
    });
  }

  it("leaves heatmap and variation bodies as objects, without columns", async () => {
    const heatmap = await backend.fetch({
      endpoint: "liquidation_levels/heatmap",
      asset: "btc",
      query: { timeframe: "1h", lookback: "7d" },
    });
    const variation = await backend.fetch({ endpoint: "derivatives/metrics-variation", asset: "btc", query: {} });
    expect(heatmap.kind).toBe("heatmap");
    expect(variation.kind).toBe("variation");
    expect("columns" in heatmap || "columns" in variation).toBe(false);
    expect(Array.isArray(variation.body)).toBe(true);
  });
});
