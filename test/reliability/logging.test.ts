// Logging never ends the process: a stdio server whose client closed its stderr pipe, and an `api`
// server whose stderr file sits past the file size limit (as on a full disk), keep answering while
// they log; a warning repeated word for word is written once per window, then summarised.
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { BIG_RATE, tempDir, writeKeys } from "../../harness/service.js";
import { spawnCli, type Spawned, StdioPeer } from "../../harness/spawn.js";
import { openSqlite } from "../../src/backend/inprocess/metering/sqlite-driver.js";
import { addLogSink, log, REPEAT_WINDOW_MS, setLogLevel } from "../../src/log.js";

const running: Spawned[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.child.kill("SIGKILL");
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function status(url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { "x-api-key": key } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a stderr that cannot be written", () => {
  it("leaves a stdio server answering after its client closed the stderr pipe", async () => {
    const proc = spawnCli(["stdio"], {
      CRYPTO_METRICS_STATE_DIR: join(tempDir("cm-rel-log-"), "state"),
      CRYPTO_METRICS_LOG_LEVEL: "debug",
    });
    running.push(proc);
    const peer = new StdioPeer(proc);
    await peer.initialize();
    proc.child.stderr.destroy();
    // Each of these is a warning on stderr: the first write after the close fails with EPIPE.
    for (let i = 0; i < 20; i++) proc.child.stdin.write(`not json ${i}\n`);
    expect(await peer.request("ping")).toMatchObject({ result: {} });
    expect(await peer.request("tools/list")).toHaveProperty("result.tools");
    proc.child.stdin.end();
    expect((await proc.exited).code).toBe(0);
  }, 60_000);

  it("leaves an api server answering, through a store outage, with stderr on a file past the size limit", async () => {
    const { dir, keysFile } = writeKeys({ keys: [{ key: "k", credits: 1_000, rateLimit: BIG_RATE }] }, tempDir("cm-rel-log-"));
    const stateDir = join(dir, "state");
    const logFile = join(dir, "api.log");
    // Already past `ulimit -f 4096` (2 or 4 MiB, by the shell's block size), which leaves the store
    // room: every write to the log fails with EFBIG, as on a full disk.
    const filled = "x".repeat(4 * 1024 * 1024 + 1);
    writeFileSync(logFile, filled);
    const port = await freePort();
    const proc = spawnCli(
      ["api", "--port", String(port), "--keys-file", keysFile, "--state-dir", stateDir],
      { CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z", CRYPTO_METRICS_LOG_LEVEL: "debug" },
      [],
      `ulimit -f 4096 && exec 2>>${logFile}`,
    );
    running.push(proc);
    const url = `http://127.0.0.1:${port}/btc/lifespan/Lth_mvrv?startDate=2025-06-01&endDate=2025-06-02`;
    let first = 0;
    for (let i = 0; i < 100 && first !== 200; i++) {
      first = await status(url, "k").catch(() => 0);
      if (first !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(first).toBe(200);
    const store = join(stateDir, "metering.sqlite");
    const backup = join(dir, "backup.sqlite");
    const db = openSqlite(store, { busyTimeoutMs: 5_000 });
    db.exec(`VACUUM INTO '${backup}'`);
    db.close();
    // Lost store: every request is a 503 and logs a warning (and the loss an error).
    for (const suffix of ["", "-wal", "-shm"]) rmSync(store + suffix, { force: true });
    for (let i = 0; i < 60; i++) expect(await status(url, "k")).toBe(503);
    for (let i = 0; i < 20; i++) expect(await status(url, "nope")).toBe(401);
    copyFileSync(backup, store);
    chmodSync(store, 0o600);
    expect(await status(url, "k")).toBe(200);
    expect(proc.child.exitCode).toBe(null);
    expect(readFileSync(logFile, "utf8") === filled).toBe(true);
  }, 60_000);
});

describe("repeated warnings", () => {
  afterEach(() => {
    vi.useRealTimers();
    setLogLevel("info");
  });

  it("are written once per window and then summarised with their count; other lines pass", () => {
    vi.useFakeTimers();
    setLogLevel("silent");
    const lines: string[] = [];
    const stop = addLogSink((level, line) => lines.push(`${level} ${line}`));
    try {
      for (let i = 0; i < 5_000; i++) log.warn("metering store unavailable", { store: "sqlite:/x", error: "disk full" });
      log.warn("metering store unavailable", { store: "sqlite:/y", error: "disk full" });
      for (let i = 0; i < 3; i++) log.info("ready");
      expect(lines).toEqual([
        'warn metering store unavailable store=sqlite:/x error="disk full"',
        'warn metering store unavailable store=sqlite:/y error="disk full"',
        "info ready",
        "info ready",
        "info ready",
      ]);
      vi.advanceTimersByTime(REPEAT_WINDOW_MS);
      expect(lines.slice(5)).toEqual([
        `warn repeated 4999 more times in ${REPEAT_WINDOW_MS / 1000} s: metering store unavailable store=sqlite:/x error="disk full"`,
      ]);
      // A new window: the next one is written again.
      log.warn("metering store unavailable", { store: "sqlite:/x", error: "disk full" });
      expect(lines).toHaveLength(7);
    } finally {
      stop();
    }
  });
});
