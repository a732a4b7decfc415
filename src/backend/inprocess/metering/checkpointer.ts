// Moves SQLite's WAL checkpoints off the event loop. A checkpoint fsyncs the WAL and the database
// file; inline (SQLite's auto-checkpoint, every ~250 charges) that stalled requests for milliseconds,
// tens of them on a busy disk. A worker thread with its own connection checkpoints instead; the
// request path then only appends to the WAL. PASSIVE checkpoints never block writers.
import { driverModule } from "./sqlite-driver.js";

const INTERVAL_MS = 250;

// Plain CommonJS run by the worker (eval), so it needs no file of its own next to the bundle. It
// opens its connection with the binding the main thread uses (node:sqlite or better-sqlite3); a
// worker would print node:sqlite's ExperimentalWarning again, so that one warning is dropped there too.
// A worker starts while requests go on: it opens the path only while the store it was started for
// is still the file there, since opening a missing path would create an empty database in its place.
// A file moved there while it opened is seen after the open (the connection is dropped unread), and
// one moved there later before every checkpoint: the log at the path is then read by name as the
// new file's, so the worker never checkpoints again and the main thread lets the old file go.
const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const ours = () => {
  const st = require("node:fs").lstatSync(workerData.path, { throwIfNoEntry: false });
  return !!st && st.dev === workerData.dev && st.ino === workerData.ino;
};
if (!ours()) process.exit(0);
let db;
if (workerData.driver === "node:sqlite") {
  const emitWarning = process.emitWarning;
  process.emitWarning = (w, t, ...rest) => {
    const type = typeof t === "string" ? t : t && t.type;
    if (!(type === "ExperimentalWarning" && /^SQLite\\b/.test(String(w && w.message || w)))) emitWarning.call(process, w, t, ...rest);
  };
  const { DatabaseSync } = require("node:sqlite");
  process.emitWarning = emitWarning;
  db = new DatabaseSync(workerData.path);
  db.exec("PRAGMA busy_timeout = 1000");
} else {
  const Database = require(workerData.driver);
  db = new Database(workerData.path, { timeout: 1000, fileMustExist: true });
}
if (!ours()) { db.close(); process.exit(0); }
const checkpoint = () => { if (ours()) db.exec("PRAGMA wal_checkpoint(PASSIVE)"); };
const timer = setInterval(() => {
  try { checkpoint(); } catch { /* busy or gone: the next tick retries */ }
}, workerData.intervalMs);
parentPort.on("message", () => { clearInterval(timer); try { checkpoint(); } catch {} try { db.close(); } catch {} process.exit(0); });
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/** `identity`: the store file the worker checkpoints; a worker that finds another file there (or none) does nothing. */
export function startCheckpointer(path: string, identity: { dev: number; ino: number }): Checkpointer {
  // Fetched only by servers that checkpoint this way: node:worker_threads is not loaded by Node at start.
  const { Worker } = process.getBuiltinModule("node:worker_threads");
  const driver = driverModule();
  // No inherited flags: the source is CommonJS even in a process started with --input-type=module.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { path, dev: identity.dev, ino: identity.ino, driver, intervalMs: INTERVAL_MS },
  });
  // Never what keeps a process alive; a failed worker leaves checkpoints to the next close.
  worker.unref();
  worker.on("error", () => undefined);
  // A worker that already died (its error is ignored above) has nothing to wait for.
  let exited = false;
  worker.once("exit", () => {
    exited = true;
  });
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= exited
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            // Held while it finishes its last checkpoint, or a closing process would not wait for it.
            worker.ref();
            worker.once("exit", () => resolve());
            worker.postMessage("stop");
            setTimeout(() => void worker.terminate().then(() => resolve()), 2_000).unref();
          });
      return stopped;
    },
  };
}
