// Pure policies of the HTTP backend: backoff, Retry-After, paging windows, cache TTLs, redaction, breaker.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { CircuitBreaker } from "../../../src/backend/http/breaker.js";
import { ttlFor } from "../../../src/backend/http/cache.js";
import { ascending, mergeWindows, parseBound, planWindows } from "../../../src/backend/http/paging.js";
import { buildUpstreamRequest } from "../../../src/backend/http/request.js";
import { backoffMs, parseRetryAfter, toRetryAfterS } from "../../../src/backend/http/retry.js";
import { errorFromStatus, redact, sanitize } from "../../../src/backend/http/upstream-errors.js";
import { DAY_MS, type Endpoint, endpointById, TIMEFRAME_MS } from "../../../src/catalog/index.js";

const ep = (id: string): Endpoint => endpointById(id)!;
const LTH = ep("lifespan/Lth_mvrv");
const VOLUME = ep("derivatives/Volume_usd");
const HEATMAP = ep("liquidation_levels/heatmap");

describe("backoff", () => {
  const policy = { attempts: 3, baseMs: 250, capMs: 4000 };
  it("stays within [0, min(cap, base·2^n)) for any random draw", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (n, r) => {
        const ms = backoffMs(n, policy, () => r);
        return ms >= 0 && ms < Math.min(4000, 250 * 2 ** n);
      }),
    );
  });
  it("is jittered: 100 draws are not all equal", () => {
    const draws = new Set(Array.from({ length: 100 }, () => backoffMs(2, policy, Math.random)));
    expect(draws.size).toBeGreaterThan(50);
  });
});

describe("Retry-After", () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  it("reads delay-seconds without clamping", () => {
    expect(parseRetryAfter("1", now)).toBe(1000);
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(["7", "9"], now)).toBe(7000);
  });
  it("reads an HTTP-date relative to now, a past date as 0", () => {
    expect(parseRetryAfter(new Date(now + 3000).toUTCString(), now)).toBe(3000);
    expect(parseRetryAfter(new Date(now - 3000).toUTCString(), now)).toBe(0);
  });
  it("ignores malformed values", () => {
    for (const bad of ["", "soon", "-1", "1.5", "12abc"]) expect(parseRetryAfter(bad, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
  it("rounds to whole seconds, at least 1", () => {
    expect(toRetryAfterS(0)).toBe(1);
    expect(toRetryAfterS(1001)).toBe(2);
    expect(toRetryAfterS(120_000)).toBe(120);
  });
});

describe("paging windows", () => {
  const now = Date.UTC(2025, 11, 31);
  it("is a single request without a startDate or within the cap", () => {
    expect(planWindows(LTH, {}, now)).toBeNull();
    expect(planWindows(LTH, { endDate: "2025-01-01" }, now)).toBeNull();
    expect(planWindows(LTH, { startDate: "2010-01-01", endDate: "2025-01-01" }, now)).toBeNull();
    expect(planWindows(VOLUME, { startDate: "2025-01-01", endDate: "2025-02-01", timeframe: "1m" }, now)).toBeNull();
  });
  it("splits a 1m range over the cap into consecutive windows that tile it exactly", () => {
    const query = { startDate: "2025-01-01", endDate: "2025-06-30", timeframe: "1m" };
    const windows = planWindows(VOLUME, query, now)!;
    const total = (Date.UTC(2025, 5, 30) + DAY_MS - Date.UTC(2025, 0, 1)) / 60_000;
    expect(windows).toHaveLength(Math.ceil(total / 100_000));
    expect(windows[0]!.startDate).toBe("2025-01-01");
    expect(windows.at(-1)!.endDate).toBe("2025-06-30");
    for (let i = 1; i < windows.length; i++) {
      expect(Date.parse(windows[i]!.startDate) - Date.parse(windows[i - 1]!.endDate!)).toBe(1);
    }
    for (const w of windows.slice(0, -1)) {
      expect((parseBound(w.endDate!, true) - parseBound(w.startDate, false) + 1) / TIMEFRAME_MS["1m"]).toBe(100_000);
    }
  });
  it("reads a date-time without an offset as UTC, as the service does, whatever the machine's time zone", () => {
    const saved = process.env.TZ;
    process.env.TZ = "Europe/Paris";
    try {
      expect(parseBound("2025-01-01T00:00:00", false)).toBe(Date.UTC(2025, 0, 1));
      expect(parseBound("2025-01-01T00:00", true)).toBe(Date.UTC(2025, 0, 1));
      expect(parseBound("2025-01-01", true)).toBe(Date.UTC(2025, 0, 2) - 1);
      expect(parseBound("2025-02-30", false)).toBeNaN();
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
  it("pages an open-ended range up to now and keeps the last window open", () => {
    const windows = planWindows(LTH, { startDate: "2025-01-01" }, Date.UTC(2025, 0, 31), 10)!;
    expect(windows).toHaveLength(4);
    expect(windows.at(-1)!.endDate).toBeUndefined();
  });
  it("treats an unknown OHLCV timeframe as daily, as the upstream does", () => {
    expect(planWindows(VOLUME, { startDate: "2025-01-01", endDate: "2025-01-30", timeframe: "2h" }, now, 10)).toHaveLength(3);
    expect(planWindows(HEATMAP, { startDate: "2025-01-01" }, now, 1)).toBeNull();
  });
  it("merges windows ascending without boundary duplicates", () => {
    const rec = (d: number) => ({ time: new Date(Date.UTC(2025, 0, d)).toISOString(), v: d });
    expect(mergeWindows([[rec(1), rec(2), rec(3)], [rec(3), rec(4)], [], [rec(5)]]).map((r) => r.v)).toEqual([1, 2, 3, 4, 5]);
    expect(ascending([rec(2), rec(1), rec(3)]).map((r) => r.v)).toEqual([1, 2, 3]);
    const sorted = [rec(1), rec(2)];
    expect(ascending(sorted)).toBe(sorted);
  });
});

describe("request building", () => {
  it("puts the asset in the path, the key nowhere, and sorts the cache key", () => {
    const up = buildUpstreamRequest(VOLUME, {
      endpoint: VOLUME.id,
      asset: "btc",
      query: { timeframe: "1h", exchange: "binance", symbol: undefined, startDate: "" },
    });
    expect(up.pathAndQuery).toBe("/btc/derivatives/Volume_usd?timeframe=1h&exchange=binance");
    expect(up.cacheKey).toBe("/btc/derivatives/Volume_usd?exchange=binance&timeframe=1h");
  });
  it("sends the heatmap's asset first in the query", () => {
    const up = buildUpstreamRequest(HEATMAP, { endpoint: HEATMAP.id, asset: "eth", query: { scope: "all", timeframe: "1h" } });
    expect(up.pathAndQuery).toBe("/liquidation_levels/heatmap?asset=eth&timeframe=1h&scope=all");
  });
  it("refuses an asset that is not a ticker before any URL is built", () => {
    expect(() => buildUpstreamRequest(LTH, { endpoint: LTH.id, asset: "../admin", query: {} })).toThrow(/not a valid ticker/);
  });
});

describe("cache TTL", () => {
  it("follows the timeframe: finer buckets expire sooner", () => {
    expect(ttlFor(VOLUME, { timeframe: "1m" })).toBe(10_000);
    expect(ttlFor(VOLUME, { timeframe: "5m" })).toBe(30_000);
    expect(ttlFor(VOLUME, { timeframe: "1h" })).toBe(120_000);
    expect(ttlFor(VOLUME, {})).toBe(3_600_000);
    expect(ttlFor(LTH, {})).toBe(3_600_000);
    expect(ttlFor(ep("derivatives/metrics-variation"), {})).toBe(60_000);
    expect(ttlFor(HEATMAP, { timeframe: "15m" })).toBe(60_000);
  });
});

describe("redaction", () => {
  const key = "ck_CANARY_4f9a0c1e2d3b";
  it("removes the key in any echoed form and key-shaped tokens, keeps metric names", () => {
    const text = `bad key ${key} (${encodeURIComponent(key)}) X-Api-Key: other-secret-123 Bearer abcdefgh12345 ak-9f8e7d6c5b4a3f2e1d lth_supply_in_profit addresses_count_range_gt_10M_USD`;
    const out = redact(text, [key]);
    expect(out).not.toContain("CANARY");
    expect(out).not.toContain("other-secret-123");
    expect(out).not.toContain("abcdefgh12345");
    expect(out).not.toContain("ak-9f8e7d6c5b4a3f2e1d");
    expect(out).toContain("lth_supply_in_profit");
    expect(out).toContain("addresses_count_range_gt_10M_USD");
  });
  it("strips control and bidi characters and caps the length", () => {
    const out = sanitize(`a\u0000b\u202Ec\u001b[31m${"x".repeat(1000)}`, []);
    expect(out).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(out.length).toBeLessThanOrEqual(300);
  });
  it("maps statuses to codes and names the key variable on 401", () => {
    const make = (status: number, body = "") =>
      errorFromStatus({ status, body: Buffer.from(body), contentType: "application/json", secrets: [key], endpoint: LTH.id, asset: "btc" });
    expect(make(401).message).toMatch(/CRYPTO_METRICS_API_KEY/);
    expect([400, 401, 402, 403, 404, 429, 500, 408, 302].map((s) => make(s).code)).toEqual([
      "invalid_parameter",
      "unauthorized",
      "credits_exhausted",
      "metric_not_allowed",
      "asset_not_supported",
      "rate_limited",
      "upstream_unavailable",
      "upstream_timeout",
      "upstream_invalid_response",
    ]);
    expect(make(404, JSON.stringify({ error: { code: "not_found", message: "no route" } })).code).toBe("not_found");
    expect(
      make(400, JSON.stringify({ error: { code: "range_too_large", message: "too wide", parameter: "startDate" } })).details.parameter,
    ).toBe("startDate");
    // A code that does not belong to the status is ignored.
    expect(make(403, JSON.stringify({ error: { code: "rate_limited", message: "x" } })).code).toBe("metric_not_allowed");
  });
});

describe("circuit breaker", () => {
  it("opens on repeated failures, fails fast, lets one probe through after the cooldown, closes on success", () => {
    let clock = 0;
    const states: string[] = [];
    const breaker = new CircuitBreaker(
      { failures: 3, windowMs: 10_000, cooldownMs: 30_000 },
      () => clock,
      (s) => states.push(s),
    );
    for (let i = 0; i < 3; i++) {
      expect(breaker.admit()).toEqual({ ok: true, probe: false });
      breaker.record("failure", false);
    }
    expect(breaker.current).toBe("open");
    clock += 10_000;
    expect(breaker.admit()).toEqual({ ok: false, retryAfterMs: 20_000 });
    clock += 20_000;
    expect(breaker.admit()).toEqual({ ok: true, probe: true });
    expect(breaker.admit().ok).toBe(false);
    breaker.record("failure", true);
    expect(breaker.current).toBe("open");
    clock += 30_000;
    expect(breaker.admit()).toEqual({ ok: true, probe: true });
    breaker.record("success", true);
    expect(breaker.current).toBe("closed");
    expect(states).toEqual(["open", "half-open", "open", "half-open", "closed"]);
  });
  it("forgets failures older than the window and does not open when most calls succeed", () => {
    let clock = 0;
    const breaker = new CircuitBreaker({ failures: 3, windowMs: 10_000, cooldownMs: 30_000 }, () => clock);
    breaker.record("failure", false);
    breaker.record("failure", false);
    clock += 11_000;
    breaker.record("failure", false);
    expect(breaker.current).toBe("closed");
    for (let i = 0; i < 10; i++) breaker.record("success", false);
    breaker.record("failure", false);
    breaker.record("failure", false);
    expect(breaker.current).toBe("closed");
  });
});
