// The body cache of the REST face: a repeat gets the same bytes as a fresh generation, still
// passes auth, limits and charging, and requests that select different data never share an entry.
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { call, keysDir, NOW } from "../../../harness/service.js";
import { createInProcessService } from "../../../src/backend/inprocess/backend.js";
import type { InProcessService, ServiceRequest } from "../../../src/backend/inprocess/service.js";
import { type RestServer, startRestServer } from "../../../src/backend/rest.js";

const SERIES = "/btc/derivatives/Volume_usd";
const YEAR = "timeframe=1d&startDate=2025-01-01&endDate=2025-12-31";

function get(path: string, query: string, key = "full-key"): ServiceRequest {
  return { method: "GET", path, query: new URLSearchParams(query), headers: { "x-api-key": key } };
}

describe("service body cache", () => {
  let plain: InProcessService;
  let cached: InProcessService;
  let restPlain: RestServer;
  let restCached: RestServer;

  beforeAll(async () => {
    const keys = keysDir();
    plain = await createInProcessService({ apiKey: undefined, keysFile: keys.keysFile, stateDir: join(keys.dir, "plain"), now: () => NOW });
    cached = await createInProcessService({
      apiKey: undefined,
      keysFile: keys.keysFile,
      stateDir: join(keys.dir, "cached"),
      now: () => NOW,
      bodyCacheBytes: 1 << 20,
    });
    restPlain = await startRestServer(plain, { host: "127.0.0.1", port: 0 });
    restCached = await startRestServer(cached, { host: "127.0.0.1", port: 0 });
  });

  afterAll(async () => {
    await Promise.all([restPlain.close(), restCached.close()]);
    plain.close();
    cached.close();
  });

  it("serves repeats with the bytes a fresh generation gives, over HTTP", async () => {
    const paths = [
      `${SERIES}?${YEAR}`,
      `${SERIES}?timeframe=1h&startDate=2025-12-01&endDate=2025-12-02&exchange=binance`,
      "/btc/lifespan/Lth_mvrv?startDate=2024-01-01",
      "/eth/derivatives/metrics-variation",
      "/liquidation_levels/heatmap?asset=btc&timeframe=30m",
    ];
    for (const path of paths) {
      const fresh = await call(restPlain.url, path, { key: "full-key" });
      const first = await call(restCached.url, path, { key: "full-key" });
      const repeat = await call(restCached.url, path, { key: "full-key" });
      expect(fresh.status, path).toBe(200);
      expect(first.text, path).toBe(fresh.text);
      expect(repeat.text, path).toBe(fresh.text);
      expect(repeat.headers["content-length"]).toBe(String(Buffer.byteLength(fresh.text)));
    }
  });

  it("still charges, rate-limits and refuses exhausted keys on a repeat", async () => {
    const cost = (await cached.handle(get(SERIES, YEAR, "ten"))).usage!.charged;
    expect(cost).toBe(1);
    let served = 1;
    for (;;) {
      const res = await cached.handle(get(SERIES, YEAR, "ten"));
      if (res.status !== 200) {
        expect(res.status).toBe(402);
        expect(res.bytes).toBeUndefined();
        break;
      }
      served++;
    }
    expect(served).toBe(10);
    expect(await cached.creditsRemaining("ten")).toBe(0);
    expect((await cached.handle(get(SERIES, YEAR, "nobody"))).status).toBe(401);
  });

  it("shares an entry only between bounds that select the same buckets", async () => {
    const a = await cached.handle(get(SERIES, "timeframe=1h&startDate=2025-06-01T00:00:00Z&endDate=2025-06-01T05:00:00Z"));
    const sameBuckets = await cached.handle(get(SERIES, "timeframe=1h&startDate=2025-05-31T23:00:01Z&endDate=2025-06-01T05:59:59Z"));
    const oneMore = await cached.handle(get(SERIES, "timeframe=1h&startDate=2025-06-01T00:00:00Z&endDate=2025-06-01T06:00:00Z"));
    const otherVenue = await cached.handle(
      get(SERIES, "timeframe=1h&startDate=2025-06-01T00:00:00Z&endDate=2025-06-01T05:00:00Z&exchange=okx"),
    );
    expect(sameBuckets.bytes!.equals(a.bytes!)).toBe(true);
    expect((JSON.parse(oneMore.bytes!.toString()) as unknown[]).length).toBe(7);
    expect(otherVenue.bytes!.equals(a.bytes!)).toBe(false);
    const fresh = await plain.handle(get(SERIES, "timeframe=1h&startDate=2025-06-01T00:00:00Z&endDate=2025-06-01T05:00:00Z&exchange=okx"));
    expect(otherVenue.bytes!.toString()).toBe(JSON.stringify(fresh.body));
  });

  // The heatmap's last candle runs to the data clock (the last whole minute): polls within a
  // minute are repeats; the variation table reports whole days, so polls within a day are.
  it("serves heatmap polls within one minute and variation polls within one day of a running clock from one entry", async () => {
    const keys = keysDir();
    let now = Date.parse("2025-12-31T12:00:05Z");
    const live = await createInProcessService({
      apiKey: undefined,
      keysFile: keys.keysFile,
      stateDir: join(keys.dir, "live"),
      now: () => now,
      bodyCacheBytes: 1 << 22,
    });
    try {
      for (const [path, query, step] of [
        ["/liquidation_levels/heatmap", "asset=btc&timeframe=1h&lookback=24h", 60_000],
        ["/btc/derivatives/metrics-variation", "", 86_400_000],
      ] as const) {
        now = Math.floor(now / step) * step + 5_000;
        const first = await live.handle(get(path, query));
        now += Math.min(50_000, step / 2);
        const poll = await live.handle(get(path, query));
        expect(poll.bytes, path).toBe(first.bytes);
        now += step;
        const next = await live.handle(get(path, query));
        expect(next.bytes!.equals(first.bytes!), path).toBe(false);
      }
    } finally {
      await live.close();
    }
  });

  it("rebuilds the body objects of a cached answer on demand, equal to a fresh one", async () => {
    await cached.handle(get("/btc/lifespan/Cvdd", "startDate=2025-03-01"));
    const hit = await cached.handle(get("/btc/lifespan/Cvdd", "startDate=2025-03-01"));
    const fresh = await plain.handle(get("/btc/lifespan/Cvdd", "startDate=2025-03-01"));
    expect(hit.bytes).toBeDefined();
    expect(hit.body).toEqual(fresh.body);
  });
});
