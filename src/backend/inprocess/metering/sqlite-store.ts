// The embedded metering store: one SQLite file (WAL) shared by every local process. Each charge
// is one BEGIN IMMEDIATE transaction, so processes serialize on SQLite's write lock and never
// need to know of each other; a killed process leaves nothing half-written.
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { startCheckpointer, type Checkpointer } from "./checkpointer.js";
import { openSqlite, SqliteDriverError, sqliteCode, type SqlDatabase } from "./sqlite-driver.js";
import { HEAD, MIGRATIONS, SQLITE_SCHEMA_VERSION } from "./sqlite-schema.js";
import { hasLegacyUsage, readLegacyUsage, retireLegacyUsage } from "./legacy-usage.js";
import { ceilSeconds, StoreConfigError, StoreUnavailableError, type ChargeOutcome, type MeterKey, type MeteringStore, type MeterStatus } from "./store.js";

export { SQLITE_SCHEMA_VERSION };
/** How long a charge waits for another process's transaction before failing as store_unavailable. */
const BUSY_TIMEOUT_MS = 5_000;
/** Expired rate-log rows are deleted in bulk once every this many charges of a key, not one per charge. */
const TRIM_EVERY = 64;

const SLEEP = new Int32Array(new SharedArrayBuffer(4));
const isBusy = (code: string | undefined) => code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";

interface MeterRow { spent: number; requests: number; seq: number; last_ms: number; first_seq: number }
interface Pending { key: MeterKey; cost: number; nowMs: number; resolve(outcome: ChargeOutcome): void; reject(err: Error): void }
interface LogRow { seq: number; t_ms: number }

/** The store's words for an SQLite failure during a request. */
function unavailable(err: unknown, path: string): Error {
  const code = sqliteCode(err);
  if (!code) return err as Error;
  const why = code === "SQLITE_FULL" ? "the disk holding it is full"
    : code === "SQLITE_READONLY" ? "it cannot be written (read-only file or file system)"
      : code === "SQLITE_BUSY" ? `another process held it locked for more than ${BUSY_TIMEOUT_MS / 1000} s`
        : code === "SQLITE_IOERR" ? "the file system reported an I/O error"
          : `SQLite failed with ${code}`;
  return new StoreUnavailableError(`The metering store ${path} cannot record the charge: ${why}. Nothing was served or charged; retry once it is writable again.`);
}

export class SqliteStore implements MeteringStore {
  readonly kind = "sqlite" as const;
  readonly location: string;
  private readonly db: SqlDatabase;
  private readonly stmt;
  private queue: Pending[] = [];
  private checkpointer: Checkpointer | undefined;

  /** Key digest → its number in `ledger`, for numbers committed to the file (they never change). */
  private readonly numbers = new Map<string, number>();
  /** Numbers read or given inside the open transaction: known for good only once it commits. */
  private fresh: [string, number][] = [];

  private constructor(readonly path: string, db: SqlDatabase) {
    this.location = `sqlite:${path}`;
    this.db = db;
    this.stmt = {
      number: db.prepare<{ no: number }>("SELECT no FROM keys WHERE key_id = ?"),
      // Numbers are given under the write lock (BEGIN IMMEDIATE): two processes never give the same one.
      numberNew: db.prepare<{ no: number }>("INSERT INTO keys (key_id, no) SELECT ?, coalesce(max(no), 0) + 1 FROM keys RETURNING no"),
      meter: db.prepare<MeterRow>(`SELECT spent, id AS requests, next_seq AS seq, t_ms AS last_ms, first_seq FROM ledger WHERE key_no = ? AND seq = ${HEAD}`),
      // The head row with the time of the request R places back (R = the limit given), in one statement.
      charging: db.prepare<MeterRow & { oldest: number | null }>(`SELECT h.spent, h.id AS requests, h.next_seq AS seq, h.t_ms AS last_ms, h.first_seq, r.t_ms AS oldest
        FROM ledger h LEFT JOIN ledger r ON r.key_no = h.key_no AND r.seq = h.next_seq - ? WHERE h.key_no = ? AND h.seq = ${HEAD}`),
      // The first row from a position on that is still inside the window (times grow with seq).
      first: db.prepare<LogRow>(`SELECT seq, t_ms FROM ledger WHERE key_no = ? AND seq >= ? AND seq < ${HEAD} AND t_ms > ? ORDER BY seq LIMIT 1`),
      log: db.prepare("INSERT INTO ledger (key_no, seq, id, t_ms) VALUES (?, ?, ?, ?)"),
      // Rows before the window's first: out of the window for good.
      trim: db.prepare("DELETE FROM ledger WHERE key_no = ? AND seq < ?"),
      // The row was read in the same transaction: one statement sets it whole, no upsert needed.
      debit: db.prepare(`UPDATE ledger SET spent = ?, id = ?, next_seq = ?, t_ms = ?, first_seq = ? WHERE key_no = ? AND seq = ${HEAD}`),
      open: db.prepare(`INSERT INTO ledger (spent, id, next_seq, t_ms, first_seq, key_no, seq) VALUES (?, ?, ?, ?, ?, ?, ${HEAD})`),
      // The position of a charge still in the log: at or below its number, found from the newest down.
      position: db.prepare<{ seq: number }>("SELECT seq FROM ledger WHERE key_no = ? AND seq <= ? AND id = ? ORDER BY seq DESC LIMIT 1"),
      unlog: db.prepare("DELETE FROM ledger WHERE key_no = ? AND seq = ?"),
      // The rows after a freed position move down one, through negative positions: no two rows ever share one.
      negate: db.prepare(`UPDATE ledger SET seq = -seq WHERE key_no = ? AND seq > ? AND seq < ${HEAD}`),
      restore: db.prepare("UPDATE ledger SET seq = -seq - 1 WHERE key_no = ? AND seq < 0"),
      unseq: db.prepare(`UPDATE ledger SET next_seq = next_seq - 1, first_seq = CASE WHEN first_seq > ? THEN first_seq - 1 ELSE first_seq END WHERE key_no = ? AND seq = ${HEAD}`),
      refund: db.prepare(`UPDATE ledger SET spent = max(0, spent - ?) WHERE key_no = ? AND seq = ${HEAD}`),
      add: db.prepare(`INSERT INTO ledger (key_no, seq, id, t_ms, spent, next_seq, first_seq) VALUES (?, ${HEAD}, 0, 0, ?, 0, 0)
        ON CONFLICT (key_no, seq) DO UPDATE SET spent = spent + excluded.spent`),
    };
  }

  /** The key's number in the file; a key never charged gets the next one when `give` (under the write lock). */
  private keyNumber(keyId: string, give: boolean): number | undefined {
    const known = this.numbers.get(keyId);
    if (known !== undefined) return known;
    const no = this.stmt.number.get(keyId)?.no ?? (give ? this.stmt.numberNew.get(keyId)!.no : undefined);
    if (no !== undefined) this.fresh.push([keyId, no]);
    return no;
  }

  /** A transaction whose key numbers are remembered once it commits (a rolled-back one gave none). */
  private transaction<T>(mode: "immediate" | "deferred", fn: () => T): T {
    this.fresh = [];
    const result = this.db.transaction(mode, fn);
    for (const [keyId, no] of this.fresh) this.numbers.set(keyId, no);
    this.fresh = [];
    return result;
  }

  private chargeTx(batch: readonly Pending[]): ChargeOutcome[] {
    return this.transaction("immediate", () => batch.map((p) => this.chargeIn(p.key, p.cost, p.nowMs)));
  }

  /** Balance and window read in one snapshot (a read transaction), never across another's commit. */
  private statusTx(key: MeterKey, nowMs: number): MeterStatus {
    return this.transaction("deferred", () => {
      const no = this.keyNumber(key.id, false);
      const row = no === undefined ? undefined : this.stmt.meter.get(no);
      const now = Math.max(nowMs, row?.last_ms ?? 0);
      return { creditsRemaining: Math.max(0, key.credits - (row?.spent ?? 0)), rate: this.rate(key, no ?? 0, row, now) };
    });
  }

  private refundTx(key: MeterKey, request: number, cost: number): void {
    this.transaction("immediate", () => {
      const no = this.keyNumber(key.id, false);
      const row = no === undefined ? undefined : this.stmt.meter.get(no);
      if (no === undefined || !row) return;
      // Not found: trimmed, so out of the window already (times only grow), and nothing to free.
      const at = this.stmt.position.get(no, Math.min(request, row.seq - 1), request);
      if (at) {
        this.stmt.unlog.run(no, at.seq);
        this.stmt.negate.run(no, at.seq);
        this.stmt.restore.run(no);
        this.stmt.unseq.run(at.seq, no);
      }
      this.stmt.refund.run(cost, no);
    });
  }

  /** Opens (creating if needed) the store file; imports an earlier version's usage from `legacyDir` once. */
  static open(path: string, options: { legacyDir?: string; checkpointInWorker?: boolean } = {}): SqliteStore {
    // Some lock conflicts while a connection opens a WAL file are answered with SQLITE_BUSY at once,
    // without waiting on the busy timeout (another process running WAL recovery, or its last
    // connection checkpointing and removing the WAL as it closes): those starts are tried again.
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return SqliteStore.openOnce(path, options);
      } catch (err) {
        if (!(err instanceof StoreConfigError) || !err.busy || Date.now() >= deadline) throw err;
        Atomics.wait(SLEEP, 0, 0, Math.min(100, 5 * attempt) * (0.5 + Math.random()));
      }
    }
  }

  private static openOnce(path: string, options: { legacyDir?: string; checkpointInWorker?: boolean }): SqliteStore {
    let db: SqlDatabase | undefined;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      // Created owner-only before SQLite opens it (the -wal and -shm files take its mode).
      closeSync(openSync(path, "a", 0o600));
      db = openSqlite(path, { busyTimeoutMs: BUSY_TIMEOUT_MS });
      db.exec("PRAGMA journal_mode = WAL");
      // In WAL mode NORMAL survives any process crash (kill -9); only a power cut may lose the
      // last commits before a checkpoint, against an fsync per charge (~0.3 ms) with FULL.
      db.exec("PRAGMA synchronous = NORMAL");
      // The WAL is cut back to 4 MB after a checkpoint that reaches its end. Servers under load
      // checkpoint in a worker thread (checkpointer.ts) instead of inline on the request path.
      db.exec("PRAGMA journal_size_limit = 4194304");
      if (options.checkpointInWorker) db.exec("PRAGMA wal_autocheckpoint = 0");
    } catch (err) {
      // A connection opened before a pragma failed is closed: a start tried again must not leak it.
      db?.close();
      if (err instanceof SqliteDriverError) throw new StoreConfigError(`the metering store ${path} cannot be opened: ${err.message}`);
      const code = sqliteCode(err) ?? (err as { code?: string }).code ?? (err as Error).message;
      throw new StoreConfigError(`the metering store ${path} cannot be opened for writing (${code}); make its directory writable, or set CRYPTO_METRICS_STATE_DIR or --store (CRYPTO_METRICS_STORE) to a writable place`, isBusy(code));
    }
    try {
      SqliteStore.migrate(db, path);
      const store = new SqliteStore(path, db);
      if (options.legacyDir) store.importLegacy(options.legacyDir);
      if (options.checkpointInWorker) store.checkpointer = startCheckpointer(path);
      return store;
    } catch (err) {
      db.close();
      if (err instanceof StoreConfigError) throw err;
      throw new StoreConfigError(`the metering store ${path} cannot be prepared: ${unavailable(err, path).message}`, isBusy(sqliteCode(err)));
    }
  }

  private static migrate(db: SqlDatabase, path: string): void {
    const userVersion = db.prepare<{ user_version: number }>("PRAGMA user_version");
    // The common start finds the schema current: no write lock for it.
    if (userVersion.get()?.user_version === SQLITE_SCHEMA_VERSION) return;
    db.transaction("immediate", () => {
      const version = userVersion.get()?.user_version ?? 0;
      if (version > SQLITE_SCHEMA_VERSION) {
        throw new StoreConfigError(`the metering store ${path} has schema version ${version}, newer than this release understands (${SQLITE_SCHEMA_VERSION}); upgrade crypto-metrics-mcp, or point --store (CRYPTO_METRICS_STORE) at another file`);
      }
      for (let v = version + 1; v <= SQLITE_SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
      db.exec(`PRAGMA user_version = ${SQLITE_SCHEMA_VERSION}`);
    });
  }

  /** Under the write lock: a concurrent start finds the import recorded and the files gone. */
  private importLegacy(dir: string): void {
    if (!hasLegacyUsage(dir)) return;
    const seen = this.db.prepare<{ n: number }>("SELECT 1 AS n FROM imports WHERE source = ?");
    const record = this.db.prepare("INSERT INTO imports (source, at_ms, credits) VALUES (?, ?, ?)");
    let undo: (() => void) | undefined;
    try {
      this.transaction("immediate", () => {
        const legacy = readLegacyUsage(dir);
        if (!legacy) return;
        if (!seen.get(legacy.id)) {
          for (const [id, n] of legacy.spent) this.stmt.add.run(this.keyNumber(id, true)!, n);
          record.run(legacy.id, Date.now(), legacy.total);
        }
        undo = retireLegacyUsage(dir, legacy.files);
      });
    } catch (err) {
      undo?.();
      throw err;
    }
  }

  private chargeIn(key: MeterKey, cost: number, nowMs: number): ChargeOutcome {
    const limit = key.rateLimit.requests;
    const no = this.keyNumber(key.id, true)!;
    const row = this.stmt.charging.get(limit, no);
    const seq = row?.seq ?? 0;
    const now = Math.max(nowMs, row?.last_ms ?? 0);
    const windowMs = key.rateLimit.windowSeconds * 1000;
    const spent = row?.spent ?? 0;
    const left = Math.max(0, key.credits - spent);
    // The request R places back: while it is inside the window, the window is full. A row no
    // longer kept was out of the window when it was trimmed.
    const oldest = row?.oldest ?? null;
    if (oldest !== null && oldest > now - windowMs) {
      const retryAfterS = ceilSeconds(oldest + windowMs - now);
      return { ok: false, reason: "rate_limited", retryAfterS, creditsRemaining: left, rate: this.rate(key, no, row, now) };
    }
    if (left < cost) return { ok: false, reason: "credits_exhausted", creditsRemaining: left, rate: this.rate(key, no, row, now) };
    const request = row?.requests ?? 0;
    this.stmt.log.run(no, seq, request, now);
    // The row just logged is inside the window: a first is always found.
    const first = this.stmt.first.get(no, Math.max(row?.first_seq ?? 0, seq + 1 - limit), now - windowMs)!;
    (row ? this.stmt.debit : this.stmt.open).run(spent + cost, request + 1, seq + 1, now, first.seq, no);
    if ((request + 1) % TRIM_EVERY === 0) this.stmt.trim.run(no, first.seq);
    const rate = { remaining: Math.max(0, limit - (seq + 1 - first.seq)), resetS: ceilSeconds(first.t_ms + windowMs - now) };
    return { ok: true, request, creditsRemaining: left - cost, rate };
  }

  private rate(key: MeterKey, no: number, row: MeterRow | undefined, now: number): MeterStatus["rate"] {
    const limit = key.rateLimit.requests;
    const windowMs = key.rateLimit.windowSeconds * 1000;
    const seq = row?.seq ?? 0;
    const first = row && this.stmt.first.get(no, Math.max(row.first_seq, seq - limit), now - windowMs);
    if (!first) return { remaining: limit, resetS: 0 };
    return { remaining: Math.max(0, limit - (seq - first.seq)), resetS: ceilSeconds(first.t_ms + windowMs - now) };
  }

  /**
   * Charges that arrive in the same turn of the event loop share one transaction (group commit):
   * each is still decided in turn against the state the previous ones left, and none is answered
   * before the commit that records it. Under concurrent load the commit's WAL write is paid once
   * per batch instead of once per request.
   */
  charge(key: MeterKey, cost: number, nowMs: number = Date.now()): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ key, cost, nowMs, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    let outcomes: ChargeOutcome[];
    try {
      outcomes = this.chargeTx(batch);
    } catch (err) {
      // The transaction rolled back as a whole: nothing in the batch was charged.
      const error = unavailable(err, this.path);
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => p.resolve(outcomes[i]!));
  }

  async refund(key: MeterKey, request: number, cost: number): Promise<void> {
    try {
      this.refundTx(key, request, cost);
    } catch (err) {
      throw unavailable(err, this.path);
    }
  }

  async status(key: MeterKey, nowMs: number = Date.now()): Promise<MeterStatus> {
    try {
      return this.statusTx(key, nowMs);
    } catch (err) {
      throw unavailable(err, this.path);
    }
  }

  async spent(keyId: string): Promise<number> {
    return this.transaction("deferred", () => {
      const no = this.keyNumber(keyId, false);
      return no === undefined ? 0 : this.stmt.meter.get(no)?.spent ?? 0;
    });
  }

  async close(): Promise<void> {
    if (this.queue.length && this.db.open) this.flush();
    await this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }
}
