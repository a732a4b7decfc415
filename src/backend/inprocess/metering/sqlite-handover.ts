// Handing the store's path from a file that was replaced there to the file that replaced it.
// SQLite finds a database's write-ahead log and its index by name (path + "-wal", "-shm"), not by
// file, and it keeps no mark in either of which database they belong to: after a move the old
// file's log is still at the path, and a connection opened on the new file would read the old
// file's pages from it as its own (and write on top of them). So the old file's log is emptied
// into the old file before the path is opened again, and a file is taken up only while the log at
// its path holds nothing.
import type { Checkpointer } from "./checkpointer.js";
import type { SqlDatabase } from "./sqlite-driver.js";
import { BUSY_TIMEOUT_MS } from "./sqlite-ledger.js";
import { StoreConfigError } from "./store.js";

// node:fs taken, not imported (its ESM facade loads fs/promises and fs streams; see log.ts).
const { lstatSync } = process.getBuiltinModule("node:fs");

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A log at the path that may be another file's: the file there is not taken up until it is empty or gone. */
export class ForeignLogError extends StoreConfigError {}

/**
 * Closes the connection (and checkpoint worker) of a file that is no longer the one at `path`,
 * after moving every commit still in its log into the file itself and emptying the log. Never
 * rejects: a log that stays busy past the wait is left as it is, and takeUpCheck refuses it.
 */
export async function letGo(db: SqlDatabase, checkpointer: Checkpointer | undefined): Promise<void> {
  try {
    // The worker first: a checkpoint it is running makes ours busy, and its connection holds the log open.
    await checkpointer?.stop();
    const checkpoint = db.prepare<{ busy: number }>("PRAGMA wal_checkpoint(TRUNCATE)");
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    // A reader of the old file (another process's short transaction) holds the log back: wait for it.
    // A lock conflict is a row with busy = 1, not an error; SQLite's own close would not help, as it
    // skips its checkpoint once the file has moved.
    for (let attempt = 0; checkpoint.get()?.busy !== 0 && Date.now() < deadline; attempt++) {
      await sleep(Math.min(50, 2 ** attempt));
    }
  } catch {
    // The old file failed under it (I/O): what its log holds stays there, and takeUpCheck sees it.
  } finally {
    try {
      db.close();
    } catch {
      /* closing an orphaned file: nothing to keep */
    }
  }
}

/**
 * Throws when the log at `path` holds anything: the file just moved there brought no log of its
 * own (its log is named after the path it came from), so frames at the path are the replaced
 * file's, or a copy whose owner this process cannot tell. Reading them as the new file's would
 * give it the other file's balances; they are refused instead.
 */
export function takeUpCheck(path: string): void {
  const size = lstatSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  if (size === 0) return;
  throw new ForeignLogError(
    `The file now at ${path} cannot be used as the metering store yet: ${path}-wal holds ${size} bytes of write-ahead log that the file there did not write ` +
      `(the file it replaced left it: another process still reads that file, or its last commits were never checkpointed). Nothing was served or charged; ` +
      `it clears by itself once every process has let go of the replaced file (each does at its next request), else stop the processes that use the store ` +
      `and move ${path}-wal and ${path}-shm aside (a log copied together with a restored file belongs in that file: checkpoint it there before moving the file in).`,
  );
}
