// `call` as a script sees it, through real processes: text, JSON and CSV on stdout and nothing
// else, errors on stderr (JSON with --format json), exit codes by cause, help from the schemas.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

import { call, cliEnv } from "../../harness/cli.js";
import { connect, type Fixture } from "../../harness/mcp.js";
import { rawUpstream, type Upstream } from "../../harness/upstream.js";
import { commandLine, toolHelp } from "../../src/call/help.js";
import { allTools } from "../../src/tools/index.js";

const SERIES = ["get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc"];

/** Every object's keys in sorted order, at every depth. */
function keysSorted(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSorted);
  if (!value || typeof value !== "object") return true;
  const keys = Object.keys(value);
  return keys.join("\u0000") === [...keys].sort().join("\u0000") && Object.values(value).every(keysSorted);
}

describe("call --format", () => {
  let mcp: Fixture;
  beforeAll(async () => {
    mcp = await connect();
  });
  afterAll(async () => {
    await mcp.close();
  });

  it("text (the default) prints the digest a model reads, json its structured result with sorted keys", async () => {
    const env = cliEnv().env();
    const [text, json] = await Promise.all([
      call(env, ...SERIES, "--max_points", "10"),
      call(env, ...SERIES, "--max_points", "10", "--format", "json"),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^btc lifespan\/Lth_mvrv/);
    expect(text.stdout).toContain("points (10 of 1,000");
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(keysSorted(doc)).toBe(true);
    const series = allTools.find((t) => t.name === "get_series")!;
    expect(() => series.output.parse(doc)).not.toThrow();
    // The same call over MCP gives the same structured result (credits aside: another meter).
    const viaMcp = (await mcp.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", max_points: 10 }))
      .structuredContent as Record<string, unknown>;
    expect({ ...doc, credits: undefined }).toEqual({ ...viaMcp, credits: undefined });
    expect(json.stderr).toBe("");
  });

  it("csv prints the same rows as the resource behind the digest, header first", async () => {
    const env = cliEnv().env();
    const [series, ohlcv, variation] = await Promise.all([
      call(env, ...SERIES, "--startDate", "2025-11-01", "--format", "csv"),
      call(
        env,
        "get_ohlcv",
        "--metric",
        "derivatives/Volume_usd",
        "--asset",
        "eth",
        "--timeframe",
        "1h",
        "--exchange",
        "binance",
        "--startDate",
        "2025-12-20",
        "--format",
        "csv",
      ),
      call(env, "get_metrics_variation", "--asset", "eth", "--format", "csv"),
    ]);
    const read = async (uri: string) => ((await mcp.client.readResource({ uri })).contents[0] as { text: string }).text;
    expect(series.code).toBe(0);
    expect(series.stdout).toBe(await read("crypto-metrics://series/btc/lifespan/Lth_mvrv?startDate=2025-11-01"));
    expect(series.stdout.split("\n")[0]).toBe("time,lth_mvrv");
    expect(ohlcv.code).toBe(0);
    expect(ohlcv.stdout).toBe(
      await read("crypto-metrics://series/eth/derivatives/Volume_usd?startDate=2025-12-20&timeframe=1h&exchange=binance"),
    );
    expect(variation.code).toBe(0);
    const records = JSON.parse(await read("crypto-metrics://variation/eth")) as Array<Record<string, unknown>>;
    const lines = variation.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(Object.keys(records[0]!).join(","));
    expect(lines).toHaveLength(records.length + 1);
    expect(lines[1]!.split(",")[4]).toBe(String(records[0]!.last_value));
  });

  it("csv on a tool without records is refused before the call: exit 2, nothing on stdout, nothing charged", async () => {
    const meter = cliEnv("tiny"); // 3 credits: a heatmap (5) could not be charged anyway, a variation (2) can
    const heatmap = await call(meter.env(), "get_liquidation_heatmap", "--asset", "btc", "--format", "csv");
    expect(heatmap.code).toBe(2);
    expect(heatmap.stdout).toBe("");
    expect(heatmap.stderr).toMatch(/--format csv .*get_liquidation_heatmap.*--format json/);
    const listing = await call(meter.env(), "list_assets", "--search", "sol", "--format", "csv");
    expect(listing.code).toBe(2);
    expect(listing.stdout).toBe("");
    const after = await call(meter.env(), "get_metrics_variation", "--asset", "btc", "--format", "json");
    expect(JSON.parse(after.stdout).credits).toEqual({ charged: 2, remaining: 1 });
  });

  it("csv of a range outside the history is refused as every format refuses it: exit 2, nothing on stdout, nothing charged", async () => {
    const meter = cliEnv("tiny");
    for (const format of ["csv", "json", "text"]) {
      const r = await call(meter.env(), ...SERIES, "--startDate", "2005-01-01", "--endDate", "2006-01-01", "--format", format);
      expect(r.code, format).toBe(2);
      expect(r.stdout, format).toBe("");
      expect(r.stderr, format).toMatch(/No data: endDate 2006-01-01 is before its first data .*nothing was charged/i);
    }
    const after = await call(meter.env(), "get_metrics_variation", "--asset", "btc", "--format", "json");
    expect(JSON.parse(after.stdout).credits).toEqual({ charged: 2, remaining: 1 });
  });
});

describe("call exit codes by cause", () => {
  let down: Upstream;
  beforeAll(async () => {
    down = await rawUpstream((_req, res) => {
      res.writeHead(503, { "retry-after": "0", "content-type": "application/json" });
      res.end(JSON.stringify({ error: { status: 503, code: "unavailable", message: "maintenance" } }));
    });
  });
  afterAll(async () => {
    await down.close();
  });

  it("2 invalid arguments, 3 key or entitlement, 4 rate limited (with the wait) or credits exhausted, 5 upstream down; JSON on stderr with --format json", async () => {
    const meter = cliEnv();
    const [invalid, unknownKey, notAllowed, upstream] = await Promise.all([
      call(meter.env(), "get_series", "--metric", "lifespan/Cvdd", "--asset", "btcc", "--format", "json"),
      call(meter.env({ CRYPTO_METRICS_API_KEY: "nobody" }), ...SERIES),
      call(meter.env({ CRYPTO_METRICS_API_KEY: "onchain-only" }), "get_metrics_variation", "--asset", "btc", "--format", "json"),
      call(meter.env({ CRYPTO_METRICS_BASE_URL: down.url, CRYPTO_METRICS_API_KEY: "k" }), ...SERIES),
    ]);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toBe("");
    const error = (JSON.parse(invalid.stderr) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ code: "unknown_asset", retryable: false, parameter: "asset", suggestions: ["btc"], exit_code: 2 });
    expect(error.message).toMatch(/Did you mean "btc"/);
    expect(unknownKey.code).toBe(3);
    expect(unknownKey.stderr).toContain("API key was rejected");
    expect(unknownKey.stderr).not.toContain("nobody");
    expect(notAllowed.code).toBe(3);
    expect(JSON.parse(notAllowed.stderr).error.code).toBe("metric_not_allowed");
    expect(upstream.code).toBe(5);
    expect(upstream.stdout).toBe("");
    expect(upstream.stderr).toMatch(/unavailable/);

    const slow = cliEnv("slow"); // one request per minute, counted across processes by the metering store
    expect((await call(slow.env(), ...SERIES)).code).toBe(0);
    const limited = await call(slow.env(), ...SERIES);
    expect(limited.code).toBe(4);
    expect(limited.stdout).toBe("");
    expect(limited.stderr).toMatch(/Retry after \d+ s/);

    const tiny = cliEnv("tiny"); // 3 credits, a variation costs 2
    await call(tiny.env(), "get_metrics_variation", "--asset", "btc");
    const broke = await call(tiny.env(), "get_metrics_variation", "--asset", "btc", "--format", "json");
    expect(broke.code).toBe(4);
    expect(JSON.parse(broke.stderr).error).toMatchObject({ code: "credits_exhausted", credits_remaining: 1 });
  });
});

describe("call's command line", () => {
  it("reports conflicting or malformed flags with exit 2, the flag and the fix, and nothing on stdout", async () => {
    const env = cliEnv().env();
    const cases: Array<[string[], RegExp]> = [
      [["--batch", "x.jsonl", "get_series"], /--batch reads each line's tool .* drop the tool name/],
      [[...SERIES, "--format", "json", "--format", "csv"], /--format is given twice/],
      [[...SERIES, "--asset", "eth"], /--asset is given twice .* give it once/],
      [["get_seris", "--asset", "btc"], /unknown tool "get_seris" \(did you mean get_series\?\)/],
    ];
    const runs = await Promise.all(cases.map(([args]) => call(env, ...args)));
    runs.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(cases[i]![1]);
    });
    // With --batch or --format json, the usage error itself is JSON.
    expect(JSON.parse(runs[0]!.stderr).error).toMatchObject({ code: "usage", exit_code: 2 });
  });

  it("takes booleans as bare flags and numbers as numbers", async () => {
    const env = cliEnv().env();
    const [on, off] = await Promise.all([
      call(env, "get_liquidation_heatmap", "--asset", "btc", "--top_k", "2", "--include_matrix", "--format", "json"),
      call(env, "get_liquidation_heatmap", "--asset", "btc", "--no-include_matrix", "--format", "json"),
    ]);
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout).digest.binned).toBeDefined();
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout).digest.binned).toBeUndefined();
  });
});

/** Tools whose example gives an array argument, found from their schemas (not by name). */
const arrayExamples = allTools.flatMap((tool) => {
  const lists = Object.entries(tool.example ?? {}).filter(([, v]) => Array.isArray(v) && v.length > 1);
  return lists.length ? [{ tool, lists }] : [];
});

describe("call with array arguments", () => {
  it.skipIf(arrayExamples.length === 0)("takes a list as repeated flags, a comma list or a JSON array, with the same result", async () => {
    const env = cliEnv().env();
    for (const { tool, lists } of arrayExamples) {
      const scalars = Object.entries(tool.example!)
        .filter(([name]) => !lists.some(([l]) => l === name))
        .flatMap(([n, v]) => [`--${n}`, String(v)]);
      const forms = [
        lists.flatMap(([n, v]) => (v as unknown[]).flatMap((x) => [`--${n}`, String(x)])),
        lists.flatMap(([n, v]) => [`--${n}`, (v as unknown[]).join(",")]),
        lists.flatMap(([n, v]) => [`--${n}=${JSON.stringify(v)}`]),
      ];
      const runs = await Promise.all(forms.map((form) => call(env, tool.name, ...scalars, ...form, "--format", "json")));
      for (const r of runs) expect(r.code, `${tool.name}: ${r.stderr}`).toBe(0);
      const [a, b, c] = runs.map((r) => ({ ...(JSON.parse(r.stdout) as object), credits: undefined }));
      expect(b).toEqual(a);
      expect(c).toEqual(a);
    }
  });
});

describe("call --help", () => {
  it("lists every tool; a tool's help names every argument with its accepted values and its example", async () => {
    const env = cliEnv().env();
    const [all, one] = await Promise.all([call(env, "--help"), call(env, "get_series", "--help")]);
    expect(all.code).toBe(0);
    for (const t of allTools) expect(all.stdout).toContain(t.name);
    expect(all.stdout).toMatch(/Exit codes: 0 ok · 2 usage/);
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(toolHelp(allTools.find((t) => t.name === "get_series")!));
    for (const tool of allTools) {
      const help = toolHelp(tool);
      const shape = tool.input.shape as Record<string, z.ZodType>;
      for (const [name, schema] of Object.entries(shape)) {
        expect(help).toContain(`--${name}`);
        const json = z.toJSONSchema(schema, { io: "input" }) as { enum?: string[]; items?: { enum?: string[] } };
        for (const option of json.enum ?? json.items?.enum ?? []) expect(help, `${tool.name} --${name}`).toContain(option);
      }
      expect(tool.example, `${tool.name} has no example`).toBeDefined();
      expect(help).toContain(`Example:\n  ${commandLine(tool, tool.example!)}`);
    }
  });
});
