// The embedded metering store: one SQLite file (WAL) shared by every local process. Each charge
// is one BEGIN IMMEDIATE transaction, so processes serialize on SQLite's write lock and never
// need to know of each other; a killed process leaves nothing half-written. The store is the
// file at its path: one deleted or replaced under a running process is noticed at the next
// charge, never written to unseen. Waiting for another connection's lock never blocks the event loop.
import { log } from "../../../log.js";
import { type Checkpointer, startCheckpointer } from "./checkpointer.js";
import { sqliteCode } from "./sqlite-codes.js";
import { type FileIdentity, identityOf, sameFile } from "./sqlite-file.js";
import { ForeignLogError, letGo } from "./sqlite-handover.js";
import { BUSY_TIMEOUT_MS, type ChargeRequest, isBusy, SQLITE_SCHEMA_VERSION, type SqliteLedger, unavailable } from "./sqlite-ledger.js";
import { type LedgerOptions, openLedger } from "./sqlite-open.js";
import {
  type ChargeOutcome,
  type MeteringStore,
  type MeterKey,
  type MeterStatus,
  StoreConfigError,
  StoreUnavailableError,
} from "./store.js";

export { SQLITE_SCHEMA_VERSION };

const SLEEP = new Int32Array(new SharedArrayBuffer(4));
/** A file at the path that could not be opened is tried again at most this often. */
const REOPEN_EVERY_MS = 1_000;

interface Pending extends ChargeRequest {
  deadline: number;
  resolve(outcome: ChargeOutcome): void;
  reject(err: Error): void;
}

/** Thrown by current() while a file let go is still being closed: the caller waits for it, then tries again. */
const SETTLING = new Error("the metering store's previous file is still closing");

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Backoff while another connection holds the lock: short at first, never long, jittered. */
const busyDelay = (attempt: number) => Math.min(25, 2 ** attempt) * (0.5 + Math.random());

export class SqliteStore implements MeteringStore {
  readonly kind = "sqlite" as const;
  readonly location: string;
  /** Undefined while the file at the path is not a store this process can use. */
  private ledger: SqliteLedger | undefined;
  private identity: FileIdentity | undefined;
  private checkpointer: Checkpointer | undefined;
  private queue: Pending[] = [];
  private scheduled = false;
  private busyAttempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Set while a file let go is being closed: nothing opens the path until its log is emptied into it. */
  private settling: Promise<void> | undefined;
  /** Why the store is unusable now, and when the file at the path may be tried again. */
  private lost: { message: string; tried?: FileIdentity; retryAt: number; fix?: string } | undefined;

  private constructor(
    readonly path: string,
    private readonly options: LedgerOptions,
    opened: { ledger: SqliteLedger; identity: FileIdentity },
  ) {
    this.location = `sqlite:${path}`;
    this.adopt(opened);
  }

  /** Opens (creating if needed) the store file; imports an earlier version's usage from `legacyDir` once. */
  static open(path: string, options: LedgerOptions = {}): SqliteStore {
    // Some lock conflicts while a connection opens a WAL file are answered with SQLITE_BUSY at once,
    // without waiting on the busy timeout (another process running WAL recovery, or its last
    // connection checkpointing and removing the WAL as it closes): those starts are tried again.
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return new SqliteStore(path, options, openLedger(path, true, options));
      } catch (err) {
        if (!(err instanceof StoreConfigError) || !err.busy || Date.now() >= deadline) throw err;
        Atomics.wait(SLEEP, 0, 0, Math.min(100, 5 * attempt) * (0.5 + Math.random()));
      }
    }
  }

  private adopt({ ledger, identity }: { ledger: SqliteLedger; identity: FileIdentity }): void {
    this.ledger = ledger;
    this.identity = identity;
    this.lost = undefined;
    if (this.options.checkpointInWorker) this.checkpointer = startCheckpointer(this.path, identity);
  }

  /** Lets go of a file that is no longer the one at the path. */
  private abandon(ledger: SqliteLedger, message: string): void {
    this.ledger = undefined;
    this.lost = { message, retryAt: 0 };
    log.error("metering store lost; charges are refused until it is back", { store: this.location, reason: message });
    // No transaction starts on the old file once the path changed (every one checks first), so
    // nothing is appended to its log after this; charges wait until it is emptied and closed.
    const checkpointer = this.checkpointer;
    this.checkpointer = undefined;
    this.settling = letGo(ledger.db, checkpointer).finally(() => {
      this.settling = undefined;
    });
  }

  /**
   * The ledger of the file now at the path. Checked before every transaction (one lstat): a file
   * deleted or replaced since it was opened is let go, and a store put back at the path (a backup
   * restored, a file moved in) is taken up without a restart; never a new empty one.
   */
  private current(): SqliteLedger {
    const now = identityOf(this.path);
    if (this.ledger && sameFile(now, this.identity)) return this.ledger;
    if (this.ledger) {
      this.abandon(
        this.ledger,
        now
          ? `The metering store ${this.path} was replaced by another file while this process was using it`
          : `The metering store ${this.path} was deleted while this process was using it`,
      );
    }
    if (this.settling) throw SETTLING;
    const lost = this.lost!;
    if (now && !(sameFile(now, lost.tried) && Date.now() < lost.retryAt)) {
      try {
        this.adopt(openLedger(this.path, false, this.options));
        log.info("metering store back", { store: this.location });
        return this.ledger!;
      } catch (err) {
        lost.tried = now;
        lost.retryAt = Date.now() + REOPEN_EVERY_MS;
        // A log at the path says what to do itself; anything else wrong with the file, the suffix below.
        lost.fix = err instanceof ForeignLogError ? (err as Error).message : undefined;
        lost.message = `The file now at ${this.path} cannot be used as the metering store (${(err as Error).message})`;
      }
    }
    const client =
      "The metering store's file is missing or was replaced. Nothing was served or charged; charging resumes without a restart once the operator restores it.";
    if (now && lost.fix) throw new StoreUnavailableError(lost.fix, client);
    const fix = now ? "put the store's own file back" : "restore the file (from a backup)";
    throw new StoreUnavailableError(
      `${lost.message}. Nothing was served or charged; ${fix} and charging resumes without a restart.`,
      client,
    );
  }

  /**
   * Charges that arrive in the same turn of the event loop share one transaction (group commit):
   * each is still decided in turn against the state the previous ones left, and none is answered
   * before the commit that records it. Under concurrent load the commit's WAL write is paid once
   * per batch instead of once per request.
   */
  charge(key: MeterKey, cost: number, nowMs: number = Date.now()): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ key, cost, nowMs, deadline: Date.now() + BUSY_TIMEOUT_MS, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    this.retryTimer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (!batch.length) return;
    let outcomes: ChargeOutcome[];
    try {
      outcomes = this.current().chargeTx(batch);
    } catch (err) {
      // The transaction rolled back as a whole: nothing in the batch was charged.
      if (err === SETTLING) {
        this.queue = batch.concat(this.queue);
        this.scheduled = true;
        void this.settling!.then(() => this.flush());
        return;
      }
      if (isBusy(sqliteCode(err))) return this.waitForLock(batch, err);
      const error = err instanceof StoreUnavailableError ? err : unavailable(err, this.path);
      for (const p of batch) p.reject(error);
      return;
    }
    this.busyAttempt = 0;
    batch.forEach((p, i) => p.resolve(outcomes[i]!));
  }

  /** Another connection holds the write lock: the batch (and what arrives meanwhile) is tried again later, each charge until its deadline. */
  private waitForLock(batch: Pending[], err: unknown): void {
    const now = Date.now();
    const waiting = batch.filter((p) => p.deadline > now);
    if (waiting.length < batch.length) {
      const error = unavailable(err, this.path);
      for (const p of batch) if (p.deadline <= now) p.reject(error);
    }
    this.queue = waiting.concat(this.queue);
    if (!this.queue.length) return;
    this.scheduled = true;
    this.retryTimer = setTimeout(() => this.flush(), busyDelay(this.busyAttempt++));
  }

  /** One transaction outside the charge queue, retried asynchronously while another connection holds a lock. */
  private async withLock<T>(fn: (ledger: SqliteLedger) => T): Promise<T> {
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return fn(this.current());
      } catch (err) {
        if (err === SETTLING) {
          await this.settling;
          continue;
        }
        if (err instanceof StoreUnavailableError) throw err;
        if (!isBusy(sqliteCode(err)) || Date.now() >= deadline) throw unavailable(err, this.path);
      }
      await sleep(busyDelay(attempt));
    }
  }

  refund(key: MeterKey, request: number, cost: number): Promise<void> {
    return this.withLock((ledger) => ledger.refundTx(key, request, cost));
  }

  status(key: MeterKey, nowMs: number = Date.now()): Promise<MeterStatus> {
    return this.withLock((ledger) => ledger.statusTx(key, nowMs));
  }

  spent(keyId: string): Promise<number> {
    return this.withLock((ledger) => ledger.spentTx(keyId));
  }

  async close(): Promise<void> {
    clearTimeout(this.retryTimer);
    if (this.queue.length && this.ledger?.db.open) this.flush();
    // A batch still waiting for the lock when the process stops is refused (nothing was charged).
    clearTimeout(this.retryTimer);
    const left = this.queue;
    this.queue = [];
    for (const p of left)
      p.reject(
        new StoreUnavailableError(
          `The metering store ${this.path} was closed while another process held it locked. Nothing was served or charged; retry.`,
        ),
      );
    await this.checkpointer?.stop();
    await this.settling;
    if (this.ledger?.db.open) this.ledger.db.close();
  }
}
