// A store file moved over the running store: SQLite finds a database's write-ahead log by name
// (path + "-wal"), so the log the replaced file leaves at the path must never be read as the new
// file's, and none of the replaced file's commits may stay only in that log.
import { linkSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { BIG_RATE, tempDir } from "../../../../harness/service.js";
import { sha256 } from "../../../../src/backend/inprocess/keys.js";
import { openSqlite, type SqlDatabase } from "../../../../src/backend/inprocess/metering/sqlite-driver.js";
import { SqliteStore } from "../../../../src/backend/inprocess/metering/sqlite-store.js";
import { StoreUnavailableError } from "../../../../src/backend/inprocess/metering/store.js";

const KEY = { id: sha256("k").toString("hex"), credits: 1_000_000, rateLimit: BIG_RATE };

/** Credits spent by KEY in the file at `file`, read from that file alone (a hard link has no log of its own). */
function spentIn(file: string): number {
  const db = openSqlite(file, { busyTimeoutMs: 5_000, readOnly: true });
  try {
    return db.prepare<{ spent: number }>("SELECT spent FROM meter WHERE key_id = ?").get(KEY.id)?.spent ?? 0;
  } finally {
    db.close();
  }
}

/** A store at `path` with `n` credits spent by KEY, closed (its log folded into the file). */
async function storeWith(path: string, n: number): Promise<void> {
  const store = SqliteStore.open(path);
  expect((await store.charge(KEY, n)).ok).toBe(true);
  await store.close();
}

/**
 * The running store with 100 charges in its log, a reader holding a snapshot of it (so the log
 * cannot be checkpointed), and a file with 5,000 spent moved over it.
 */
async function swapUnderReader(checkpointInWorker: boolean) {
  const dir = tempDir("cm-swap-");
  const path = join(dir, "metering.sqlite");
  const store = SqliteStore.open(path, { checkpointInWorker });
  for (let i = 0; i < 100; i++) expect((await store.charge(KEY, 1)).ok).toBe(true);
  const old = join(dir, "old-inode.sqlite");
  linkSync(path, old);
  const reader: SqlDatabase = openSqlite(path, { busyTimeoutMs: 0 });
  reader.exec("BEGIN");
  reader.prepare("SELECT count(*) FROM ledger").get();
  const other = join(dir, "other.sqlite");
  await storeWith(other, 5_000);
  renameSync(other, path);
  return { store, path, old, reader };
}

describe("a store file moved over the running store", () => {
  for (const checkpointInWorker of [false, true]) {
    it(`never reads the replaced file's log as its own, and keeps every commit in the file it went to (checkpoint ${checkpointInWorker ? "in a worker" : "inline"})`, async () => {
      const { store, path, old, reader } = await swapUnderReader(checkpointInWorker);
      const charged = store.charge(KEY, 1);
      // The reader lets go a little later, as a process's short read transaction would.
      await new Promise((r) => setTimeout(r, 200));
      reader.exec("COMMIT");
      reader.close();
      expect(await charged).toMatchObject({ ok: true, creditsRemaining: 1_000_000 - 5_001 });
      expect(await store.spent(KEY.id)).toBe(5_001);
      await store.close();
      expect(spentIn(path)).toBe(5_001);
      // The replaced file holds its 100 charges in the file itself, none left behind in a log.
      expect(spentIn(old)).toBe(100);
    }, 30_000);
  }

  it("refuses a file whose path still holds a log it cannot tell is its own, naming the log and the fix", async () => {
    const { store, path, reader } = await swapUnderReader(false);
    // The reader outlives the wait: the replaced file's 100 charges stay in the log at the path.
    const refused = await store.charge(KEY, 1).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    const message = (refused as Error).message;
    expect(message).toContain(`The file now at ${path} cannot be used as the metering store yet: ${path}-wal holds`);
    expect(message).toContain(`Nothing was served or charged`);
    expect(message).toContain(`move ${path}-wal and ${path}-shm aside`);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    // Once the last reader of the old file is gone and its log is moved aside, the new file is taken up as it is.
    reader.exec("COMMIT");
    reader.close();
    for (const suffix of ["-wal", "-shm"]) rmSync(path + suffix, { force: true });
    let reply = await store.charge(KEY, 1).catch((err: unknown) => err);
    for (let i = 0; reply instanceof StoreUnavailableError && i < 40; i++) {
      await new Promise((r) => setTimeout(r, 100));
      reply = await store.charge(KEY, 1).catch((err: unknown) => err);
    }
    expect(reply).toMatchObject({ ok: true, creditsRemaining: 1_000_000 - 5_001 });
    await store.close();
    expect(spentIn(path)).toBe(5_001);
  }, 30_000);
});
