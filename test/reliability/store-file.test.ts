// The embedded store is the file at its path, and only a file this user owns: `api` processes
// whose store is deleted or replaced under them, a start on a store that disappeared, and state
// planted by a second local user (nobody), each through the real CLI.
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, linkSync, mkdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { BIG_RATE, tempDir, writeKeys } from "../../harness/service.js";
import { skipping } from "../../harness/skips.js";
import { spawnCli, type Spawned } from "../../harness/spawn.js";
import { sha256 } from "../../src/backend/inprocess/keys.js";
import { openSqlite } from "../../src/backend/inprocess/metering/sqlite-driver.js";
import { SqliteStore } from "../../src/backend/inprocess/metering/sqlite-store.js";

const PATH = "/btc/lifespan/Lth_mvrv?startDate=2025-06-01&endDate=2025-06-02"; // 1 credit
const NOW = { CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z" };
const running: Spawned[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.child.kill("SIGKILL");
});

interface Reply {
  status: number;
  credits: number;
  code?: string;
  message?: string;
}

function get(base: string, key: string | undefined, agent?: Agent): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${PATH}`, { headers: key ? { "x-api-key": key } : {}, ...(agent && { agent }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const error = res.statusCode === 200 ? undefined : (JSON.parse(text) as { error: { code: string; message: string } }).error;
        resolve({
          status: res.statusCode ?? 0,
          credits: Number(res.headers["x-credits-remaining"]),
          ...(error && { code: error.code, message: error.message }),
        });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

async function startApi(keysFile: string, stateDir: string): Promise<string> {
  const proc = spawnCli(["api", "--port", "0", "--keys-file", keysFile, "--state-dir", stateDir], NOW);
  running.push(proc);
  return `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/))[1]}`;
}

/** A start that must fail: its exit code and stderr. */
async function refusedStart(keysFile: string, stateDir: string, shell?: string): Promise<{ code: number | null; stderr: string }> {
  const proc = spawnCli(["api", "--port", "0", "--keys-file", keysFile, "--state-dir", stateDir], NOW, [], shell);
  running.push(proc);
  const exit = await proc.exited;
  return { code: exit.code, stderr: proc.stderrText() };
}

function spentIn(file: string, key: string): number {
  const db = openSqlite(file, { busyTimeoutMs: 5_000, readOnly: true });
  try {
    return db.prepare<{ spent: number }>("SELECT spent FROM meter WHERE key_id = ?").get(sha256(key).toString("hex"))?.spent ?? 0;
  } finally {
    db.close();
  }
}

describe("the store is the file at its path", () => {
  it("answers 503 once its store is deleted, refuses a new empty store, and charges again once the file is restored", async () => {
    const { dir, keysFile } = writeKeys({ keys: [{ key: "k100", credits: 100, rateLimit: BIG_RATE }] }, tempDir("cm-rel-file-"));
    const stateDir = join(dir, "state");
    const store = join(stateDir, "metering.sqlite");
    const base = await startApi(keysFile, stateDir);
    for (let i = 0; i < 10; i++) expect((await get(base, "k100")).status).toBe(200);
    const backup = join(dir, "backup.sqlite");
    const db = openSqlite(store, { busyTimeoutMs: 5_000 });
    db.exec(`VACUUM INTO '${backup}'`);
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(store + suffix, { force: true });

    const lost = await get(base, "k100");
    expect(lost).toMatchObject({ status: 503, code: "store_unavailable" });
    // The caller is told what happened without where; the operator's log has where, under the same reference.
    expect(lost.message).toMatch(
      /^The metering store's file is missing or was replaced\. Nothing was served or charged; .* Reference ([0-9a-f]{8}) in the server log\.$/,
    );
    expect(lost.message).not.toContain(dir);
    const ref = /Reference ([0-9a-f]{8})/.exec(lost.message!)![1]!;
    expect(running.at(-1)!.stderrText()).toMatch(
      new RegExp(`metering store unavailable ref=${ref} .*The metering store ${store} was deleted while this process was using it`),
    );
    // Not one charge went anywhere meanwhile: every request is refused the same way.
    for (let i = 0; i < 20; i++) expect((await get(base, "k100")).status).toBe(503);

    // A process started now does not begin a new store with every balance full.
    const second = await refusedStart(keysFile, stateDir);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`the metering store ${store} is missing, but one was created there`);
    expect(second.stderr).toContain("Restore the file from a backup, or delete");

    copyFileSync(backup, store);
    chmodSync(store, 0o600);
    expect(await get(base, "k100")).toMatchObject({ status: 200, credits: 89 });
    expect(spentIn(store, "k100")).toBe(11);
  }, 60_000);

  it("moves to a store file moved over its own under load, and never charges the file it left", async () => {
    const { dir, keysFile } = writeKeys({ keys: [{ key: "k", credits: 1_000_000, rateLimit: BIG_RATE }] }, tempDir("cm-rel-file-"));
    const stateDir = join(dir, "state");
    const store = join(stateDir, "metering.sqlite");
    const base = await startApi(keysFile, stateDir);
    expect((await get(base, "k")).status).toBe(200);
    // Another store in the same directory with 5,000 spent by the same key.
    const other = join(stateDir, "other.sqlite");
    const prepared = SqliteStore.open(other);
    expect((await prepared.charge({ id: sha256("k").toString("hex"), credits: 1_000_000, rateLimit: BIG_RATE }, 5_000)).ok).toBe(true);
    await prepared.close();
    const old = join(dir, "old-inode.sqlite");
    linkSync(store, old);

    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const replies: Reply[] = [];
    let moved = false;
    let afterMove = 0;
    const loop = async () => {
      while (afterMove < 200) {
        const r = await get(base, "k", agent);
        replies.push(r);
        if (moved) afterMove++;
      }
    };
    const loops = Array.from({ length: 8 }, loop);
    while (replies.length < 100) await new Promise((r) => setTimeout(r, 5));
    renameSync(other, store);
    for (const suffix of ["-wal", "-shm"]) rmSync(other + suffix, { force: true });
    moved = true;
    await Promise.all(loops);
    agent.destroy();

    expect(replies.every((r) => r.status === 200)).toBe(true);
    // Every 200 is in exactly one of the two files, and the old one stopped at the move.
    const inOld = spentIn(old, "k");
    const inNew = spentIn(store, "k") - 5_000;
    expect(inNew).toBeGreaterThan(150);
    expect(inOld + inNew).toBe(replies.length + 1);
    expect((await get(base, "k")).credits).toBe(1_000_000 - 5_000 - inNew - 1);
    expect(spentIn(old, "k")).toBe(inOld);
  }, 60_000);

  it("refuses a file moved over the store that holds no store, until the store's own file is back", async () => {
    const { dir, keysFile } = writeKeys({ keys: [{ key: "k100", credits: 100, rateLimit: BIG_RATE }] }, tempDir("cm-rel-file-"));
    const stateDir = join(dir, "state");
    const store = join(stateDir, "metering.sqlite");
    const base = await startApi(keysFile, stateDir);
    expect((await get(base, "k100")).status).toBe(200);
    const aside = join(dir, "aside.sqlite");
    linkSync(store, aside);
    const empty = join(stateDir, "empty");
    writeFileSync(empty, "", { mode: 0o600 });
    renameSync(empty, store);
    const refused = await get(base, "k100");
    expect(refused).toMatchObject({ status: 503, code: "store_unavailable" });
    expect(refused.message).not.toContain(dir);
    const ref = /Reference ([0-9a-f]{8})/.exec(refused.message!)![1]!;
    expect(running.at(-1)!.stderrText()).toMatch(
      new RegExp(
        `ref=${ref} .*The file now at ${store} cannot be used as the metering store \\(the file at ${store} holds no metering store`,
      ),
    );
    expect(statSync(store).size).toBe(0);
    renameSync(aside, store);
    // Tried again at most once a second: the next charges find the store back.
    let reply = await get(base, "k100");
    for (let i = 0; reply.status === 503 && i < 40; i++) {
      await new Promise((r) => setTimeout(r, 100));
      reply = await get(base, "k100");
    }
    expect(reply).toMatchObject({ status: 200, credits: 98 });
  }, 60_000);
});

// The checks need a second user's files: only root can make them here.
const ROOT = process.getuid?.() === 0;
const NOBODY = ROOT ? secondUser() : undefined;

function secondUser(): number | undefined {
  try {
    return Number(execFileSync("id", ["-u", "nobody"], { encoding: "utf8" }).trim());
  } catch {
    try {
      execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "nobody"]);
      return Number(execFileSync("id", ["-u", "nobody"], { encoding: "utf8" }).trim());
    } catch {
      return undefined;
    }
  }
}

/** Runs a shell command as the second user, as another local user would plant a file. */
function asNobody(command: string): void {
  execFileSync("su", ["nobody", "-s", "/bin/sh", "-c", command]);
}

if (NOBODY === undefined)
  skipping("the planted-file checks (test/reliability/store-file.test.ts)", "run as root on a machine with the user nobody, as CI does");

describe.skipIf(NOBODY === undefined)("nothing planted by another user is trusted (runs as root, with the user nobody)", () => {
  const keys = () => writeKeys({ keys: [{ key: "k100", credits: 100, rateLimit: BIG_RATE }] }, tempDir("cm-rel-plant-"));

  it("refuses a state directory another user owns, or that others may write, naming the path and the fix", async () => {
    const { dir, keysFile } = keys();
    const shared = join(dir, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    chmodSync(dir, 0o755);
    const planted = join(shared, "state");
    asNobody(`umask 0; mkdir ${planted}`);
    const owned = await refusedStart(keysFile, planted);
    expect(owned.code).toBe(2);
    expect(owned.stderr).toContain(`the state directory ${planted} belongs to uid ${NOBODY}, not to this user (uid 0)`);
    expect(owned.stderr).toContain("--state-dir (CRYPTO_METRICS_STATE_DIR)");
    const open = await refusedStart(keysFile, shared);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain(`the state directory ${shared} is writable by group or others (mode 1777)`);
    expect(open.stderr).toContain(`chmod go-w ${shared}`);
  }, 60_000);

  it("refuses a store file another user planted or may write, and a store reached through a link", async () => {
    const { dir, keysFile } = keys();
    const stateDir = join(dir, "state");
    mkdirSync(stateDir, { mode: 0o700 });
    const store = join(stateDir, "metering.sqlite");
    // Planted by the second user (as root could not stop it in a directory it can write).
    chmodSync(dir, 0o755);
    chmodSync(stateDir, 0o777);
    asNobody(`umask 0; touch ${store}`);
    chmodSync(stateDir, 0o700);
    const planted = await refusedStart(keysFile, stateDir);
    expect(planted.code).toBe(2);
    expect(planted.stderr).toContain(`the metering store file ${store} belongs to uid ${NOBODY}`);
    chownSync(store, 0, 0);
    const writable = await refusedStart(keysFile, stateDir);
    expect(writable.stderr).toContain(
      `the metering store file ${store} is writable by group or others (mode 0666); another local user could change its balances. Run chmod go-w ${store}`,
    );
    rmSync(store);
    // A link to a database only root may write: never opened, never migrated.
    const privateDb = join(dir, "private.sqlite");
    const db = openSqlite(privateDb, { busyTimeoutMs: 1000 });
    db.exec("CREATE TABLE precious (x)");
    db.close();
    symlinkSync(privateDb, store);
    const linked = await refusedStart(keysFile, stateDir);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain(`the metering store file ${store} is a symbolic link to ${privateDb}`);
    const check = openSqlite(privateDb, { busyTimeoutMs: 1000, readOnly: true });
    expect(
      check
        .prepare<{ name: string }>("SELECT name FROM sqlite_master")
        .all()
        .map((r) => r.name),
    ).toEqual(["precious"]);
    check.close();
    // A state directory that is a link is refused the same way.
    const linkedDir = join(dir, "linked-state");
    symlinkSync(stateDir, linkedDir);
    const viaLink = await refusedStart(keysFile, linkedDir);
    expect(viaLink.stderr).toContain(`the state directory ${linkedDir} is a symbolic link`);
  }, 60_000);

  it("creates its directory and file owner-only whatever the umask", async () => {
    const { dir, keysFile } = keys();
    const stateDir = join(dir, "fresh", "state");
    const proc = spawnCli(
      ["call", "list_assets", "--keys-file", keysFile, "--state-dir", stateDir, "--store", `sqlite:${join(stateDir, "metering.sqlite")}`],
      NOW,
      [],
      "umask 0",
    );
    running.push(proc);
    // list_assets charges nothing; a charged call opens the store for certain.
    await proc.exited;
    const charged = spawnCli(
      ["call", "get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc", "--keys-file", keysFile, "--state-dir", stateDir],
      { ...NOW, CRYPTO_METRICS_API_KEY: "k100" },
      [],
      "umask 0",
    );
    running.push(charged);
    expect((await charged.exited).code).toBe(0);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(stateDir, "metering.sqlite")).mode & 0o777).toBe(0o600);
  }, 60_000);
});
