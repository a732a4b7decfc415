// The small things a careful analyst trips on: a range wholly outside a series' history answered
// for free with the span that exists, an unknown flag pointed at the real one, an unusable state
// directory refused at once. Through a real MCP client and through `call`.
import { describe, expect, it } from "vitest";

import { call, cliEnv, runCli } from "../../harness/cli.js";
import { connect, errorOf, textOf } from "../../harness/mcp.js";
import { nearestArgument } from "../../src/tools/validation.js";

const remaining = (r: { structuredContent?: unknown }) => (r.structuredContent as { credits: { remaining: number } }).credits.remaining;

describe("a range wholly outside the history", () => {
  it("is answered with the span that exists, without a charge (MCP)", async () => {
    const f = await connect();
    try {
      const before = remaining(await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-12-27" }));
      const after = await f.call("get_series", { metric: "fees/fee_price_usd", asset: "btc", startDate: "2026-03-01" });
      expect(after.isError).toBe(true);
      expect(textOf(after)).toBe(
        "No data: startDate 2026-03-01 is after its last data (btc fees/fee_price_usd: its history runs 2010-07-18 to 2025-12-27). Ask within that span. Nothing was charged.",
      );
      expect(errorOf(after)).toMatchObject({ code: "invalid_parameter", parameter: "startDate", retryable: false });
      // Before an asset existed, and past a history that ended (ETH mining at the Merge).
      const early = await f.call("get_ohlcv", { metric: "price", asset: "sol", endDate: "2015-01-01" });
      expect(textOf(early)).toBe(
        "No data: endDate 2015-01-01 is before its first data (sol price: its history runs 2020-04-10 to 2025-12-28). Ask within that span. Nothing was charged.",
      );
      const merged = await f.call("get_series", { metric: "mining/RevHashRateUSD", asset: "eth", startDate: "2024-01-01" });
      expect(textOf(merged)).toContain("its history runs 2015-08-07 to 2022-09-15");
      const hourly = await f.call("get_ohlcv", {
        metric: "derivatives/Volume_usd",
        asset: "btc",
        timeframe: "1h",
        startDate: "2025-12-28T13:00:00Z",
      });
      expect(textOf(hourly)).toContain("to 2025-12-28 11:00 UTC");
      const compared = await f.call("compare", { metric: "price", assets: ["btc", "eth"], startDate: "2026-01-01" });
      expect(textOf(compared)).toContain("startDate 2026-01-01 is after its last data (btc price");
      // Nothing of the five refusals was charged; a range that overlaps the history is served.
      const overlap = await f.call("get_series", {
        metric: "fees/fee_price_usd",
        asset: "btc",
        startDate: "2025-12-20",
        endDate: "2026-03-01",
      });
      expect(overlap.isError).toBeFalsy();
      expect(remaining(overlap)).toBe(before - 1);
    } finally {
      await f.close();
    }
  });

  it("is answered the same through call: exit 2, nothing on stdout, nothing charged", async () => {
    const env = cliEnv().env();
    const out = await call(env, "get_series", "--metric", "fees/fee_price_usd", "--asset", "btc", "--startDate", "2026-03-01");
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain(
      "No data: startDate 2026-03-01 is after its last data (btc fees/fee_price_usd: its history runs 2010-07-18 to 2025-12-27)",
    );
    const next = await call(env, "get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc", "--startDate", "2025-12-27");
    expect(next.stdout).toMatch(/credits: 1 charged, 999 left/);
  });
});

describe("an unknown argument", () => {
  it("gets the nearest real name: a prefix, another spelling or a synonym before edit distance", () => {
    const accepted = ["metric", "asset", "startDate", "endDate", "entity_name", "max_points", "resample", "chart"];
    expect(nearestArgument("start", accepted)).toBe("startDate");
    expect(nearestArgument("end", accepted)).toBe("endDate");
    expect(nearestArgument("start_date", accepted)).toBe("startDate");
    expect(nearestArgument("max", accepted)).toBe("max_points");
    expect(nearestArgument("from", accepted)).toBe("startDate");
    expect(nearestArgument("assets", accepted)).toBe("asset");
    expect(nearestArgument("charts", accepted)).toBe("chart");
    expect(nearestArgument("apiKey", accepted)).toBeUndefined();
  });

  it("--start is pointed at --startDate through call and MCP, and nothing is charged", async () => {
    const env = cliEnv().env();
    const out = await call(env, "get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc", "--start", "2025-01-01");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      "get_series has no flag --start; did you mean --startDate? (call get_series --help lists its flags; nothing was charged)",
    );
    expect(out.stderr).not.toContain("chart?");
    // A flag close to none passes on to validation, which lists what the tool accepts.
    const far = await call(env, "get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc", "--apiKey", "x");
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('unknown argument "apiKey"; get_series accepts: metric, asset, startDate');
    const f = await connect();
    try {
      const r = await f.call("get_ohlcv", { metric: "price", asset: "btc", start: "2025-01-01" });
      expect(textOf(r)).toContain('unknown argument "start" (did you mean "startDate"?)');
    } finally {
      await f.close();
    }
  });
});

describe("an unusable state directory", () => {
  it("exits 2 at once, naming the setting and the fix", async () => {
    const rig = cliEnv();
    const env = rig.env();
    // A file where a directory is needed (the rig's keys file), and kernel file systems, where
    // Node's recursive mkdir would loop at full CPU instead of failing.
    const cases: Array<[string[], RegExp]> = [
      [["--state-dir", "/proc/nope"], /--state-dir \/ CRYPTO_METRICS_STATE_DIR \(\/proc\/nope\) is on a kernel file system/],
      [["--state-dir", `${rig.keysFile}/sub`], /keys\.json\/sub\/metering\.sqlite cannot be opened for writing \(ENOTDIR\)/],
      [
        ["--store", "sqlite:/sys/metering.sqlite"],
        /--store \/ CRYPTO_METRICS_STORE \(directory \/sys\) is on a kernel file system.*--store sqlite:/,
      ],
    ];
    for (const [flags, message] of cases) {
      const out = await runCli(["call", ...flags, "list_assets", "--asset", "btc"], env);
      expect(out.code).toBe(2);
      expect(out.stdout).toBe("");
      expect(out.stderr).toMatch(message);
    }
    // The same check for the servers.
    const stdio = await runCli(["stdio", "--state-dir", "/proc/nope"], env);
    expect(stdio.code).toBe(2);
    expect(stdio.stdout).toBe("");
  });
});
