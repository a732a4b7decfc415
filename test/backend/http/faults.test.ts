// Upstream faults through undici's MockAgent (injected as the dispatcher): retries, Retry-After,
// permanent errors, malformed answers, redirects, the breaker, coalescing and paging.
import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";

import {
  backendOn,
  LTH,
  ORIGIN,
  records,
  type Reply,
  scriptedUpstream,
  type SeenRequest,
  serviceError,
  virtualClock,
} from "../../../harness/mock-upstream.js";
import type { HttpBackend } from "../../../src/backend/http/index.js";

const OK: Reply = { status: 200, body: records("lth_mvrv", 3) };
let backend: HttpBackend | undefined;
afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

function setup(replies: Reply[] | ((req: SeenRequest) => Reply), extra = {}, delayMs = 0) {
  const upstream = scriptedUpstream(replies, delayMs);
  const clock = virtualClock();
  backend = backendOn(upstream.agent, clock, extra);
  return { ...upstream, clock, backend };
}

describe("requests", () => {
  it("sends GET {base}/{asset}/{group}/{segment} with the key in X-Api-Key only and accepts JSON", async () => {
    const { seen, backend } = setup([OK], { baseUrl: `${ORIGIN}/v1/` });
    const result = await backend.fetch({ ...LTH, query: { startDate: "2025-01-01", endDate: "2025-01-03" } }, { apiKey: "caller-key" });
    expect(result.body).toEqual(records("lth_mvrv", 3));
    expect(result.usage.charged).toBe(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe("/v1/btc/lifespan/Lth_mvrv?startDate=2025-01-01&endDate=2025-01-03");
    expect(seen[0]!.headers["x-api-key"]).toBe("caller-key");
    expect(seen[0]!.headers["accept"]).toBe("application/json");
    expect(seen[0]!.path).not.toContain("key");
  });
  it("reads X-Credits-Remaining into usage", async () => {
    const { backend } = setup([{ ...OK, headers: { "x-credits-remaining": "997" } }]);
    expect((await backend.fetch(LTH)).usage).toEqual({ charged: 1, creditsRemaining: 997 });
  });
});

describe("retries", () => {
  it("500 then 200: exactly two requests, the result returned", async () => {
    const { seen, clock, backend } = setup([{ status: 500, body: { error: "boom" } }, OK]);
    const result = await backend.fetch(LTH);
    expect(result.body).toHaveLength(3);
    expect(seen).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]!).toBeLessThan(250);
  });
  it("4×500: attempts exhausted → upstream_unavailable after exactly `attempts` requests", async () => {
    const { seen, backend } = setup([{ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 }, OK], { retry: { attempts: 4 } });
    const error = await serviceError(backend.fetch(LTH));
    expect(error.code).toBe("upstream_unavailable");
    expect(error.retryable).toBe(true);
    expect(seen).toHaveLength(4);
  });
  it("429 with Retry-After: 1 waits exactly 1 s, then succeeds", async () => {
    const { seen, clock, backend } = setup([{ status: 429, body: "Rate limit exceeded", headers: { "retry-after": "1" } }, OK]);
    expect((await backend.fetch(LTH)).body).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000]);
    expect(seen).toHaveLength(2);
  });
  it("honours a Retry-After HTTP-date", async () => {
    const clock0 = virtualClock();
    const { clock, backend } = setup([{ status: 503, headers: { "retry-after": new Date(clock0.t + 7000).toUTCString() } }, OK]);
    await backend.fetch(LTH);
    expect(clock.sleeps).toEqual([7000]);
  });
  it("Retry-After: 120 beyond the budget fails at once with retryAfterS 120 and one request", async () => {
    const { seen, clock, backend } = setup([{ status: 429, headers: { "retry-after": "120" } }, OK], {
      timeouts: { callMs: 5000, headersMs: 300, attemptMs: 800 },
    });
    const error = await serviceError(backend.fetch(LTH));
    expect(error.code).toBe("rate_limited");
    expect(error.status).toBe(429);
    expect(error.details.retryAfterS).toBe(120);
    expect(clock.sleeps).toEqual([]);
    expect(seen).toHaveLength(1);
  });
  it("retries a 408", async () => {
    const { seen, backend } = setup([{ status: 408 }, OK]);
    await backend.fetch(LTH);
    expect(seen).toHaveLength(2);
  });
  it("retries a connection error", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: () => true }).replyWithError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
    pool
      .intercept({ path: () => true })
      .reply(200, JSON.stringify(records("lth_mvrv", 3)), { headers: { "content-type": "application/json" } });
    const clock = virtualClock();
    backend = backendOn(agent, clock);
    expect((await backend.fetch(LTH)).body).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(1);
    expect(agent.pendingInterceptors()).toHaveLength(0);
  });
  it.each([
    [400, "invalid_parameter"],
    [401, "unauthorized"],
    [402, "credits_exhausted"],
    [403, "metric_not_allowed"],
    [404, "asset_not_supported"],
  ])("%i is never retried: one request, code %s", async (status, code) => {
    const { seen, clock, backend } = setup([{ status, body: { message: "no" } }, OK]);
    const error = await serviceError(backend.fetch(LTH));
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(false);
    expect(seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
  it("a 429 whose body says the credits are gone is not retried", async () => {
    const { seen, backend } = setup([{ status: 429, body: { error: { code: "credits_exhausted", message: "no credits" } } }, OK]);
    expect((await serviceError(backend.fetch(LTH))).code).toBe("credits_exhausted");
    expect(seen).toHaveLength(1);
  });
});

describe("malformed answers are refused, never passed on", () => {
  it("passes a 400's upstream message on, sanitized", async () => {
    const { backend } = setup([
      {
        status: 400,
        body: { error: { code: "invalid_parameter", message: "startDate\u0007 must be before endDate", parameter: "startDate" } },
      },
    ]);
    const error = await serviceError(backend.fetch(LTH));
    expect(error.message).toBe("startDate must be before endDate");
    expect(error.details.parameter).toBe("startDate");
  });
  it("invalid JSON with status 200 → upstream_invalid_response, one request", async () => {
    const { seen, backend } = setup([
      { status: 200, body: '[{"time": "2025-01-01T00:00:00.000Z", "lth_mvrv": 1.2', headers: { "content-type": "application/json" } },
    ]);
    const error = await serviceError(backend.fetch(LTH));
    expect(error.code).toBe("upstream_invalid_response");
    expect(error.status).toBe(502);
    expect(seen).toHaveLength(1);
  });
  it("an HTML 403 page → metric_not_allowed without the HTML", async () => {
    const { seen, backend } = setup([
      { status: 403, body: "<html><body><h1>403 Forbidden</h1>cloudfront</body></html>", headers: { "content-type": "text/html" } },
    ]);
    const error = await serviceError(backend.fetch(LTH));
    expect(error.code).toBe("metric_not_allowed");
    expect(error.message).not.toMatch(/html|cloudfront/i);
    expect(seen).toHaveLength(1);
  });
  it("HTML with status 200 → upstream_invalid_response", async () => {
    const { backend } = setup([{ status: 200, body: "<html>maintenance</html>", headers: { "content-type": "text/html" } }]);
    expect((await serviceError(backend.fetch(LTH))).code).toBe("upstream_invalid_response");
  });
  it('accepts a {"data": …} wrapped body', async () => {
    const { backend } = setup([{ status: 200, body: { data: records("lth_mvrv", 2) } }]);
    expect((await backend.fetch(LTH)).body).toEqual(records("lth_mvrv", 2));
  });
  it("refuses records of the wrong shape and a heatmap with missing rows", async () => {
    const { backend } = setup((req) =>
      req.path.startsWith("/liquidation_levels")
        ? {
            status: 200,
            body: {
              asset: "btc",
              timeframe: "1h",
              lookback: "7d",
              scope: "all",
              exchange: "all",
              version: "v",
              priceSource: "s",
              x: ["2025-01-01T00:00:00Z"],
              y: [1, 2],
              z: [[1]],
              df: [],
              topTraderLsr: [],
            },
          }
        : { status: 200, body: [{ time: "2025-01-01T00:00:00.000Z", price: 1 }] },
    );
    expect((await serviceError(backend.fetch(LTH))).code).toBe("upstream_invalid_response");
    const heatmap = await serviceError(backend.fetch({ endpoint: "liquidation_levels/heatmap", asset: "btc", query: { timeframe: "1h" } }));
    expect(heatmap.message).toMatch(/1 rows for 2 price levels/);
  });
  it("returns records ascending even when the upstream does not", async () => {
    const { backend } = setup([{ status: 200, body: records("lth_mvrv", 3).reverse() }]);
    expect((await backend.fetch(LTH)).body).toEqual(records("lth_mvrv", 3));
  });
  it("a 3xx redirect is not followed: upstream error, one request", async () => {
    const { seen, backend } = setup([{ status: 302, headers: { location: "http://elsewhere.test/steal" } }, OK]);
    const error = await serviceError(backend.fetch(LTH));
    expect(error.code).toBe("upstream_invalid_response");
    expect(error.message).toMatch(/redirect/);
    expect(seen).toHaveLength(1);
  });
  it("an unknown endpoint or a non-ticker asset never reaches the network", async () => {
    const { seen, backend } = setup([OK]);
    expect((await serviceError(backend.fetch({ endpoint: "market/nope", asset: "btc", query: {} }))).code).toBe("not_found");
    expect((await serviceError(backend.fetch({ ...LTH, asset: "../x" }))).code).toBe("asset_not_supported");
    expect(seen).toHaveLength(0);
  });
});

describe("circuit breaker", () => {
  it("opens after repeated 5xx, then answers without network calls, probes after the cooldown", async () => {
    let failing = true;
    const { seen, clock, backend } = setup(() => (failing ? { status: 500 } : OK), {
      breaker: { failures: 5, windowMs: 10_000, cooldownMs: 30_000 },
    });
    await serviceError(backend.fetch(LTH));
    await serviceError(backend.fetch(LTH));
    expect(backend.circuit).toBe("open");
    const before = seen.length;
    for (let i = 0; i < 100; i++) {
      const error = await serviceError(backend.fetch(LTH));
      expect(error.code).toBe("circuit_open");
      expect(error.details.retryAfterS).toBeGreaterThan(0);
      expect(error.details.retryAfterS).toBeLessThanOrEqual(30);
    }
    expect(seen.length).toBe(before);
    clock.t += 30_000;
    failing = false;
    expect((await backend.fetch(LTH)).body).toHaveLength(3);
    expect(seen.length).toBe(before + 1);
    expect(backend.circuit).toBe("closed");
  });
  it("4xx answers do not open it", async () => {
    const { backend } = setup([{ status: 404 }]);
    for (let i = 0; i < 20; i++) await serviceError(backend.fetch(LTH));
    expect(backend.circuit).toBe("closed");
  });
});

describe("cache and coalescing", () => {
  it("100 concurrent identical calls → 1 upstream request, identical bodies, one charge", async () => {
    const { seen, backend } = setup([OK], {}, 20);
    const results = await Promise.all(Array.from({ length: 100 }, () => backend.fetch(LTH)));
    expect(seen).toHaveLength(1);
    for (const r of results) expect(r.body).toEqual(records("lth_mvrv", 3));
    expect(results.reduce((sum, r) => sum + r.usage.charged, 0)).toBe(1);
  });
  it("serves a repeat from cache with charged 0, until its TTL passes", async () => {
    const { seen, clock, backend } = setup([OK]);
    await backend.fetch(LTH);
    const hit = await backend.fetch(LTH);
    expect(hit.usage.charged).toBe(0);
    expect(seen).toHaveLength(1);
    clock.t += 3_600_001;
    expect((await backend.fetch(LTH)).usage.charged).toBe(1);
    expect(seen).toHaveLength(2);
  });
  it("does not cache an answer given with the balance at 0 (it may be cut short)", async () => {
    const { seen, backend } = setup([{ ...OK, headers: { "x-credits-remaining": "0" } }]);
    await backend.fetch(LTH);
    await backend.fetch(LTH);
    expect(seen).toHaveLength(2);
  });
  it("gives each caller its own top-level array over the shared records", async () => {
    const { backend } = setup([OK]);
    const first = (await backend.fetch(LTH)).body as unknown[];
    first.reverse();
    expect((await backend.fetch(LTH)).body).toEqual(records("lth_mvrv", 3));
  });
  it("a restricted key never gets a cached body: the upstream decides, every time", async () => {
    const { seen, backend } = setup((req) =>
      req.headers?.["x-api-key"] === "restricted" ? { status: 403, body: { message: "plan" } } : OK,
    );
    await backend.fetch(LTH, { apiKey: "entitled" });
    await backend.fetch(LTH, { apiKey: "entitled" });
    expect(seen).toHaveLength(1);
    for (let i = 0; i < 3; i++) expect((await serviceError(backend.fetch(LTH, { apiKey: "restricted" }))).code).toBe("metric_not_allowed");
    expect(seen).toHaveLength(4);
    const concurrent = await Promise.allSettled([backend.fetch(LTH, { apiKey: "restricted" }), backend.fetch(LTH, { apiKey: "entitled" })]);
    expect(concurrent[0].status).toBe("rejected");
    expect(concurrent[1].status).toBe("fulfilled");
  });
  it("a key the upstream stops serving (403) loses its cached access", async () => {
    let allowed = true;
    const { seen, backend } = setup(() => (allowed ? OK : { status: 403 }));
    await backend.fetch(LTH, { apiKey: "k" });
    await backend.fetch({ ...LTH, query: { startDate: "2025-01-01" } }, { apiKey: "k" });
    allowed = false;
    expect((await serviceError(backend.fetch({ ...LTH, query: { startDate: "2025-01-02" } }, { apiKey: "k" }))).code).toBe(
      "metric_not_allowed",
    );
    expect((await serviceError(backend.fetch(LTH, { apiKey: "k" }))).code).toBe("metric_not_allowed");
    expect(seen).toHaveLength(4);
  });
  it("a caller that aborts leaves; the others still get the shared answer", async () => {
    const { seen, backend } = setup([OK], {}, 30);
    const controller = new AbortController();
    const leaving = backend.fetch(LTH, { signal: controller.signal });
    const staying = backend.fetch(LTH);
    controller.abort(new Error("caller left"));
    await expect(leaving).rejects.toThrow("caller left");
    expect((await staying).body).toHaveLength(3);
    expect(seen).toHaveLength(1);
  });
});

describe("paging", () => {
  it("splits a range over the per-response cap into windows fetched in order, merged and deduplicated", async () => {
    const all = records("lth_mvrv", 25);
    const { seen, backend } = setup(
      (req) => {
        const q = new URL(req.path, ORIGIN).searchParams;
        const from = Date.parse(q.get("startDate")!.length === 10 ? `${q.get("startDate")}T00:00:00Z` : q.get("startDate")!);
        const to =
          q.get("endDate")!.length === 10 ? Date.parse(`${q.get("endDate")}T00:00:00Z`) + 86_399_999 : Date.parse(q.get("endDate")!);
        // Each window also repeats the record before it: the merge must drop the duplicate.
        return { status: 200, body: all.filter((r) => Date.parse(r.time) >= from - 86_400_000 && Date.parse(r.time) <= to) };
      },
      { paging: { perWindow: 10 } },
    );
    const progress: string[] = [];
    const result = await backend.fetch(
      { ...LTH, query: { startDate: "2025-01-01", endDate: "2025-01-25" } },
      { onProgress: (p) => progress.push(`${p.done}/${p.total}`) },
    );
    expect(seen).toHaveLength(3);
    expect(progress).toEqual(["1/3", "2/3", "3/3"]);
    expect(result.body).toEqual(all);
    expect(result.usage.charged).toBe(3);
  }, 10_000);
});
