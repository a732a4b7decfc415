// The `call` command: one tool call through a real client, text on stdout, exit 1 on isError, and
// command-line strings coerced to the numbers and booleans the tool's schema wants.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coerceArgs } from "../src/call.js";
import { allTools } from "../src/tools/index.js";
import { NOW_ISO, tempDir } from "./mcp-fixture.js";

const ROOT = join(import.meta.dirname, "..");
const tool = (name: string) => allTools.find((t) => t.name === name)!;

function call(...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "src/cli.ts"), "call", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", CRYPTO_METRICS_NOW: NOW_ISO, CRYPTO_METRICS_STATE_DIR: tempDir("cm-call-"), CRYPTO_METRICS_LOG_LEVEL: "warn" },
  });
}

describe("coerceArgs", () => {
  it("converts numeric and boolean strings only where the schema wants them", () => {
    expect(coerceArgs(tool("get_liquidation_heatmap"), { asset: "btc", top_k: "5", include_matrix: "TRUE" })).toEqual({ asset: "btc", top_k: 5, include_matrix: true });
    expect(coerceArgs(tool("get_series"), { metric: "lifespan/Lth_mvrv", asset: "123", max_points: "abc" })).toEqual({ metric: "lifespan/Lth_mvrv", asset: "123", max_points: "abc" });
    expect(coerceArgs(tool("list_assets"), { nope: "1" })).toEqual({ nope: "1" });
  });
});

describe("crypto-metrics-mcp call", () => {
  it("prints the tool's text on stdout and exits 0", () => {
    const r = call("get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc", "--max_points", "10");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^btc lifespan\/Lth_mvrv/);
    expect(r.stdout).toContain("points (10 of 1,000");
  });

  it("prints an error's text on stderr and exits 1", () => {
    const r = call("get_series", "--metric", "lifespan/Cvdd", "--asset", "ethh");
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('Did you mean "eth"?');
  });
});
