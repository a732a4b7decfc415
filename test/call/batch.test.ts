// `call --batch` through real processes: JSON Lines in, one result per line out in input order, a
// failed line carries its error without stopping the others, bad input refused before any call.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { call, cliEnv, runCli } from "../../harness/cli.js";
import { allTools } from "../../src/tools/index.js";

const jsonl = (lines: unknown[]) => lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n";
const parsed = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("call --batch", () => {
  it("answers every line in input order, ids echoed; a failed line carries its error and the rest still run", async () => {
    const meter = cliEnv();
    const file = join(meter.stateDir, "..", "calls.jsonl");
    const assets = ["btc", "eth", "sol", "doge", "ada", "xrp", "ltc", "bnb", "trx", "avax", "link", "dot"];
    const lines = [
      ...assets.map((asset, i) => ({ tool: "get_metrics_variation", arguments: { asset }, id: i })),
      { tool: "get_series", arguments: { metric: "lifespan/Cvdd", asset: "btcc" }, id: "bad" },
      "",
      // Every tool's own example, as `call TOOL --help` prints it.
      ...allTools.map((t) => ({ tool: t.name, arguments: t.example })),
    ];
    writeFileSync(file, jsonl(lines));
    const [batch, single] = await Promise.all([
      call(meter.env(), "--batch", file, "--concurrency", "4"),
      call(cliEnv().env(), "get_metrics_variation", "--asset", "sol", "--format", "json"),
    ]);
    expect(batch.code).toBe(2); // the one failure is an argument error
    const out = parsed(batch.stdout);
    expect(out).toHaveLength(assets.length + 1 + allTools.length);
    expect(out.map((o) => o.line)).toEqual([
      ...assets.map((_, i) => i + 1),
      assets.length + 1,
      ...allTools.map((_, i) => assets.length + 3 + i),
    ]);
    assets.forEach((asset, i) => expect(out[i]).toMatchObject({ id: i, tool: "get_metrics_variation", ok: true, result: { asset } }));
    expect(out[assets.length]).toMatchObject({ id: "bad", ok: false, error: { code: "unknown_asset", suggestions: ["btc"] } });
    for (const o of out.slice(assets.length + 1)) expect(o, JSON.stringify(o).slice(0, 300)).toMatchObject({ ok: true });
    // A line's result is what the single call prints (but for the meter's balance).
    const one = JSON.parse(single.stdout) as Record<string, unknown>;
    expect({ ...(out[2]!.result as object), credits: undefined }).toEqual({ ...one, credits: undefined });
    expect(batch.stderr).toMatch(/1 of \d+ batch lines failed \(1 unknown_asset\)/);
  });

  it("reads stdin with -, gives text results with --format text, and with --no-wait exits 4 with the wait when the rate window fills", async () => {
    const slow = cliEnv("slow"); // one request per minute
    const input = jsonl([
      { tool: "get_metrics_variation", arguments: { asset: "btc" } },
      { tool: "get_metrics_variation", arguments: { asset: "eth" } },
      { tool: "get_metrics_variation", arguments: { asset: "sol" } },
    ]);
    const r = await runCli(["call", "--batch", "-", "--format", "text", "--concurrency", "1", "--no-wait"], slow.env(), input);
    expect(r.code).toBe(4);
    const out = parsed(r.stdout);
    expect(out[0]).toMatchObject({ line: 1, ok: true });
    expect(out[0]!.text).toMatch(/^Metrics variation for btc/);
    expect(out.slice(1).map((o) => (o.error as { code: string }).code)).toEqual(["rate_limited", "rate_limited"]);
    expect(r.stderr).toMatch(/2 of 3 batch lines failed \(2 rate_limited; retry after \d+ s\)/);
  });

  it("paces itself by the key's rate window: 45 lines against 20 requests per 5 s are all answered, exit 0, the waits said on stderr", async () => {
    const meter = cliEnv("paced");
    const keysFile = join(meter.stateDir, "..", "paced-keys.json");
    writeFileSync(keysFile, JSON.stringify({ keys: [{ key: "paced", credits: 1_000, rateLimit: { requests: 20, windowSeconds: 5 } }] }));
    const lines = Array.from({ length: 45 }, (_, i) => ({
      tool: "get_series",
      arguments: {
        metric: "lifespan/Lth_mvrv",
        asset: "btc",
        startDate: "2025-01-01",
        endDate: `2025-02-${String(1 + (i % 28)).padStart(2, "0")}`,
      },
      id: i,
    }));
    const r = await runCli(["call", "--batch", "-"], meter.env({ CRYPTO_METRICS_KEYS_FILE: keysFile }), jsonl(lines));
    expect(r.code, r.stderr).toBe(0);
    const out = parsed(r.stdout);
    expect(out.map((o) => o.id)).toEqual(lines.map((l) => l.id));
    expect(out.every((o) => o.ok === true)).toBe(true);
    // Two full windows (20 + 20) before the last 5: the batch waited at least twice, and said so.
    expect(r.stderr.match(/the key's rate window is full, waiting \d+ s/g)?.length).toBeGreaterThanOrEqual(2);
    expect(r.stderr).not.toMatch(/failed/);
  }, 60_000);

  it("refuses a malformed line, an unknown tool or an empty batch before any call: exit 2, the line named, nothing on stdout or charged", async () => {
    const meter = cliEnv("tiny"); // 3 credits
    const good = { tool: "get_metrics_variation", arguments: { asset: "btc" } };
    const cases: Array<[string, RegExp]> = [
      [jsonl([good, '{"tool": "get_series", "arguments": {']), /batch line 2: not valid JSON/],
      [
        jsonl([good, good, { tool: "get_metric_variation", arguments: { asset: "eth" } }]),
        /batch line 3: unknown tool "get_metric_variation" \(did you mean "get_metrics_variation"\?\)/,
      ],
      [jsonl([good, { tool: "get_series", args: {} }]), /batch line 2: unknown key "args"/],
      [jsonl([good, { tool: "list_assets", arguments: ["btc"] }]), /batch line 2: "arguments" must be an object/],
      ["\n\n", /the batch has no lines/],
    ];
    const runs = await Promise.all(cases.map(([input]) => runCli(["call", "--batch", "-"], meter.env(), input)));
    runs.forEach((r, i) => {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      const error = (JSON.parse(r.stderr) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("invalid_batch_line");
      expect(error.message).toMatch(cases[i]![1]);
    });
    const after = await call(meter.env(), "get_metrics_variation", "--asset", "btc", "--format", "json");
    expect(JSON.parse(after.stdout).credits.remaining).toBe(1);
  });
});
