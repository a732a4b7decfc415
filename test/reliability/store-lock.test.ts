// Another connection holding the embedded store's write lock (an operator's BEGIN IMMEDIATE, a
// backup tool) stalls only the charges, and only for a bounded time: the `api` process keeps
// answering everything else, and a charge that cannot get the lock in time is a 503 that charged nothing.
import { request } from "node:http";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { BIG_RATE, tempDir, writeKeys } from "../../harness/service.js";
import { spawnCli, type Spawned } from "../../harness/spawn.js";
import { openSqlite, type SqlDatabase } from "../../src/backend/inprocess/metering/sqlite-driver.js";
import { SqliteStore } from "../../src/backend/inprocess/metering/sqlite-store.js";
import { meterKey } from "../backend/inprocess/metering/contract.js";

const PATH = "/btc/lifespan/Lth_mvrv?startDate=2025-06-01&endDate=2025-06-02";
const running: Spawned[] = [];
const held: SqlDatabase[] = [];
afterEach(() => {
  for (const db of held.splice(0)) if (db.open) db.close();
  for (const p of running.splice(0)) p.child.kill("SIGKILL");
});

function get(base: string, key?: string): Promise<{ status: number; code?: string; message?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${PATH}`, { headers: key ? { "x-api-key": key } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const error =
          res.statusCode === 200
            ? undefined
            : (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { error: { code: string; message: string } }).error;
        resolve({ status: res.statusCode ?? 0, ...(error && { code: error.code, message: error.message }) });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** Takes the store's write lock from another connection, as `sqlite3 … 'BEGIN IMMEDIATE'` would. */
function holdLock(path: string): SqlDatabase {
  const db = openSqlite(path, { busyTimeoutMs: 5_000 });
  held.push(db);
  db.exec("BEGIN IMMEDIATE");
  return db;
}

describe("a held SQLite lock", () => {
  it("lets the process answer requests that charge nothing at once, and charges once the lock is released", async () => {
    const { dir, keysFile } = writeKeys({ keys: [{ key: "k", credits: 100, rateLimit: BIG_RATE }] }, tempDir("cm-rel-lock-"));
    const stateDir = join(dir, "state");
    const proc = spawnCli(["api", "--port", "0", "--keys-file", keysFile, "--state-dir", stateDir], {
      CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
    });
    running.push(proc);
    const base = `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/))[1]}`;
    expect((await get(base, "k")).status).toBe(200);
    const lock = holdLock(join(stateDir, "metering.sqlite"));
    let chargedDone = false;
    const charged = get(base, "k").then((r) => ((chargedDone = true), r));
    // Answered while the charge still waits: the event loop is not held by the lock wait.
    for (let i = 0; i < 5; i++) expect(await get(base)).toMatchObject({ status: 401, code: "unauthorized" });
    expect(await get(base, "not-a-key")).toMatchObject({ status: 401 });
    expect(chargedDone).toBe(false);
    lock.exec("COMMIT");
    expect((await charged).status).toBe(200);
  }, 60_000);

  it("answers a charge that waited its bound 503, charging nothing, and then charges again", async () => {
    const path = join(tempDir("cm-rel-lock-"), "metering.sqlite");
    const store = SqliteStore.open(path);
    const key = meterKey(10);
    try {
      expect((await store.charge(key, 1)).ok).toBe(true);
      const lock = holdLock(path);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 50);
      const started = Date.now();
      await expect(store.charge(key, 1)).rejects.toThrow(
        `The metering store ${path} cannot record the charge: another process held it locked for more than 5 s. Nothing was served or charged`,
      );
      clearInterval(timer);
      // The wait was spent in the event loop (timers kept firing), and it was the bound.
      expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
      expect(ticks).toBeGreaterThan(20);
      // Reads never wait for the writer (WAL): the balance shows the one charge.
      expect((await store.status(key)).creditsRemaining).toBe(9);
      lock.exec("ROLLBACK");
      expect(await store.charge(key, 1)).toMatchObject({ ok: true, creditsRemaining: 8 });
      expect(await store.spent(key.id)).toBe(2);
    } finally {
      await store.close();
    }
  }, 30_000);
});
