// The embedded store: the shared contract on one SQLite file, plus what is its own (schema
// version, earlier versions' usage files, an unwritable place).
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../src/backend/inprocess/keys.js";
import { StoreConfigError } from "../../src/backend/inprocess/metering/index.js";
import { openSqlite } from "../../src/backend/inprocess/metering/sqlite-driver.js";
import { SQLITE_SCHEMA_VERSION, SqliteStore } from "../../src/backend/inprocess/metering/sqlite-store.js";
import { tempDir } from "../helpers/service.js";
import { storeContract } from "./contract.js";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "legacy-state");
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
    expect(() => SqliteStore.open(path)).toThrow(/schema version 2, newer than this release understands \(1\); upgrade crypto-metrics-mcp, or point --store/);
  });

  it("fails to open in a place it cannot create, with the setting to change", () => {
    const file = join(tempDir("cm-sqlite-"), "a-file");
    writeFileSync(file, "");
    expect(() => SqliteStore.open(join(file, "metering.sqlite"))).toThrow(/cannot be opened for writing \(E[A-Z]+\).*CRYPTO_METRICS_STATE_DIR or --store/);
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
