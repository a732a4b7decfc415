// The REST face over real loopback HTTP: every endpoint, the dates, the defaults and determinism.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { call, type RestRig, startRest } from "../../../harness/service.js";
import { covers, type Endpoint, ENDPOINTS, KNOWN_ASSETS, pathOf } from "../../../src/catalog/index.js";
import { heatmapSchema, recordsSchema, variationSchema } from "../../../src/catalog/response-schemas.js";

let h: RestRig;
let base: string;
beforeAll(async () => {
  h = await startRest();
  base = h.rest.url;
});
afterAll(async () => h.stop());

const get = (path: string, key = "full-key") => call(base, path, { key });

function outsideAsset(e: Endpoint): string {
  return KNOWN_ASSETS.find((a) => !covers(e, a)) ?? "Not-A-Ticker!";
}

function url(e: Endpoint, asset: string, query = ""): string {
  const path = pathOf(e, asset);
  const q = e.kind === "heatmap" ? `asset=${asset}${query ? `&${query}` : ""}` : query;
  return e.kind === "heatmap" ? `${path}?${q}` : `${path}${q ? `?${q}` : ""}`;
}

describe("every endpoint", () => {
  for (const e of ENDPOINTS) {
    it(`${e.id}: spec-shaped body for an in-set asset, 404 asset_not_supported outside the set`, async () => {
      const query =
        e.kind === "heatmap" ? "timeframe=1d&lookback=90d" : e.kind === "variation" ? "" : "startDate=2025-10-01&endDate=2025-12-31";
      const ok = await get(url(e, "btc", query));
      expect(ok.status, ok.text.slice(0, 300)).toBe(200);
      expect(ok.headers["content-type"]).toMatch(/^application\/json/);
      if (e.kind === "heatmap") heatmapSchema.parse(ok.json);
      else if (e.kind === "variation") expect(variationSchema.parse(ok.json).length).toBeGreaterThan(0);
      else {
        const rows = recordsSchema(e).parse(ok.json);
        expect(rows.length).toBeGreaterThan(0);
        const times = rows.map((r) => r.time);
        expect(times).toEqual([...times].sort());
        expect(times.every((t) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(t))).toBe(true);
      }
      const other = outsideAsset(e);
      const miss = await get(url(e, encodeURIComponent(other), query));
      expect(miss.status).toBe(404);
      expect(miss.json.error.code).toBe("asset_not_supported");
    });
  }

  it("suggests close tickers and lists a small coverage", async () => {
    const r = await get("/ethh/lifespan/Cvdd");
    expect(r.json.error.message).toContain("covers bch, btc, dash, doge, ltc, zec");
    const r2 = await get("/btcc/derivatives/Volume_usd");
    expect(r2.json.error.message).toMatch(/Did you mean "btc"/);
    expect(r2.json.error.message).toMatch(/210 assets/);
    const upper = await get("/BTC/lifespan/Lth_mvrv");
    expect(upper.json.error.allowed).toEqual(["btc"]);
  });

  it("offers no look-alikes for a known ticker the endpoint lacks", async () => {
    for (const path of ["/all_stablecoins/derivatives/metrics-variation", "/eth/lifespan/Cvdd"]) {
      const r = await get(path);
      expect(r.json.error.code).toBe("asset_not_supported");
      expect(r.json.error.message).not.toContain("Did you mean");
      expect(r.json.error.allowed).toEqual([]);
    }
  });
});

describe("paths and methods", () => {
  it("answers a wrong-case path with 404 naming the right one", async () => {
    const r = await get("/btc/derivatives/volume_usd");
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe("not_found");
    expect(r.json.error.message).toContain("/btc/derivatives/Volume_usd");
    expect((await get("/Liquidation_Levels/heatmap?asset=btc")).json.error.message).toContain("/liquidation_levels/heatmap");
  });

  it("answers unknown paths with 404 and the nearest endpoint", async () => {
    const r = await get("/btc/lifespan/Lth_mvr");
    expect(r.status).toBe(404);
    expect(r.json.error.message).toContain("/btc/lifespan/Lth_mvrv");
    expect((await get("/")).status).toBe(404);
    expect((await get("/btc/liquidation_levels/heatmap")).json.error.message).toContain("/liquidation_levels/heatmap?asset=btc");
  });

  it("answers other methods with 405 and Allow: GET", async () => {
    for (const method of ["POST", "DELETE", "PUT"]) {
      const r = await call(base, "/btc/lifespan/Lth_mvrv", { key: "full-key", method });
      expect(r.status).toBe(405);
      expect(r.headers["allow"]).toBe("GET");
      expect(r.json.error.code).toBe("method_not_allowed");
    }
  });

  it("refuses a request body beyond the cap with 413", async () => {
    const r = await call(base, "/btc/lifespan/Lth_mvrv", { key: "full-key", method: "POST", body: "x".repeat(10_000) });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe("payload_too_large");
  });
});

describe("dates and defaults", () => {
  it("includes both bounds, date-only and date-time", async () => {
    const a = await get("/btc/lifespan/Lth_mvrv?startDate=2025-01-01&endDate=2025-01-10");
    expect(a.json).toHaveLength(10);
    expect(a.json[0].time).toBe("2025-01-01T00:00:00.000Z");
    expect(a.json[9].time).toBe("2025-01-10T00:00:00.000Z");
    const b = await get("/btc/lifespan/Lth_mvrv?startDate=2025-01-01T00:00:00Z&endDate=2025-01-10T00:00:00.000Z");
    expect(b.text).toBe(a.text);
    const c = await get("/btc/derivatives/Volume_usd?timeframe=1h&startDate=2025-03-01T05:00:00Z&endDate=2025-03-01T08:00:00Z");
    expect(c.json.map((r: { time: string }) => r.time)).toEqual(["05", "06", "07", "08"].map((hh) => `2025-03-01T${hh}:00:00.000Z`));
    const d = await get("/btc/derivatives/Volume_usd?timeframe=1h&startDate=2025-03-01&endDate=2025-03-01");
    expect(d.json).toHaveLength(24);
  });

  it("gives the daily series for an OHLCV timeframe outside the nine", async () => {
    const daily = await get("/btc/derivatives/Volume_usd?timeframe=1d&startDate=2025-06-01&endDate=2025-06-30");
    const odd = await get("/btc/derivatives/Volume_usd?timeframe=2h&startDate=2025-06-01&endDate=2025-06-30");
    expect(odd.status).toBe(200);
    expect(odd.text).toBe(daily.text);
    expect(odd.json).toHaveLength(30);
  });

  // Now is 2025-12-31T12:00:00Z: the market has happened up to that minute, so the last hourly
  // bucket is 11:00 (the 12:00 one has not begun) and the last daily metric is the 30th (the
  // 31st's value appears once the day has ended).
  it("defaults to the last 1,000 existing buckets up to now, and clamps a future end to now", async () => {
    const r = await get("/btc/market/lth_realized_cap");
    expect(r.json).toHaveLength(1000);
    expect(r.json.at(-1).time).toBe("2025-12-30T00:00:00.000Z");
    const hourly = await get("/btc/derivatives/Volume_usd?timeframe=1h");
    expect(hourly.json).toHaveLength(1000);
    expect(hourly.json.at(-1).time).toBe("2025-12-31T11:00:00.000Z");
    const future = await get("/btc/market/lth_realized_cap?startDate=2025-12-20&endDate=2030-01-01");
    expect(future.json.at(-1).time).toBe("2025-12-30T00:00:00.000Z");
  });

  it("answers a range before the asset's history with an empty array", async () => {
    const r = await get("/btc/lifespan/Lth_mvrv?startDate=1990-01-01&endDate=1990-12-31");
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
  });

  it("gives the same bytes twice", async () => {
    for (const path of [
      "/btc/derivatives/Volume_usd?timeframe=4h",
      "/eth/derivatives/metrics-variation",
      "/liquidation_levels/heatmap?asset=sol&timeframe=1h",
    ]) {
      const [a, b] = [await get(path), await get(path)];
      expect(a.status).toBe(200);
      expect(b.text).toBe(a.text);
    }
  });

  it("uses the canonical lookback when the heatmap names none", async () => {
    const r = await get("/liquidation_levels/heatmap?asset=btc&timeframe=30m");
    expect(r.json.lookback).toBe("30d");
    expect(r.json.scope).toBe("all");
  });
});

describe("headers", () => {
  it("sends RateLimit-Policy, RateLimit and X-Credits-Remaining on keyed responses, errors included", async () => {
    const ok = await call(base, "/btc/lifespan/Lth_mvrv", { key: "free-key" });
    expect(ok.headers["ratelimit-policy"]).toBe('"free";q=30;w=60');
    expect(ok.headers["ratelimit"]).toMatch(/^"free";r=\d+;t=\d+$/);
    expect(ok.headers["x-credits-remaining"]).toBe("999");
    const bad = await call(base, "/btc/lifespan/Lth_mvrv?startDate=nope", { key: "free-key" });
    expect(bad.status).toBe(400);
    expect(bad.headers["x-credits-remaining"]).toBe("999");
    expect(bad.headers["ratelimit-policy"]).toBeDefined();
    const anonymous = await call(base, "/btc/lifespan/Lth_mvrv");
    expect(anonymous.headers["x-credits-remaining"]).toBeUndefined();
  });
});
