// The service's data-side answers through the real in-process backend: a known-ticker open set
// with suggestions from the endpoint's own coverage, symbols that belong to the asset, the
// whole-history extent and the data clock on every result, a partial bucket at now.
import { afterAll, describe, expect, it } from "vitest";

import { tempDir } from "../../../harness/service.js";
import { InProcessBackend } from "../../../src/backend/inprocess/backend.js";
import { type BackendResult, ServiceError } from "../../../src/backend/types.js";
import type { TimeRecord } from "../../../src/catalog/responses.js";

const NOW = Date.parse("2025-12-28T12:30:40Z");
const backend = await InProcessBackend.create({ apiKey: undefined, keysFile: undefined, stateDir: tempDir(), now: () => NOW });
afterAll(() => backend.close());

async function refusal(p: Promise<BackendResult>): Promise<ServiceError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

describe("service data truth", () => {
  it("the open set of TxTfrValMedNtv is the known tickers: an unknown string is refused, suggestions are covered tickers", async () => {
    const err = await refusal(backend.fetch({ endpoint: "transactions/TxTfrValMedNtv", asset: "asdfqwer", query: {} }));
    expect(err).toMatchObject({ status: 404, code: "asset_not_supported" });
    const typo = await refusal(backend.fetch({ endpoint: "transactions/TxTfrValMedNtv", asset: "usdt_ethh", query: {} }));
    expect(typo.details.allowed).toContain("usdt_eth");
    const ok = await backend.fetch({ endpoint: "transactions/TxTfrValMedNtv", asset: "usdt_omni", query: { startDate: "2025-12-01" } });
    expect((ok.body as TimeRecord[]).length).toBeGreaterThan(20);
  });

  it("a symbol of another asset is a 400 naming symbol and the asset's own symbols, not zeros", async () => {
    const err = await refusal(backend.fetch({ endpoint: "derivatives/Volume_usd", asset: "btc", query: { symbol: "ETHUSDT" } }));
    expect(err).toMatchObject({ status: 400, code: "invalid_parameter", details: { parameter: "symbol" } });
    expect(err.message).toContain("BTCUSDT");
    expect(err.details.allowed).toContain("BTCUSDT");
    const onVenue = await refusal(
      backend.fetch({ endpoint: "derivatives/Volume_usd", asset: "btc", query: { symbol: "BTCKRW", exchange: "binance" } }),
    );
    expect(onVenue.message).toContain("on binance");
    const fine = await backend.fetch({
      endpoint: "derivatives/Volume_usd",
      asset: "btc",
      query: { symbol: "BTCUSDT", exchange: "binance", startDate: "2025-12-27" },
    });
    expect((fine.body as TimeRecord[]).every((r) => (r.volume_usd as number) > 0)).toBe(true);
  });

  it("results carry the whole-history extent and the data clock; the last bucket is partial up to it", async () => {
    const r = await backend.fetch({
      endpoint: "derivatives/Volume_usd",
      asset: "sol",
      query: { timeframe: "1h", startDate: "2025-12-28" },
    });
    expect(r.asOfMs).toBe(Date.parse("2025-12-28T12:30:00Z"));
    expect(r.extent).toEqual({ firstMs: Date.parse("2020-04-10T00:00:00Z"), lastMs: Date.parse("2025-12-28T12:00:00Z") });
    const hours = r.body as TimeRecord[];
    expect(hours.at(-1)!.time).toBe("2025-12-28T12:00:00.000Z");
    const minutes = (
      await backend.fetch({
        endpoint: "derivatives/Volume_usd",
        asset: "sol",
        query: { timeframe: "1m", startDate: "2025-12-28T12:00:00Z" },
      })
    ).body as TimeRecord[];
    expect(minutes).toHaveLength(30);
    const sum = minutes.reduce((s, m) => s + (m.volume_usd as number), 0);
    expect(Math.abs(sum / (hours.at(-1)!.volume_usd as number) - 1)).toBeLessThan(1e-9);
    const daily = await backend.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: { startDate: "2025-12-20" } });
    expect((daily.body as TimeRecord[]).at(-1)!.time).toBe("2025-12-27T00:00:00.000Z");
    expect(daily.extent!.lastMs).toBe(Date.parse("2025-12-27T00:00:00Z"));
  });

  it("a series that ended says where: ETH hashprice's extent stops at the Merge", async () => {
    const r = await backend.fetch({ endpoint: "mining/RevHashRateUSD", asset: "eth", query: { startDate: "2025-01-01" } });
    expect(r.body).toEqual([]);
    expect(r.extent).toEqual({ firstMs: Date.parse("2015-08-07T00:00:00Z"), lastMs: Date.parse("2022-09-15T00:00:00Z") });
  });

  it("a heatmap anchors on now and has no column before listing", async () => {
    const r = await backend.fetch({ endpoint: "liquidation_levels/heatmap", asset: "hype", query: { timeframe: "1d", lookback: "6y" } });
    const h = r.body as { x: string[]; df: Array<{ date: string }> };
    expect(h.x[0]).toBe("2024-11-29T00:00:00.000Z");
    expect(h.x.at(-1)).toBe("2025-12-28T00:00:00.000Z");
    const err = await refusal(backend.fetch({ endpoint: "liquidation_levels/heatmap", asset: "tria", query: {} }));
    expect(err).toMatchObject({ status: 404, code: "asset_not_supported" });
    expect(err.message).toContain("2026-02-03");
  });
});
