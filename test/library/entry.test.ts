// The library entry through its public name: the tools as typed async functions over the
// in-process service and, by the same configuration, the real one over HTTP; typed errors.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { createCryptoMetrics, type CryptoMetrics, CryptoMetricsError, type GetSeriesResult } from "crypto-metrics-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, type Fixture, NOW, NOW_ISO, tempDir, textOf, writeKeys } from "../../harness/mcp.js";
import { restUpstream, type Upstream } from "../../harness/upstream.js";
import { generateTypes, TYPES_FILE } from "../../scripts/generate-lib-types.js";
import { createInProcessService } from "../../src/backend/inprocess/backend.js";
import { methodName } from "../../src/library/session.js";
import { allTools } from "../../src/tools/index.js";

const noCredits = <T extends object>(r: T) => ({ ...r, credits: undefined });
const noFooter = (text: string) => text.replace(/credits: .*$/m, "");

describe("createCryptoMetrics (in-process)", () => {
  let cm: CryptoMetrics;
  let mcp: Fixture;
  beforeAll(async () => {
    const dir = tempDir("cm-lib-");
    cm = createCryptoMetrics({ apiKey: "demo-key", keysFile: writeKeys(dir), stateDir: join(dir, "state"), now: NOW_ISO, env: {} });
    mcp = await connect();
  });
  afterAll(async () => {
    await cm.close();
    await mcp.close();
  });

  it("gives each tool as a typed function returning its structured result, the same as over MCP", async () => {
    const args = { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-06-01", max_points: 20 } as const;
    const series: GetSeriesResult = await cm.getSeries(args);
    // Daily points from 2025-06-01 up to the pinned now (the day in progress may not be there yet).
    expect(series.digest.count).toBeGreaterThanOrEqual(210);
    expect(series.digest.first?.[0]).toBe("2025-06-01");
    const viaMcp = await mcp.call("get_series", args);
    expect(noCredits(series)).toEqual(noCredits(viaMcp.structuredContent as GetSeriesResult));
    const { text, data } = await cm.call("get_series", args);
    expect(noFooter(text)).toBe(noFooter(textOf(viaMcp)));
    expect(data.digest.count).toBe(series.digest.count);
    expect(cm.backend).toBe("inprocess");
  });

  it("has one function per tool, and every tool's example runs through it", async () => {
    for (const tool of allTools) {
      const fn = (cm as unknown as Record<string, (a: unknown) => Promise<unknown>>)[methodName(tool.name)];
      expect(typeof fn, tool.name).toBe("function");
      await expect(fn!(tool.example), tool.name).resolves.toBeTypeOf("object");
    }
  });

  it("throws a CryptoMetricsError carrying the tool's code, hints and the CLI's exit code", async () => {
    const err = await cm.getSeries({ metric: "lifespan/Cvdd", asset: "btcc" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CryptoMetricsError);
    expect(err).toMatchObject({ code: "unknown_asset", retryable: false, parameter: "asset", suggestions: ["btc"], exitCode: 2 });
    const denied = await cm.getMetricsVariation({ asset: "btc" }, { apiKey: "onchain-only" }).catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: "metric_not_allowed", exitCode: 3 });
    const unknown = await cm.getMetricsVariation({ asset: "btc" }, { apiKey: "not-a-key-of-ours" }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: "unauthorized", status: 401, exitCode: 3 });
    expect((unknown as Error).message).not.toContain("not-a-key-of-ours");
    // Arguments are still validated at run time, for callers without the types.
    const loose = await (cm.getSeries as (a: unknown) => Promise<unknown>)({ metric: "nope", asset: "btc" }).catch((e: unknown) => e);
    expect(loose).toMatchObject({ code: "unknown_metric" });
    // The pre-checks of every path hold here too: arguments too large to validate, and a "__proto__" key.
    const padded = { metric: "lifespan/Lth_mvrv", asset: "btc", padding: Array.from({ length: 600 }, (_, i) => i) };
    const huge = await (cm.getSeries as (a: unknown) => Promise<unknown>)(padded).catch((e: unknown) => e);
    expect(huge).toMatchObject({ code: "invalid_arguments", exitCode: 2 });
    expect((huge as Error).message).toMatch(/more than the maximum of 512 elements/);
    const proto = JSON.parse('{"metric":"lifespan/Lth_mvrv","asset":"btc","__proto__":{"x":1}}') as unknown;
    const dropped = await (cm.getSeries as (a: unknown) => Promise<unknown>)(proto).catch((e: unknown) => e);
    expect(dropped).toMatchObject({ code: "invalid_arguments", parameter: "__proto__" });
  });

  it("refuses a bad configuration when created, naming the setting", () => {
    expect(() => createCryptoMetrics({ baseUrl: "ftp://example.com", env: {} })).toThrow(/CRYPTO_METRICS_BASE_URL must use http or https/);
  });
});

describe("createCryptoMetrics (HTTP backend, same configuration)", () => {
  let upstream: Upstream;
  let service: Awaited<ReturnType<typeof createInProcessService>>;
  beforeAll(async () => {
    const dir = tempDir("cm-lib-http-");
    service = await createInProcessService({ keysFile: writeKeys(dir), stateDir: join(dir, "state"), now: () => NOW, apiKey: undefined });
    upstream = await restUpstream(service);
  });
  afterAll(async () => {
    await upstream.close();
    await service.close();
  });

  it("talks to the service at baseUrl with the key, and answers what the in-process service answers", async () => {
    const dir = tempDir("cm-lib-local-");
    const remote = createCryptoMetrics({ baseUrl: upstream.url, apiKey: "demo-key", env: {} });
    const local = createCryptoMetrics({
      apiKey: "demo-key",
      keysFile: writeKeys(dir),
      stateDir: join(dir, "state"),
      now: NOW_ISO,
      env: {},
    });
    try {
      expect(remote.backend).toBe("http");
      const [a, b] = await Promise.all([remote.getMetricsVariation({ asset: "eth" }), local.getMetricsVariation({ asset: "eth" })]);
      expect(a.rows).toEqual(b.rows);
      expect(upstream.seen.at(-1)).toMatchObject({ key: "demo-key" });
      // The variation, then its daily closes from the service's price source (the heatmap's candles).
      expect(upstream.seen.map((s) => s.url.split("?")[0])).toEqual(["/eth/derivatives/metrics-variation", "/liquidation_levels/heatmap"]);
      const denied = await remote
        .getSeries({ metric: "lifespan/Lth_mvrv", asset: "btc" }, { apiKey: "nobody-here" })
        .catch((e: unknown) => e);
      expect(denied).toMatchObject({ code: "unauthorized", exitCode: 3 });
    } finally {
      await remote.close();
      await local.close();
    }
  });
});

describe("the library's published types", () => {
  it("are generated from the tools' schemas and committed as generated (npm run docs)", () => {
    expect(readFileSync(TYPES_FILE, "utf8")).toBe(generateTypes());
  });

  it("reject what the schemas reject (checked by npm run typecheck)", () => {
    const typed = (cm: CryptoMetrics) => [
      // @ts-expect-error metric is one of the 24 series ids
      cm.getSeries({ metric: "lifespan/nope", asset: "btc" }),
      // @ts-expect-error asset is required
      cm.getMetricsVariation({}),
      // @ts-expect-error max_points is a number
      cm.getSeries({ metric: "lifespan/Lth_mvrv", asset: "btc", max_points: "10" }),
      cm.listAssets(),
    ];
    expect(typed).toBeTypeOf("function");
  });
});
