// The `api` command as a real child process: the listening line, a served request, a clean SIGTERM.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { call } from "../../../harness/service.js";
import { sha256 } from "../../../src/backend/inprocess/keys.js";
import { SqliteStore } from "../../../src/backend/inprocess/metering/sqlite-store.js";

const CLI = ["--import", "tsx", "src/cli.ts"];

function env(stateDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CRYPTO_METRICS_STATE_DIR: stateDir,
    CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
    CRYPTO_METRICS_API_KEY: "",
    CRYPTO_METRICS_KEYS_FILE: "",
    CRYPTO_METRICS_LOG_LEVEL: "",
  };
}

describe("crypto-metrics-mcp api", () => {
  it("prints the listening line, serves, and exits 0 on SIGTERM with usage recorded", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "cm-cli-"));
    const child = spawn(process.execPath, [...CLI, "api", "--port", "0"], { env: env(stateDir), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    const base = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (d) => {
        stderr += d;
        const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
    });
    expect(Number(base.split(":").at(-1))).toBeGreaterThan(0);

    const r = await call(base, "/btc/lifespan/Lth_mvrv?startDate=2025-12-01", { key: "demo" });
    expect(r.status).toBe(200);
    // Dec 1–30: the 31st's daily value appears once that day has ended (now is 2025-12-31T12:00Z).
    expect(r.json).toHaveLength(30);
    expect(r.headers["x-credits-remaining"]).toBe("999999");

    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
    expect(stdout).toBe("");
    expect(stderr.match(/listening on/g)).toHaveLength(1);
    const store = SqliteStore.open(join(stateDir, "metering.sqlite"));
    expect(await store.spent(sha256("demo").toString("hex"))).toBe(1);
    await store.close();
  });

  it("exits 2 with a message naming the flag on bad input", () => {
    const stateDir = mkdtempSync(join(tmpdir(), "cm-cli-"));
    const r = spawnSync(process.execPath, [...CLI, "api", "--port", "99999"], { env: env(stateDir), encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--port must be a port number");
    expect(r.stdout).toBe("");
  });

  it("exits 2 on a keys file naming an unknown plan", () => {
    const stateDir = mkdtempSync(join(tmpdir(), "cm-cli-"));
    const keys = join(stateDir, "keys.json");
    writeFileSync(keys, JSON.stringify({ keys: [{ key: "k", plan: "gold" }] }));
    const r = spawnSync(process.execPath, [...CLI, "api", "--port", "0"], {
      env: { ...env(stateDir), CRYPTO_METRICS_KEYS_FILE: keys },
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/keys\[0\]\.plan is not one of the defined plans/);
  });
});
