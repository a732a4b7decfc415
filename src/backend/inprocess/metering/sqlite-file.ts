// The embedded store's file and directory as the file system holds them: trusted only when they are
// this user's own (owner, no write for group or others, no symbolic link), created owner-only
// without following a link, and known by device and inode so a running process sees the file at
// its path change under it. Like ssh with its keys: a place another user could write is refused.
import type { Stats } from "node:fs";
import { basename, dirname, join } from "node:path";

import { StoreConfigError } from "./store.js";

// node:fs taken, not imported (its ESM facade loads fs/promises and fs streams; see log.ts).
const { closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, writeSync } = process.getBuiltinModule("node:fs");

/** Which file a path names: it changed when either differs. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const FIX = "set --state-dir (CRYPTO_METRICS_STATE_DIR) or --store (CRYPTO_METRICS_STORE) to a place only you can write";

/** The file at `path` now (the link itself if it is one), or undefined when nothing is there. */
export function identityOf(path: string): FileIdentity | undefined {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st && { dev: st.dev, ino: st.ino };
}

export function sameFile(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/** The witness that a store was created at `path`: a later start that finds the store gone refuses to begin a new one. */
export function witnessPath(path: string): string {
  // Not matched by `metering.sqlite*`: removing the store with its -wal and -shm leaves the witness.
  return join(dirname(path), `.${basename(path)}.created`);
}

const uid = (): number | undefined => process.getuid?.();

/** Refuses what another user owns or may write, and links; `what` names it in the message. */
function checkOwn(path: string, st: Stats, what: string): void {
  if (st.isSymbolicLink()) {
    let target = "";
    try {
      target = ` to ${readlinkSync(path)}`;
    } catch {
      /* unreadable link: named without its target */
    }
    throw new StoreConfigError(
      `the ${what} ${path} is a symbolic link${target}; the metering store is never reached through a link another user could plant. Point the setting at the real path, or ${FIX}`,
    );
  }
  const me = uid();
  // No owners or mode bits to check where the platform has none (Windows).
  if (me === undefined) return;
  if (st.uid !== me) {
    throw new StoreConfigError(
      `the ${what} ${path} belongs to uid ${st.uid}, not to this user (uid ${me}); another user could change its balances. Use a directory of your own: ${FIX}`,
    );
  }
  if ((st.mode & 0o022) !== 0) {
    const mode = (st.mode & 0o7777).toString(8).padStart(4, "0");
    throw new StoreConfigError(
      `the ${what} ${path} is writable by group or others (mode ${mode}); another local user could change its balances. Run chmod go-w ${path}, or ${FIX}`,
    );
  }
}

/**
 * Makes sure the store's directory exists and is this user's own. A missing one is created
 * owner-only (with its missing parents).
 */
export function trustDirectory(dir: string): void {
  let st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    st = lstatSync(dir);
  }
  if (!st.isDirectory() && !st.isSymbolicLink()) {
    throw new StoreConfigError(`the state directory ${dir} is not a directory; ${FIX}`);
  }
  checkOwn(dir, st, "state directory");
}

/** The store file (and its -wal and -shm companions) when present and trusted; undefined when absent. */
export function trustedFile(path: string): FileIdentity | undefined {
  for (const suffix of ["-wal", "-shm"]) {
    const st = lstatSync(path + suffix, { throwIfNoEntry: false });
    if (st) checkOwn(path + suffix, st, "metering store file");
  }
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (!st.isFile() && !st.isSymbolicLink()) throw new StoreConfigError(`the metering store ${path} is not a regular file; ${FIX}`);
  checkOwn(path, st, "metering store file");
  return { dev: st.dev, ino: st.ino };
}

/**
 * Creates the store file owner-only, never through a link; false when another process created it
 * first. A store that existed before and is gone (its witness remains) is not silently begun
 * again with every balance full: that is the operator's decision.
 */
export function createFile(path: string): boolean {
  const witness = lstatSync(witnessPath(path), { throwIfNoEntry: false });
  if (witness) {
    throw new StoreConfigError(
      `the metering store ${path} is missing, but one was created there (${witnessPath(path)}, ${witness.mtime.toISOString()}); starting a new one would give every key its full balance again. Restore the file from a backup, or delete ${witnessPath(path)} to start a new store`,
    );
  }
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

/** Records that a store lives at `path` (idempotent; a witness already there is kept). */
export function writeWitness(path: string): void {
  try {
    const fd = openSync(witnessPath(path), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
    try {
      writeSync(fd, `crypto-metrics-mcp metering store ${basename(path)}, created ${new Date().toISOString()}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
}
