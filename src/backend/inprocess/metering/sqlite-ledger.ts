// One open SQLite store file: its statements and the ledger's arithmetic (rate window, balance,
// refund), each operation one transaction. sqlite-store.ts decides when a file is opened, watched
// and given up; this file only reads and writes the one it was handed.
import { hasLegacyUsage, readLegacyUsage, retireLegacyUsage } from "./legacy-usage.js";
import { sqliteCode } from "./sqlite-codes.js";
import type { SqlDatabase } from "./sqlite-driver.js";
import { HEAD, MIGRATIONS, SQLITE_SCHEMA_VERSION } from "./sqlite-schema.js";
import { ceilSeconds, type ChargeOutcome, type MeterKey, type MeterStatus, StoreConfigError, StoreUnavailableError } from "./store.js";

export { SQLITE_SCHEMA_VERSION };
/** How long a charge waits for another process's transaction before failing as store_unavailable. */
export const BUSY_TIMEOUT_MS = 5_000;
/** Expired rate-log rows are deleted in bulk once every this many charges of a key, not one per charge. */
const TRIM_EVERY = 64;

export const isBusy = (code: string | undefined) => code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";

interface MeterRow {
  spent: number;
  requests: number;
  seq: number;
  last_ms: number;
  first_seq: number;
}
export interface ChargeRequest {
  key: MeterKey;
  cost: number;
  nowMs: number;
}
interface LogRow {
  seq: number;
  t_ms: number;
}

/** The store's words for an SQLite failure during a request. */
export function unavailable(err: unknown, path: string): Error {
  const code = sqliteCode(err);
  if (!code) return err as Error;
  const why =
    code === "SQLITE_FULL"
      ? "the disk holding it is full"
      : code === "SQLITE_READONLY"
        ? "it cannot be written (read-only file or file system)"
        : code === "SQLITE_BUSY"
          ? `another process held it locked for more than ${BUSY_TIMEOUT_MS / 1000} s`
          : code === "SQLITE_IOERR"
            ? "the file system reported an I/O error"
            : `SQLite failed with ${code}`;
  return new StoreUnavailableError(
    `The metering store ${path} cannot record the charge: ${why}. Nothing was served or charged; retry once it is writable again.`,
  );
}

export class SqliteLedger {
  readonly db: SqlDatabase;
  private readonly stmt;

  /** Key digest → its number in `ledger`, for numbers committed to the file (they never change). */
  private readonly numbers = new Map<string, number>();
  /** Numbers read or given inside the open transaction: known for good only once it commits. */
  private fresh: [string, number][] = [];

  constructor(
    readonly path: string,
    db: SqlDatabase,
  ) {
    this.db = db;
    this.stmt = {
      number: db.prepare<{ no: number }>("SELECT no FROM keys WHERE key_id = ?"),
      // Numbers are given under the write lock (BEGIN IMMEDIATE): two processes never give the same one.
      numberNew: db.prepare<{ no: number }>("INSERT INTO keys (key_id, no) SELECT ?, coalesce(max(no), 0) + 1 FROM keys RETURNING no"),
      meter: db.prepare<MeterRow>(
        `SELECT spent, id AS requests, next_seq AS seq, t_ms AS last_ms, first_seq FROM ledger WHERE key_no = ? AND seq = ${HEAD}`,
      ),
      // The head row with the time of the request R places back (R = the limit given), in one statement.
      charging: db.prepare<
        MeterRow & { oldest: number | null }
      >(`SELECT h.spent, h.id AS requests, h.next_seq AS seq, h.t_ms AS last_ms, h.first_seq, r.t_ms AS oldest
        FROM ledger h LEFT JOIN ledger r ON r.key_no = h.key_no AND r.seq = h.next_seq - ? WHERE h.key_no = ? AND h.seq = ${HEAD}`),
      // The first row from a position on that is still inside the window (times grow with seq).
      first: db.prepare<LogRow>(
        `SELECT seq, t_ms FROM ledger WHERE key_no = ? AND seq >= ? AND seq < ${HEAD} AND t_ms > ? ORDER BY seq LIMIT 1`,
      ),
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
      unseq: db.prepare(
        `UPDATE ledger SET next_seq = next_seq - 1, first_seq = CASE WHEN first_seq > ? THEN first_seq - 1 ELSE first_seq END WHERE key_no = ? AND seq = ${HEAD}`,
      ),
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

  chargeTx(batch: readonly ChargeRequest[]): ChargeOutcome[] {
    return this.transaction("immediate", () => batch.map((p) => this.chargeIn(p.key, p.cost, p.nowMs)));
  }

  /** Balance and window read in one snapshot (a read transaction), never across another's commit. */
  statusTx(key: MeterKey, nowMs: number): MeterStatus {
    return this.transaction("deferred", () => {
      const no = this.keyNumber(key.id, false);
      const row = no === undefined ? undefined : this.stmt.meter.get(no);
      const now = Math.max(nowMs, row?.last_ms ?? 0);
      return { creditsRemaining: Math.max(0, key.credits - (row?.spent ?? 0)), rate: this.rate(key, no ?? 0, row, now) };
    });
  }

  refundTx(key: MeterKey, request: number, cost: number): void {
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

  /**
   * Brings the file's schema to this release's. `create`: a file with no schema at all (one this
   * process just created) gets one; otherwise such a file is not a store and is refused.
   */
  static migrate(db: SqlDatabase, path: string, create: boolean): void {
    const userVersion = db.prepare<{ user_version: number }>("PRAGMA user_version");
    // The common start finds the schema current: no write lock for it.
    if (userVersion.get()?.user_version === SQLITE_SCHEMA_VERSION) return;
    db.transaction("immediate", () => {
      const version = userVersion.get()?.user_version ?? 0;
      if (version === 0 && !create) {
        throw new StoreConfigError(
          `the file at ${path} holds no metering store (no schema); put the store's file back, or point --store (CRYPTO_METRICS_STORE) at it`,
        );
      }
      if (version > SQLITE_SCHEMA_VERSION) {
        throw new StoreConfigError(
          `the metering store ${path} has schema version ${version}, newer than this release understands (${SQLITE_SCHEMA_VERSION}); upgrade crypto-metrics-mcp, or point --store (CRYPTO_METRICS_STORE) at another file`,
        );
      }
      for (let v = version + 1; v <= SQLITE_SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
      db.exec(`PRAGMA user_version = ${SQLITE_SCHEMA_VERSION}`);
    });
  }

  /** Under the write lock: a concurrent start finds the import recorded and the files gone. */
  importLegacy(dir: string): void {
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

  spentTx(keyId: string): number {
    return this.transaction("deferred", () => {
      const no = this.keyNumber(keyId, false);
      return no === undefined ? 0 : (this.stmt.meter.get(no)?.spent ?? 0);
    });
  }
}
