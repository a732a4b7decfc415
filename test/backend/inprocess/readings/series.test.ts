// Series generators: determinism, range independence, history bounds, bucket counts, shapes.
import { describe, expect, it, vi } from "vitest";

import {
  countBuckets,
  generateColumns,
  generateRecords,
  inceptionMs,
  seriesEndMs,
  type SeriesQuery,
} from "../../../../src/backend/inprocess/readings/index.js";
import { DAY_MS, type Endpoint, endpointById, ENDPOINTS, type Timeframe, TIMEFRAMES } from "../../../../src/catalog/index.js";

const at = (iso: string) => Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
const ep = (id: string): Endpoint => endpointById(id)!;
const SERIES = ENDPOINTS.filter((e) => e.kind === "series" || e.kind === "ohlcv");

/** A covered asset for each endpoint (btc is in every set). */
function q(endpoint: Endpoint, startMs: number, endMs: number, extra: Partial<SeriesQuery> = {}): SeriesQuery {
  return { endpoint, asset: "btc", timeframe: "1d", startMs, endMs, ...extra };
}

describe("determinism and range independence", () => {
  it("the same request gives the same bytes, for every endpoint", () => {
    for (const endpoint of SERIES) {
      const query = q(endpoint, at("2024-11-01"), at("2025-01-31"), { entityName: "all" });
      expect(JSON.stringify(generateRecords(query))).toBe(JSON.stringify(generateRecords({ ...query })));
    }
  });

  it("a sub-range of a larger request has identical values (every endpoint, daily)", () => {
    for (const endpoint of SERIES) {
      const big = generateColumns(q(endpoint, at("2023-01-01"), at("2025-12-31")));
      const small = generateColumns(q(endpoint, at("2024-02-29"), at("2024-03-10")));
      const offset = big.times.indexOf(small.times[0]!);
      expect(offset, endpoint.id).toBeGreaterThan(0);
      expect(Array.from(big.values.subarray(offset, offset + small.values.length)), endpoint.id).toEqual(Array.from(small.values));
    }
  });

  it("intraday sub-ranges that cut days in the middle match the larger request", () => {
    const endpoint = ep("derivatives/Volume_usd");
    for (const timeframe of ["1m", "15m", "1h", "6h"] as const) {
      const big = generateColumns(q(endpoint, at("2025-06-01"), at("2025-06-04"), { timeframe, exchange: "okx" }));
      const small = generateColumns(q(endpoint, at("2025-06-02T07:13:00Z"), at("2025-06-03T19:02:00Z"), { timeframe, exchange: "okx" }));
      const offset = big.times.indexOf(small.times[0]!);
      expect(offset).toBeGreaterThan(0);
      expect(Array.from(big.values.subarray(offset, offset + small.values.length))).toEqual(Array.from(small.values));
    }
  });

  it("cumulative series do not depend on which range was asked first (fresh module state)", async () => {
    const ids = ["exchange_flow/running_total_usd", "lifespan/Cvdd", "lifespan/Lth_mvrv", "market/Realized_cap_impulse_long_term"];
    const valuesFor = async (warmFirst: boolean) => {
      vi.resetModules();
      const data = await import("../../../../src/backend/inprocess/readings/index.js");
      const catalog = await import("../../../../src/catalog/index.js");
      if (warmFirst) data.generateColumns(q(catalog.endpointById("lifespan/Cvdd")!, at("2011-01-01"), at("2026-06-30")));
      return ids.map((id) =>
        Array.from(
          data.generateColumns(q(catalog.endpointById(id)!, at("2025-12-01"), at("2025-12-10"), { entityName: "binance" })).values,
        ),
      );
    };
    const cold = await valuesFor(false);
    const warm = await valuesFor(true);
    expect(cold).toEqual(warm);
  });
});

describe("bounded memo tables", () => {
  it("evict the oldest entries and recompute identical values after eviction", async () => {
    const { Memo } = await import("../../../../src/backend/inprocess/util/memo.js");
    const memo = new Memo<string, number>(2);
    let made = 0;
    const make = (v: number) => () => (made++, v);
    expect(memo.getOr("a", make(1))).toBe(1);
    expect(memo.getOr("b", make(2))).toBe(2);
    expect(memo.getOr("a", make(9))).toBe(1);
    expect(memo.getOr("c", make(3))).toBe(3);
    expect(memo.get("a")).toBeUndefined();
    expect(made).toBe(3);

    // More assets than the on-chain state table holds: btc's state is evicted and rebuilt.
    const runningTotal = ep("exchange_flow/running_total_usd");
    const before = Array.from(generateColumns(q(runningTotal, at("2025-11-01"), at("2025-11-05"))).values);
    const { chainState } = await import("../../../../src/backend/inprocess/world/chain.js");
    for (let i = 0; i < 140; i++) chainState(`memo_probe_${i}`, at("2025-01-01") / DAY_MS);
    expect(Array.from(generateColumns(q(runningTotal, at("2025-11-01"), at("2025-11-05"))).values)).toEqual(before);
  });
});

describe("history bounds and bucket counts", () => {
  it("inception dates are the listing days of the anchors (btc 2010-07-18, eth 2015-08-07, sol 2020-04-10, 2z 2025-10-02)", () => {
    expect(inceptionMs("btc")).toBe(at("2010-07-18"));
    expect(inceptionMs("eth")).toBe(at("2015-08-07"));
    expect(inceptionMs("sol")).toBe(at("2020-04-10"));
    expect(inceptionMs("pepe")).toBe(at("2023-04-17"));
    expect(inceptionMs("2z")).toBe(at("2025-10-02"));
    for (const asset of ["sol", "pepe", "zk", "2z", "usdt_trx", "wbtc"]) expect(inceptionMs(asset) % DAY_MS).toBe(0);
    // A chain variant starts with its own chain's token, not with its base.
    expect(inceptionMs("usdt_trx")).toBe(at("2019-04-16"));
  });

  it("no data outside the asset's history: empty before inception, clipped at it", () => {
    const endpoint = ep("derivatives/Volume_usd");
    expect(generateRecords(q(endpoint, at("2009-01-01"), at("2010-07-17T23:59:59Z")))).toEqual([]);
    const eth = generateColumns({ ...q(endpoint, at("2015-08-01"), at("2015-08-10")), asset: "eth", timeframe: "6h" });
    expect(eth.times[0]).toBe(at("2015-08-07"));
    expect(eth.times.length).toBe(3 * 4 + 1); // 7th–9th whole, the 10th at 00:00 (inclusive end)
  });

  it("ETH mining metrics end at the Merge (2022-09-15); BTC's do not", () => {
    const rev = ep("mining/RevHashRateUSD");
    expect(seriesEndMs(rev, "eth")).toBe(at("2022-09-15"));
    expect(seriesEndMs(rev, "btc")).toBeUndefined();
    expect(seriesEndMs(ep("derivatives/Volume_usd"), "eth")).toBeUndefined();
    const { times, values } = generateColumns({ ...q(rev, at("2022-09-01"), at("2025-12-31")), asset: "eth" });
    expect(times[times.length - 1]).toBe(at("2022-09-15"));
    expect(times.length).toBe(15);
    values.forEach((v) => expect(v).toBeGreaterThan(0));
    expect(generateRecords({ ...q(rev, at("2023-01-01"), at("2025-12-31")), asset: "eth" })).toEqual([]);
  });

  it("countBuckets equals the generated length for aligned, unaligned, clipped and empty ranges", () => {
    const ranges: Array<[number, number]> = [
      [at("2025-01-01"), at("2025-01-02")],
      [at("2025-01-01T00:00:30Z"), at("2025-01-01T05:59:59Z")],
      [at("2025-03-08T13:07:00Z"), at("2025-03-09T13:07:00Z")],
      [at("2009-01-01"), at("2010-08-01")],
      [at("2022-09-10"), at("2023-01-01")],
      [at("2025-01-02"), at("2025-01-01")],
    ];
    for (const endpoint of [ep("derivatives/Volume_usd"), ep("spot/Trades"), ep("mining/RevHashRateUSD"), ep("lifespan/Cvdd")]) {
      for (const timeframe of TIMEFRAMES) {
        for (const asset of ["btc", "eth"]) {
          for (const [startMs, endMs] of ranges) {
            const query: SeriesQuery = { endpoint, asset, timeframe: timeframe as Timeframe, startMs, endMs };
            expect(countBuckets(query)).toBe(generateColumns(query).times.length);
          }
        }
      }
    }
  });

  it("buckets start on the timeframe grid and both bounds are inclusive", () => {
    const { times } = generateColumns(
      q(ep("derivatives/Buy_trades"), at("2025-05-05T04:00:00Z"), at("2025-05-05T16:00:00Z"), { timeframe: "4h" }),
    );
    expect(Array.from(times)).toEqual([4, 8, 12, 16].map((h) => at(`2025-05-05T${String(h).padStart(2, "0")}:00:00Z`)));
  });

  it("metric series are daily whatever timeframe is passed", () => {
    const query = q(ep("lifespan/Lth_mvrv"), at("2025-05-01"), at("2025-05-03T12:00:00Z"), { timeframe: "1h" });
    expect(countBuckets(query)).toBe(3);
  });
});

describe("record shape", () => {
  it("records are exactly {time, <field>} with ISO times ascending and finite numbers", () => {
    for (const endpoint of SERIES) {
      const records = generateRecords(q(endpoint, at("2025-12-20"), at("2025-12-31")));
      expect(records.length, endpoint.id).toBe(12);
      records.forEach((r, i) => {
        expect(Object.keys(r)).toEqual(["time", endpoint.field]);
        expect(r.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
        expect(Number.isFinite(r[endpoint.field] as number)).toBe(true);
        if (i > 0) expect(r.time > records[i - 1]!.time).toBe(true);
      });
    }
  });

  it("times of minute buckets format like Date#toISOString", () => {
    const records = generateRecords(q(ep("spot/Trades"), at("2024-02-29T23:55:00Z"), at("2024-03-01T00:03:00Z"), { timeframe: "1m" }));
    expect(records.map((r) => r.time)).toEqual(records.map((r) => new Date(Date.parse(r.time)).toISOString()));
    expect(records[5]!.time).toBe("2024-03-01T00:00:00.000Z");
  });

  it("the open set (TxTfrValMedNtv) serves every known ticker, within its history", () => {
    const values = generateColumns({
      ...q(ep("transactions/TxTfrValMedNtv"), at("2025-01-01"), at("2025-01-31")),
      asset: "usdt_omni",
    }).values;
    expect(values.length).toBe(31);
    values.forEach((v) => expect(v).toBeGreaterThan(0));
  });
});
