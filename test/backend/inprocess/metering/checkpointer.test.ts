// The checkpoint worker opens its own connection while requests go on: it must never create a
// database at the store's path when the file it was started for is gone or replaced.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { startCheckpointer } from "../../../../src/backend/inprocess/metering/checkpointer.js";
import { SqliteStore } from "../../../../src/backend/inprocess/metering/sqlite-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function storePath(): string {
  const dir = mkdtempSync(join(tmpdir(), "cm-ckpt-"));
  dirs.push(dir);
  return join(dir, "metering.sqlite");
}

/** Long enough for a worker thread to start and tick a few times, even on a loaded machine. */
const settle = () => new Promise((r) => setTimeout(r, 1_500));

describe("checkpoint worker", () => {
  it("started for a store deleted before it opens, creates nothing at the path", async () => {
    const path = storePath();
    const store = SqliteStore.open(path);
    await store.close();
    const { dev, ino } = statSync(path);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
    const worker = startCheckpointer(path, { dev, ino });
    await settle();
    await worker.stop();
    expect(existsSync(path)).toBe(false);
  });

  it("started for a store replaced by another file, leaves that file as it is", async () => {
    const path = storePath();
    const store = SqliteStore.open(path);
    await store.close();
    const { dev, ino } = statSync(path);
    rmSync(path);
    writeFileSync(path, "not a database");
    const worker = startCheckpointer(path, { dev, ino });
    await settle();
    await worker.stop();
    expect(statSync(path).size).toBe("not a database".length);
  });
});
