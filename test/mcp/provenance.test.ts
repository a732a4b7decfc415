// Provenance: every answer says where its figures come from, in its text and its structuredContent;
// an answer reaching past the simulation's calibration says that part is a simulated continuation.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { call, cliEnv } from "../../harness/cli.js";
import { connect, type Fixture, tempDir, textOf, writeKeys } from "../../harness/mcp.js";
import { SILENT } from "../../harness/mock-upstream.js";
import { type RestRig, startRest } from "../../harness/service.js";
import { HttpBackend } from "../../src/backend/http/index.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { REF_DAY } from "../../src/backend/inprocess/world/levels.js";
import { closesOf } from "../../src/backend/inprocess/world/market/calendar.js";
import { REFERENCE_DATE } from "../../src/backend/inprocess/world/market/reference.js";
import { createServer } from "../../src/server.js";

const WITHIN = "Source: simulated market, calibrated to real history through 2025-12-28; present these figures as simulated.";
const BEYOND =
  "Source: simulated market, calibrated to real history through 2025-12-28; later days are a simulated continuation, not market data.";
const LATER = Date.parse("2026-11-27T05:30:00Z");

const lastLine = (r: CallToolResult) => textOf(r).trimEnd().split("\n").at(-1);
const sourceOf = (r: CallToolResult) => (r.structuredContent as { source?: unknown }).source;

/** One default-ish call of every tool. */
const CALLS: Array<[string, Record<string, unknown>]> = [
  ["list_assets", {}],
  ["get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" }],
  ["get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h" }],
  ["get_ohlcv", { metric: "price", asset: "eth" }],
  ["get_metrics_variation", { asset: "sol" }],
  ["get_liquidation_heatmap", { asset: "btc", timeframe: "1h" }],
  ["compare", { metric: "price", assets: ["btc", "eth", "sol"] }],
];

async function clientAt(now: number): Promise<Fixture> {
  const dir = tempDir();
  const backend = await InProcessBackend.create({ apiKey: "demo-key", keysFile: writeKeys(dir), stateDir: `${dir}/state`, now: () => now });
  return connect({ backend });
}

describe("the calibration day", () => {
  it("is the anchors' last real day, the one every reference figure is dated", () => {
    expect(REF_DAY).toBe(closesOf("btc").at(-1)![0]);
    expect(REFERENCE_DATE).toBe("2025-12-28");
  });
});

describe("with the clock on the calibration day", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await connect();
  });
  afterAll(() => f.close());

  it("says simulated in the instructions", () => {
    expect(f.client.getInstructions()).toContain("Simulated crypto market");
    expect(f.client.getInstructions()).toContain("calibrated to real history through 2025-12-28; present figures as simulated");
  });

  it.each(CALLS)("%s %j ends with the source line and carries source", async (name, args) => {
    const r = await f.call(name, args);
    expect(r.isError).toBeFalsy();
    expect(lastLine(r)).toBe(WITHIN);
    expect(sourceOf(r)).toEqual({ kind: "simulated", calibratedThrough: "2025-12-28", beyondCalibration: false });
  });

  it("adds no source to an error: it has no figures", async () => {
    const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "ethh" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).not.toContain("Source:");
  });
});

describe("with the clock eleven months past the calibration day", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await clientAt(LATER);
  });
  afterAll(() => f.close());

  it("names the day after which compare's prices are a simulated continuation", async () => {
    const r = await f.call("compare", { metric: "price", assets: ["btc", "eth", "sol"], startDate: "2026-01-01" });
    expect(r.isError).toBeFalsy();
    expect(lastLine(r)).toBe(BEYOND);
    expect(sourceOf(r)).toEqual({ kind: "simulated", calibratedThrough: "2025-12-28", beyondCalibration: true });
  });

  it.each(CALLS.filter(([name]) => name !== "list_assets"))("%s %j by default reaches past it", async (name, args) => {
    const r = await f.call(name, args);
    expect(r.isError).toBeFalsy();
    expect(lastLine(r)).toBe(BEYOND);
  });

  it("a range that ends by the calibration day stays within it", async () => {
    const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-01-01", endDate: "2025-12-28" });
    expect(lastLine(r)).toBe(WITHIN);
    const next = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-01-01", endDate: "2025-12-29" });
    expect(lastLine(next)).toBe(BEYOND);
  });
});

describe("through call", () => {
  it("prints the source line last, and the same source in JSON", async () => {
    const env = cliEnv().env({ CRYPTO_METRICS_NOW: "2026-11-27T05:30:00Z" });
    const [text, json] = await Promise.all([
      call(env, "compare", "--metric", "price", "--assets", "btc,eth,sol", "--startDate", "2026-01-01"),
      call(env, "get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc", "--endDate", "2025-12-01", "--format", "json"),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout.trimEnd().split("\n").at(-1)).toBe(BEYOND);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { source: unknown }).source).toEqual({
      kind: "simulated",
      calibratedThrough: "2025-12-28",
      beyondCalibration: false,
    });
  });
});

describe("with the real service", () => {
  let h: RestRig;
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    h = await startRest();
    const backend = new HttpBackend({ baseUrl: h.rest.url, apiKey: "full-key", timeouts: { callMs: 5_000 }, log: SILENT });
    const server = createServer({ backend, config: { apiKey: "full-key" } });
    client = new Client({ name: "provenance", version: "1" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([client.connect(a), server.connect(b)]);
    close = async () => {
      await client.close();
      await server.close();
      await backend.close();
      await h.stop();
    };
  });
  afterAll(() => close());

  it("names the host and the time the data was received, and never says simulated", async () => {
    const host = new URL(h.rest.url).host;
    const before = Date.now();
    const r = (await client.callTool({
      name: "get_series",
      arguments: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-12-01" },
    })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    const source = sourceOf(r) as { kind: string; host: string; asOf: string };
    expect(source.kind).toBe("service");
    expect(source.host).toBe(host);
    expect(Date.parse(source.asOf)).toBeGreaterThanOrEqual(before - 1_000);
    expect(lastLine(r)).toBe(`Source: ${host}, data as of ${source.asOf.slice(0, 10)} ${source.asOf.slice(11, 16)} UTC.`);
    expect(textOf(r)).not.toMatch(/simulated/i);
    expect(client.getInstructions()).not.toMatch(/simulated/i);
  });

  it("dates a metrics-variation by its records' last_date, and says when the price is not beside it", async () => {
    const r = (await client.callTool({ name: "get_metrics_variation", arguments: { asset: "btc" } })) as CallToolResult;
    expect(textOf(r)).toMatch(/^Metrics variation for btc on Tue 2025-12-30 UTC \(last values are that day's; 24h: vs Mon 2025-12-29\)/);
    expect(textOf(r)).toContain("n/a | | | not in this summary | price (get_ohlcv metric=price has it)");
    expect(r.structuredContent).toMatchObject({ day: "2025-12-30", priceFrom: "get_ohlcv metric=price" });
    expect(r.structuredContent).not.toHaveProperty("price");
  });
});

describe("the README", () => {
  it("says it at the top in the instructions' words", async () => {
    const { readFileSync } = await import("node:fs");
    const top = readFileSync(new URL("../../README.md", import.meta.url), "utf8").slice(0, 1_500);
    expect(top).toContain("the market is simulated, calibrated to real\nhistory through 2025-12-28; present figures as simulated");
  });
});
