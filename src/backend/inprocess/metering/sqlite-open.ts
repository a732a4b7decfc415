// Opening the embedded store's file as a ledger: the file and its directory checked, the connection's
// pragmas set, the schema migrated and an earlier version's usage imported; any failure is a StoreConfigError.
import { dirname } from "node:path";

import { sqliteCode } from "./sqlite-codes.js";
import { openSqlite, type SqlDatabase, SqliteDriverError } from "./sqlite-driver.js";
import { createFile, type FileIdentity, sameFile, trustDirectory, trustedFile, writeWitness } from "./sqlite-file.js";
import { takeUpCheck } from "./sqlite-handover.js";
import { BUSY_TIMEOUT_MS, isBusy, SqliteLedger, unavailable } from "./sqlite-ledger.js";
import { StoreConfigError } from "./store.js";

export interface LedgerOptions {
  legacyDir?: string;
  checkpointInWorker?: boolean;
}

/** Opens a ledger on the file at `path`; `start`: the process is starting (may create the file, waits for locks). */
export function openLedger(path: string, start: boolean, options: LedgerOptions): { ledger: SqliteLedger; identity: FileIdentity } {
  let db: SqlDatabase | undefined;
  let identity: FileIdentity | undefined;
  try {
    trustDirectory(dirname(path));
    identity = trustedFile(path);
    if (!identity) {
      if (!start) throw new StoreConfigError(`nothing is at ${path}`);
      createFile(path);
      identity = trustedFile(path);
      if (!identity) throw new StoreConfigError(`the metering store ${path} was removed while it was being created`, true);
    }
    // At a start the log at the path is the file's own (commits of a process that stopped); a file
    // taken up while running brought none, and one found there is the replaced file's.
    if (!start) takeUpCheck(path);
    db = openSqlite(path, { busyTimeoutMs: start ? BUSY_TIMEOUT_MS : 0 });
    // The file SQLite opened is the one checked: a swap in between is seen here and tried again.
    if (!sameFile(trustedFile(path), identity))
      throw new StoreConfigError(`the metering store ${path} was replaced while it was being opened`, true);
    // A file taken up while running is read before anything is written to it: one that is not a store stays as it is.
    if (!start && !db.prepare<{ user_version: number }>("PRAGMA user_version").get()?.user_version) {
      throw new StoreConfigError(
        `the file at ${path} holds no metering store (no schema); put the store's file back, or point --store (CRYPTO_METRICS_STORE) at it`,
      );
    }
    db.exec("PRAGMA journal_mode = WAL");
    // In WAL mode NORMAL survives any process crash (kill -9); only a power cut or a file-system
    // failure may lose the last commits before a checkpoint, against an fsync per charge with FULL.
    db.exec("PRAGMA synchronous = NORMAL");
    // The WAL is cut back to 4 MB after a checkpoint that reaches its end. Servers under load
    // checkpoint in a worker thread (checkpointer.ts) instead of inline on the request path.
    db.exec("PRAGMA journal_size_limit = 4194304");
    if (options.checkpointInWorker) db.exec("PRAGMA wal_autocheckpoint = 0");
  } catch (err) {
    // A connection opened before a pragma failed is closed: a start tried again must not leak it.
    db?.close();
    if (err instanceof StoreConfigError) throw err;
    if (err instanceof SqliteDriverError) throw new StoreConfigError(`the metering store ${path} cannot be opened: ${err.message}`);
    const code = sqliteCode(err) ?? (err as { code?: string }).code ?? (err as Error).message;
    throw new StoreConfigError(
      `the metering store ${path} cannot be opened for writing (${code}); make its directory writable, or set CRYPTO_METRICS_STATE_DIR or --store (CRYPTO_METRICS_STORE) to a writable place`,
      isBusy(code),
    );
  }
  try {
    SqliteLedger.migrate(db, path, start);
    writeWitness(path);
    const ledger = new SqliteLedger(path, db);
    if (start && options.legacyDir) ledger.importLegacy(options.legacyDir);
    // From here on a lock held elsewhere is waited for asynchronously (SqliteStore), never inside SQLite.
    db.exec("PRAGMA busy_timeout = 0");
    return { ledger, identity };
  } catch (err) {
    db.close();
    if (err instanceof StoreConfigError) throw err;
    throw new StoreConfigError(`the metering store ${path} cannot be prepared: ${unavailable(err, path).message}`, isBusy(sqliteCode(err)));
  }
}
