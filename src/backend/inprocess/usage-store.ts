// Durable record of credits spent per key digest. Each charge is appended to this process's
// journal with a synchronous write before the response leaves (a kill -9 loses nothing already
// delivered; fdatasync follows within FSYNC_DELAY_MS for power loss). Journals are folded into
// usage.json (temp file + fsync + rename) on close, on rotation and at the next start.
import { randomBytes } from "node:crypto";
import {
  closeSync, existsSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync,
  renameSync, statSync, unlinkSync, writeSync,
} from "node:fs";
import { join } from "node:path";
import { log } from "../../log.js";

export const USAGE_FILE = "usage.json";
const LOCK_FILE = "usage.lock";
const JOURNAL_RE = /^journal-(\d+)-[0-9a-f]{8}\.log$/;
const LINE_RE = /^([0-9a-f]{64}) (\d{1,16})$/;
const FSYNC_DELAY_MS = 250;
const ROTATE_BYTES = 4 * 1024 * 1024;

export class UsageStateError extends Error {
  override readonly name = "UsageStateError";
}

interface Snapshot {
  version: 1;
  /** Credits spent, by SHA-256 key digest (hex). */
  spent: Record<string, number>;
  /** Bytes of each journal already folded into `spent`, so a crash mid-compaction never counts twice. */
  journals: Record<string, number>;
}

/** Journals open in this process (tests and embedders may run several stores on one directory). */
const ACTIVE_JOURNALS = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export class UsageStore {
  private readonly spentById = new Map<string, number>();
  private fd: number | undefined;
  private journalName = "";
  private journalBytes = 0;
  private fsyncTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(readonly stateDir: string) {}

  /** Loads usage.json plus every journal, then folds the journals of ended processes into usage.json. */
  static open(stateDir: string): UsageStore {
    try {
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new UsageStateError(`state directory ${stateDir} cannot be created (${(err as NodeJS.ErrnoException).code}); set CRYPTO_METRICS_STATE_DIR to a writable directory`);
    }
    const store = new UsageStore(stateDir);
    // Under the lock: a compaction by another process between reading usage.json and the journals
    // would move a journal's charges into a snapshot already read, and this process would miss them.
    const locked = store.lock();
    try {
      const snap = store.readSnapshot();
      for (const [id, n] of Object.entries(snap.spent)) store.spentById.set(id, n);
      for (const name of store.journalNames()) {
        store.readJournal(name, snap.journals[name] ?? 0, (id, n) => store.spentById.set(id, (store.spentById.get(id) ?? 0) + n));
      }
    } finally {
      if (locked) store.unlock();
    }
    store.compact(false);
    return store;
  }

  spent(id: string): number {
    return this.spentById.get(id) ?? 0;
  }

  /** Records a charge durably enough to survive a process kill; throws when it cannot be written. */
  record(id: string, credits: number): void {
    if (this.closed) throw new UsageStateError("usage store is closed");
    if (credits <= 0) return;
    if (this.fd === undefined) {
      this.journalName = `journal-${process.pid}-${randomBytes(4).toString("hex")}.log`;
      this.fd = openSync(join(this.stateDir, this.journalName), "a", 0o600);
      ACTIVE_JOURNALS.add(this.journalName);
      this.journalBytes = 0;
    }
    const line = `${id} ${credits}\n`;
    this.journalBytes += writeSync(this.fd, line);
    this.spentById.set(id, this.spent(id) + credits);
    this.fsyncTimer ??= setTimeout(() => this.flush(), FSYNC_DELAY_MS).unref();
    if (this.journalBytes < ROTATE_BYTES) return;
    // The charge is recorded: failing now would answer 500 "nothing was charged" for a charged
    // request. A journal that could not be folded stays in place and is folded at the next start.
    try {
      this.rotate();
    } catch (err) {
      log.warn("usage journal could not be folded into usage.json; it is kept and counted at the next start", { error: (err as Error).message });
    }
  }

  /** Forces journal bytes to disk. */
  flush(): void {
    if (this.fsyncTimer) clearTimeout(this.fsyncTimer);
    this.fsyncTimer = undefined;
    if (this.fd !== undefined) fdatasyncSync(this.fd);
  }

  /** Flushes and folds this process's journal into usage.json. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.rotate();
    this.closed = true;
  }

  private rotate(): void {
    if (this.fd === undefined) return;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
    ACTIVE_JOURNALS.delete(this.journalName);
    this.compact(true);
  }

  private journalNames(): string[] {
    return readdirSync(this.stateDir).filter((n) => JOURNAL_RE.test(n)).sort();
  }

  private readSnapshot(): Snapshot {
    const path = join(this.stateDir, USAGE_FILE);
    if (!existsSync(path)) return { version: 1, spent: {}, journals: {} };
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(path, "utf8"));
    } catch (err) {
      throw new UsageStateError(`${path} is corrupt (${(err as Error).message}). It records credits already spent, so it is not reset automatically: restore it, or delete it to forgive all recorded usage`);
    }
    const snap = doc as Partial<Snapshot>;
    const valid = snap && snap.version === 1 && typeof snap.spent === "object" && snap.spent !== null &&
      Object.entries(snap.spent).every(([k, v]) => /^[0-9a-f]{64}$/.test(k) && Number.isSafeInteger(v) && v >= 0) &&
      typeof snap.journals === "object" && snap.journals !== null;
    if (!valid) throw new UsageStateError(`${path} does not have the expected shape {version: 1, spent, journals}; restore it, or delete it to forgive all recorded usage`);
    return snap as Snapshot;
  }

  /** Applies the complete lines of a journal after `offset`; returns the offset after the last complete line. */
  private readJournal(name: string, offset: number, apply: (id: string, credits: number) => void): number {
    const text = readFileSync(join(this.stateDir, name)).subarray(offset).toString("utf8");
    const end = text.lastIndexOf("\n") + 1;
    // A trailing partial line is a write cut short by a crash: its response was never sent.
    const lines = text.slice(0, end).split("\n");
    lines.pop();
    lines.forEach((line, i) => {
      const m = LINE_RE.exec(line);
      if (!m) throw new UsageStateError(`${join(this.stateDir, name)} has a corrupt record after byte ${offset} (line ${i + 1}); restore or remove the file`);
      apply(m[1]!, Number(m[2]));
    });
    return offset + Buffer.byteLength(text.slice(0, end));
  }

  /** Folds journals of ended processes (and this one's closed journal) into usage.json, under a lock. */
  private compact(includeOwn: boolean): void {
    if (!this.lock()) {
      log.warn("usage state is locked by another process; journals stay in place and are counted at the next start");
      return;
    }
    try {
      const snap = this.readSnapshot();
      const present = this.journalNames();
      const done: string[] = [];
      for (const name of present) {
        const pid = Number(JOURNAL_RE.exec(name)![1]);
        // Another journal under this pid belongs to an earlier process (pid 1 in containers).
        const ended = name === this.journalName ? includeOwn
          : !ACTIVE_JOURNALS.has(name) && (pid === process.pid || !processAlive(pid));
        if (!ended) continue;
        snap.journals[name] = this.readJournal(name, snap.journals[name] ?? 0, (id, n) => {
          snap.spent[id] = (snap.spent[id] ?? 0) + n;
        });
        done.push(name);
      }
      for (const name of Object.keys(snap.journals)) if (!present.includes(name)) delete snap.journals[name];
      if (done.length === 0 && existsSync(join(this.stateDir, USAGE_FILE))) return;
      this.writeSnapshot(snap);
      for (const name of done) unlinkSync(join(this.stateDir, name));
    } finally {
      this.unlock();
    }
  }

  private writeSnapshot(snap: Snapshot): void {
    const path = join(this.stateDir, USAGE_FILE);
    const temp = `${path}.${process.pid}.tmp`;
    const fd = openSync(temp, "w", 0o600);
    try {
      writeSync(fd, JSON.stringify(snap) + "\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
    try {
      const dir = openSync(this.stateDir, "r");
      try { fsyncSync(dir); } finally { closeSync(dir); }
    } catch {
      // Some platforms cannot fsync a directory; the rename itself is still atomic.
    }
  }

  private lock(): boolean {
    const path = join(this.stateDir, LOCK_FILE);
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        const fd = openSync(path, "wx", 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        if (this.lockIsStale(path)) {
          try { unlinkSync(path); } catch { /* another process took it first */ }
          continue;
        }
        sleepSync(10);
      }
    }
    return false;
  }

  private lockIsStale(path: string): boolean {
    try {
      const pid = Number(readFileSync(path, "utf8"));
      // No pid yet is a lock being taken (created, pid not yet written), not an abandoned one.
      const holderGone = Number.isInteger(pid) && pid > 0 && (pid === process.pid || !processAlive(pid));
      return holderGone || Date.now() - statSync(path).mtimeMs > 30_000;
    } catch {
      return false;
    }
  }

  private unlock(): void {
    try { unlinkSync(join(this.stateDir, LOCK_FILE)); } catch { /* already gone */ }
  }
}
