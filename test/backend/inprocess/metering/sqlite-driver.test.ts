// The binding under the embedded store: node:sqlite where the runtime has it without a flag,
// better-sqlite3 elsewhere, with the same transactions and the same error codes on both.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempDir } from "../../../../harness/service.js";
import { ROOT } from "../../../../harness/spawn.js";
import { sqliteCode } from "../../../../src/backend/inprocess/metering/sqlite-codes.js";
import { openSqlite } from "../../../../src/backend/inprocess/metering/sqlite-driver.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
// node:sqlite needs no flag from Node 22.13 and 23.4.
const builtin = major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return sqliteCode(err);
  }
  return undefined;
};

describe(`the SQLite binding on Node ${process.versions.node}`, () => {
  it(`is ${builtin ? "node:sqlite" : "better-sqlite3"}`, () => {
    const db = openSqlite(join(tempDir("cm-sqlite-driver-"), "a.sqlite"), { busyTimeoutMs: 100 });
    expect(db.driver).toBe(builtin ? "node:sqlite" : "better-sqlite3");
    db.close();
    expect(db.open).toBe(false);
  });

  it("rolls a failed transaction back as a whole, and commits a good one", () => {
    const db = openSqlite(join(tempDir("cm-sqlite-driver-"), "a.sqlite"), { busyTimeoutMs: 100 });
    db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER NOT NULL)");
    const put = db.prepare("INSERT INTO t (k, n) VALUES (?, ?)");
    const all = db.prepare<{ k: string; n: number }>("SELECT k, n FROM t ORDER BY k");
    expect(
      codeOf(() =>
        db.transaction("immediate", () => {
          put.run("a", 1);
          put.run("a", 2);
        }),
      ),
    ).toBe("SQLITE_CONSTRAINT");
    expect(all.all()).toEqual([]);
    expect(
      db.transaction("immediate", () => {
        put.run("a", 1);
        put.run("b", 2);
        return "done";
      }),
    ).toBe("done");
    expect(all.all().map((r) => [r.k, r.n])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(db.prepare<{ n: number }>("SELECT n FROM t WHERE k = ?").get("zz")).toBeUndefined();
    db.close();
  });

  it("reports a lock held past the busy timeout as SQLITE_BUSY, and a read-only connection's write as SQLITE_READONLY", () => {
    const path = join(tempDir("cm-sqlite-driver-"), "a.sqlite");
    const holder = openSqlite(path, { busyTimeoutMs: 100 });
    holder.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER)");
    const other = openSqlite(path, { busyTimeoutMs: 50 });
    const reader = openSqlite(path, { busyTimeoutMs: 50, readOnly: true });
    holder.exec("BEGIN IMMEDIATE");
    expect(codeOf(() => other.transaction("immediate", () => other.exec("INSERT INTO t VALUES (1)")))).toBe("SQLITE_BUSY");
    holder.exec("ROLLBACK");
    expect(codeOf(() => reader.exec("INSERT INTO t VALUES (1)"))).toBe("SQLITE_READONLY");
    // The failed attempt left no transaction open: the next one goes through.
    other.transaction("immediate", () => other.exec("INSERT INTO t VALUES (2)"));
    expect(holder.prepare("SELECT n FROM t").all()).toEqual([expect.objectContaining({ n: 2 })]);
    for (const db of [holder, other, reader]) db.close();
    expect(sqliteCode(new Error("not SQLite"))).toBeUndefined();
  });

  it.runIf(builtin)(
    "never loads better-sqlite3 and prints nothing on stderr when opening a store",
    () => {
      const script = `
      const { SqliteStore } = await import("./src/backend/inprocess/metering/sqlite-store.ts");
      const { createRequire } = await import("node:module");
      const store = SqliteStore.open(process.argv[1], { checkpointInWorker: true });
      await new Promise((r) => setTimeout(r, 300));
      await store.close();
      const cache = createRequire(import.meta.url).cache;
      console.log(Object.keys(cache).filter((k) => k.includes("better-sqlite3")).length);`;
      const r = spawnSync(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script, join(tempDir("cm-sqlite-driver-"), "m.sqlite")],
        { cwd: ROOT, encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe("0");
      expect(r.stderr).toBe("");
    },
    30_000,
  );
});
