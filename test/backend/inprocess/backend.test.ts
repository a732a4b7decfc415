// InProcessBackend: the same pipeline as the REST face, bodies as objects, errors as ServiceError.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { InProcessBackend } from "../../../src/backend/inprocess/backend.js";
import { ServiceError, type TimeRecord } from "../../../src/backend/types.js";

const NOW = Date.parse("2025-12-31T12:00:00Z");
const opened: InProcessBackend[] = [];

async function backend(options: { keys?: unknown; apiKey?: string; rateClock?: () => number } = {}): Promise<InProcessBackend> {
  const dir = mkdtempSync(join(tmpdir(), "cm-backend-"));
  let keysFile: string | undefined;
  if (options.keys) {
    keysFile = join(dir, "keys.json");
    writeFileSync(keysFile, JSON.stringify(options.keys));
  }
  const b = await InProcessBackend.create({
    apiKey: options.apiKey,
    keysFile,
    stateDir: join(dir, "state"),
    now: () => NOW,
    ...(options.rateClock && { rateClock: options.rateClock }),
  });
  opened.push(b);
  return b;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((b) => b.close()));
});

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return err as ServiceError;
  }
  throw new Error("expected a ServiceError");
}

describe("InProcessBackend", async () => {
  it("returns records and usage, using the demo key when the call names none", async () => {
    const b = await backend();
    expect(b.kind).toBe("inprocess");
    const r = await b.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: { startDate: "2025-12-01", endDate: undefined } });
    const rows = r.body as TimeRecord[];
    // Daily metrics appear once their day has ended: the day "now" falls in is not there yet.
    expect(rows).toHaveLength(30);
    expect(Object.keys(rows[0]!)).toEqual(["time", "lth_mvrv"]);
    expect(r.usage).toEqual({ charged: 1, creditsRemaining: 999_999 });
  });

  it("uses CRYPTO_METRICS_API_KEY as the default key, and a per-call key over it", async () => {
    const b = await backend({ apiKey: "mine" });
    await expect(b.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {} })).resolves.toBeDefined();
    const err = await failure(b.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {} }, { apiKey: "demo" }));
    expect(err).toMatchObject({ status: 401, code: "unauthorized" });
  });

  it("passes the heatmap's asset as a query parameter", async () => {
    const r = await (
      await backend()
    ).fetch({ endpoint: "liquidation_levels/heatmap", asset: "eth", query: { timeframe: "1d", lookback: "90d" } });
    expect(r.body).toMatchObject({ asset: "eth", timeframe: "1d", lookback: "90d", scope: "all" });
    expect(r.usage.charged).toBe(5);
  });

  it("throws ServiceError with details on every refusal", async () => {
    const b = await backend({
      keys: {
        keys: [{ key: "k", credits: 2, rateLimit: { requests: 1000, windowSeconds: 60 }, metrics: ["lifespan/Lth_mvrv", "lifespan/Cvdd"] }],
      },
      apiKey: "k",
    });
    const bad = await failure(b.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: { startDate: "2025-13-01" } }));
    expect(bad).toMatchObject({
      status: 400,
      code: "invalid_parameter",
      details: { parameter: "startDate", endpoint: "lifespan/Lth_mvrv", asset: "btc", creditsRemaining: 2 },
    });
    const cov = await failure(b.fetch({ endpoint: "lifespan/Cvdd", asset: "btcc", query: {} }));
    expect(cov).toMatchObject({ status: 404, code: "asset_not_supported", details: { endpoint: "lifespan/Cvdd", asset: "btcc" } });
    expect(cov.details.allowed?.[0]).toBe("btc");
    expect(cov.message).toContain('Did you mean "btc"');
    // eth is close to "ethh" but Cvdd does not cover it: no proposal that would fail again.
    const far = await failure(b.fetch({ endpoint: "lifespan/Cvdd", asset: "ethh", query: {} }));
    expect(far.details.allowed).toEqual([]);
    expect(far.message).not.toContain("Did you mean");
    const denied = await failure(b.fetch({ endpoint: "market/metcalfe_ratio", asset: "btc", query: {} }));
    expect(denied).toMatchObject({ status: 403, code: "metric_not_allowed", details: { creditsRemaining: 2 } });
    await b.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {} });
    await b.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {} });
    const broke = await failure(b.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {} }));
    expect(broke).toMatchObject({ status: 402, code: "credits_exhausted", retryable: false, details: { creditsRemaining: 0 } });
    const unknown = await failure(b.fetch({ endpoint: "lifespan/Lth_mvr", asset: "btc", query: {} }));
    expect(unknown).toMatchObject({ status: 404, code: "not_found", details: { allowed: ["lifespan/Lth_mvrv"] } });
  });

  it("reports retryAfterS on 429 and accepts a retry at exactly that instant (rate clock injected)", async () => {
    let mono = 0;
    const b = await backend({
      keys: { keys: [{ key: "k", rateLimit: { requests: 2, windowSeconds: 10 } }] },
      apiKey: "k",
      rateClock: () => mono,
    });
    const req = { endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {} };
    await b.fetch(req);
    mono = 4_300;
    await b.fetch(req);
    mono = 5_000;
    const limited = await failure(b.fetch(req));
    expect(limited).toMatchObject({ status: 429, code: "rate_limited", retryable: true, details: { retryAfterS: 5 } });
    mono += limited.details.retryAfterS! * 1000;
    await expect(b.fetch(req)).resolves.toBeDefined();
  });

  it("honours an aborted signal before doing any work", async () => {
    const b = await backend();
    await expect(b.fetch({ endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {} }, { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
