// The embedded store: the shared contract on one SQLite file, plus what is its own (schema
// version, earlier versions' usage files, an unwritable place).
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempDir } from "../../../../harness/service.js";
import { skipping } from "../../../../harness/skips.js";
import { sha256 } from "../../../../src/backend/inprocess/keys.js";
import { StoreConfigError } from "../../../../src/backend/inprocess/metering/index.js";
import { openSqlite } from "../../../../src/backend/inprocess/metering/sqlite-driver.js";
import { SQLITE_SCHEMA_VERSION, SqliteStore } from "../../../../src/backend/inprocess/metering/sqlite-store.js";
import { storeContract } from "./contract.js";

// Root writes through a read-only mode: the check needs another user.
if (process.getuid?.() === 0)
  skipping("the read-only store check (metering/sqlite-store.test.ts)", "run the tests as a user other than root");

const FIXTURE = join(import.meta.dirname, "..", "..", "..", "fixtures", "legacy-state");
const id = (key: string) => sha256(key).toString("hex");

describe("SqliteStore: the store contract", () => {
  const path = join(tempDir("cm-sqlite-"), "metering.sqlite");
  storeContract({ open: async () => SqliteStore.open(path) });
});

describe("SqliteStore on its own", () => {
  it("creates its file owner-only, in WAL mode", async () => {
    const dir = join(tempDir("cm-sqlite-"), "state");
    const store = SqliteStore.open(join(dir, "metering.sqlite"));
    await store.close();
    expect(statSync(join(dir, "metering.sqlite")).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const db = openSqlite(join(dir, "metering.sqlite"), { busyTimeoutMs: 1000, readOnly: true });
    expect(db.prepare<{ journal_mode: string }>("PRAGMA journal_mode").get()?.journal_mode).toBe("wal");
    db.close();
  });

  it("refuses a file from a newer schema version, naming the setting and the fix", () => {
    const path = join(tempDir("cm-sqlite-"), "metering.sqlite");
    const db = openSqlite(path, { busyTimeoutMs: 1000 });
    db.exec(`PRAGMA user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => SqliteStore.open(path)).toThrow(StoreConfigError);
    expect(() => SqliteStore.open(path)).toThrow(
      `schema version ${SQLITE_SCHEMA_VERSION + 1}, newer than this release understands (${SQLITE_SCHEMA_VERSION}); upgrade crypto-metrics-mcp, or point --store`,
    );
  });

  it("brings a version 1 file forward with its balances and windows, and refunds its requests too", async () => {
    const path = join(tempDir("cm-sqlite-"), "metering.sqlite");
    const db = openSqlite(path, { busyTimeoutMs: 1000 });
    // Version 1 as it was written: the log numbered by position only, a time index, no window cursor.
    db.exec(`PRAGMA journal_mode = WAL;
      CREATE TABLE meter (key_id TEXT PRIMARY KEY, spent INTEGER NOT NULL DEFAULT 0, requests INTEGER NOT NULL DEFAULT 0, seq INTEGER NOT NULL DEFAULT 0, last_ms INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
      CREATE TABLE rate_log (key_id TEXT NOT NULL, seq INTEGER NOT NULL, t_ms INTEGER NOT NULL, PRIMARY KEY (key_id, seq)) WITHOUT ROWID;
      CREATE INDEX rate_log_time ON rate_log (key_id, t_ms, seq);
      CREATE TABLE imports (source TEXT PRIMARY KEY, at_ms INTEGER NOT NULL, credits INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO meter VALUES ('${id("v1")}', 6, 2, 2, 1700000001000), ('${id("v1-imported")}', 40, 0, 0, 0);
      INSERT INTO rate_log VALUES ('${id("v1")}', 0, 1700000000000), ('${id("v1")}', 1, 1700000001000);
      PRAGMA user_version = 1;`);
    db.close();
    const key = { id: id("v1"), credits: 10, rateLimit: { requests: 2, windowSeconds: 30 } };
    const store = SqliteStore.open(path);
    try {
      expect(await store.charge(key, 1, 1700000002000)).toMatchObject({
        ok: false,
        reason: "rate_limited",
        retryAfterS: 28,
        creditsRemaining: 4,
        rate: { remaining: 0 },
      });
      // The second request of version 1 (number 1) is refunded: its place frees, the first's does not.
      await store.refund(key, 1, 3);
      expect(await store.charge(key, 1, 1700000003000)).toMatchObject({
        ok: true,
        request: 2,
        creditsRemaining: 6,
        rate: { remaining: 0, resetS: 27 },
      });
      expect(await store.spent(id("v1-imported"))).toBe(40);
      const charged = await store.charge({ ...key, id: id("v1-imported"), credits: 50 }, 1, 1700000003000);
      expect(charged).toMatchObject({ ok: true, request: 0, creditsRemaining: 9 });
    } finally {
      await store.close();
    }
    const check = openSqlite(path, { busyTimeoutMs: 1000, readOnly: true });
    expect(check.prepare<{ user_version: number }>("PRAGMA user_version").get()?.user_version).toBe(SQLITE_SCHEMA_VERSION);
    check.close();
  });

  it("brings a version 2 file forward: balances, windows and charge numbers carry over, nothing is refunded", async () => {
    const path = join(tempDir("cm-sqlite-"), "metering.sqlite");
    const db = openSqlite(path, { busyTimeoutMs: 1000 });
    // Version 2 as it was written: meter rows and the rate log keyed by digest, in two tables.
    db.exec(`PRAGMA journal_mode = WAL;
      CREATE TABLE meter (key_id TEXT PRIMARY KEY, spent INTEGER NOT NULL DEFAULT 0, requests INTEGER NOT NULL DEFAULT 0, seq INTEGER NOT NULL DEFAULT 0, last_ms INTEGER NOT NULL DEFAULT 0, first_seq INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
      CREATE TABLE rate_log (key_id TEXT NOT NULL, seq INTEGER NOT NULL, t_ms INTEGER NOT NULL, id INTEGER NOT NULL DEFAULT -1, PRIMARY KEY (key_id, seq)) WITHOUT ROWID;
      CREATE TABLE imports (source TEXT PRIMARY KEY, at_ms INTEGER NOT NULL, credits INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO meter VALUES ('${id("v2")}', 7, 4, 3, 1700000002000, 0), ('${id("v2-idle")}', 40, 9, 0, 1690000000000, 0);
      -- Charge 1 was refunded: the log holds charges 0, 2 and 3 at positions 0, 1, 2.
      INSERT INTO rate_log VALUES ('${id("v2")}', 0, 1700000000000, 0), ('${id("v2")}', 1, 1700000001000, 2), ('${id("v2")}', 2, 1700000002000, 3);
      PRAGMA user_version = 2;`);
    db.close();
    const key = { id: id("v2"), credits: 10, rateLimit: { requests: 3, windowSeconds: 30 } };
    const store = SqliteStore.open(path);
    try {
      expect(await store.spent(id("v2"))).toBe(7);
      expect(await store.spent(id("v2-idle"))).toBe(40);
      expect(await store.status(key, 1700000003000)).toEqual({ creditsRemaining: 3, rate: { remaining: 0, resetS: 27 } });
      expect(await store.charge(key, 1, 1700000003000)).toMatchObject({ ok: false, reason: "rate_limited", retryAfterS: 27 });
      // Charge 2 of version 2 is refunded: its place (position 1) frees, the others stay counted.
      await store.refund(key, 2, 2);
      expect(await store.charge(key, 1, 1700000003000)).toMatchObject({
        ok: true,
        request: 4,
        creditsRemaining: 4,
        rate: { remaining: 0, resetS: 27 },
      });
      expect(await store.charge({ ...key, id: id("v2-idle"), credits: 50 }, 1, 1700000003000)).toMatchObject({
        ok: true,
        request: 9,
        creditsRemaining: 9,
      });
      expect(await store.charge({ ...key, id: id("new"), credits: 5 }, 2, 1700000003000)).toMatchObject({
        ok: true,
        request: 0,
        creditsRemaining: 3,
      });
    } finally {
      await store.close();
    }
    const check = openSqlite(path, { busyTimeoutMs: 1000, readOnly: true });
    expect(check.prepare<{ user_version: number }>("PRAGMA user_version").get()?.user_version).toBe(SQLITE_SCHEMA_VERSION);
    // The operators' query of docs/metering.md still reads balances.
    expect(
      check.prepare<{ key_id: string; spent: number; requests: number }>("SELECT key_id, spent, requests FROM meter ORDER BY spent").all(),
    ).toEqual([
      { key_id: id("new"), spent: 2, requests: 1 },
      { key_id: id("v2"), spent: 6, requests: 5 },
      { key_id: id("v2-idle"), spent: 41, requests: 10 },
    ]);
    check.close();
  });

  it("writes one page of the file for a charge: the key's head row sits next to its newest request", async () => {
    const path = join(tempDir("cm-sqlite-"), "metering.sqlite");
    const store = SqliteStore.open(path);
    const key = { id: id("pages"), credits: 1e9, rateLimit: { requests: 100_000, windowSeconds: 60 } };
    const db = openSqlite(path, { busyTimeoutMs: 1000 });
    try {
      for (let i = 0; i < 50; i++) await store.charge(key, 1, 1700000000000 + i);
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      const frames = () => db.prepare<{ log: number }>("PRAGMA wal_checkpoint(PASSIVE)").get()!.log;
      const before = frames();
      for (let i = 0; i < 200; i++) await store.charge(key, 1, 1700000001000 + i);
      // One frame per charge, plus the few a leaf split or a trim adds (two tables wrote ~2.4).
      expect((frames() - before) / 200).toBeLessThan(1.3);
    } finally {
      db.close();
      await store.close();
    }
  });

  it("fails to open in a place it cannot create, with the setting to change", () => {
    const file = join(tempDir("cm-sqlite-"), "a-file");
    writeFileSync(file, "");
    expect(() => SqliteStore.open(join(file, "metering.sqlite"))).toThrow(/is not a directory.*CRYPTO_METRICS_STATE_DIR\) or --store/);
  });

  it("imports an earlier version's usage.json and journals once, and sets the files aside", async () => {
    const dir = tempDir("cm-sqlite-legacy-");
    cpSync(FIXTURE, dir, { recursive: true });
    const path = join(dir, "metering.sqlite");
    const first = SqliteStore.open(path, { legacyDir: dir });
    // 40 folded into usage.json + 7 in the journal of a killed process; b only in usage.json; c only in the journal.
    expect(await first.spent(id("legacy-a"))).toBe(47);
    expect(await first.spent(id("legacy-b"))).toBe(5);
    expect(await first.spent(id("legacy-c"))).toBe(2);
    await first.close();
    expect(readdirSync(dir).filter((n) => /^(usage\.json|journal-.*\.log)$/.test(n))).toEqual([]);
    expect(readdirSync(dir).filter((n) => n.endsWith(".imported"))).toHaveLength(2);
    // A second start, and a copy of the same files put back by hand, count nothing again.
    cpSync(FIXTURE, dir, { recursive: true });
    const again = SqliteStore.open(path, { legacyDir: dir });
    expect(await again.spent(id("legacy-a"))).toBe(47);
    await again.close();
  });

  it("refuses a corrupt earlier usage file rather than forgiving it", () => {
    const dir = tempDir("cm-sqlite-legacy-");
    writeFileSync(join(dir, "usage.json"), "{ truncated");
    expect(() => SqliteStore.open(join(dir, "metering.sqlite"), { legacyDir: dir })).toThrow(/usage\.json is not valid JSON.*not skipped/);
    expect(existsSync(join(dir, "usage.json"))).toBe(true);
  });

  // root writes through any mode bits: there the multi-process faults test covers a full disk instead.
  it.skipIf(process.getuid?.() === 0)("refuses to start on a read-only store, and starts again once writable", async () => {
    const dir = join(tempDir("cm-sqlite-ro-"), "state");
    mkdirSync(dir);
    const path = join(dir, "metering.sqlite");
    const key = { id: id("ro"), credits: 10, rateLimit: { requests: 100, windowSeconds: 60 } };
    const store = SqliteStore.open(path);
    expect((await store.charge(key, 1)).ok).toBe(true);
    await store.close();
    chmodSync(path, 0o400);
    chmodSync(dir, 0o500);
    try {
      expect(() => SqliteStore.open(path)).toThrow(StoreConfigError);
    } finally {
      chmodSync(dir, 0o700);
      chmodSync(path, 0o600);
    }
    const again = SqliteStore.open(path);
    expect(await again.spent(key.id)).toBe(1);
    await again.close();
  });
});
