// The few SQLite calls the embedded store makes, over whichever binding the runtime offers: Node's
// built-in node:sqlite (no flag from Node 22.13 / 23.4; nothing to compile, nothing to break at
// exit) and better-sqlite3 where it is missing (Node 20). better-sqlite3 is required lazily, so a
// runtime with node:sqlite never loads its native addon. Transactions are explicit BEGIN /
// COMMIT / ROLLBACK on both, and errors carry the same SQLite code names, so the store behaves
// identically on either. Neither available is a SqliteDriverError naming the Node and the fix.
import { createRequire } from "node:module";

import { BUILTIN_SQLITE_NODE, hasBuiltinSqlite } from "../../../min-node.js";

export type SqlValue = string | number | null;

export interface SqlStatement<Row = unknown> {
  run(...params: SqlValue[]): void;
  get(...params: SqlValue[]): Row | undefined;
  all(...params: SqlValue[]): Row[];
}

export interface SqlDatabase {
  readonly driver: "node:sqlite" | "better-sqlite3";
  readonly open: boolean;
  exec(sql: string): void;
  prepare<Row = unknown>(sql: string): SqlStatement<Row>;
  /** Runs `fn` in one transaction (BEGIN IMMEDIATE takes the write lock first; BEGIN, a read snapshot). */
  transaction<T>(mode: "immediate" | "deferred", fn: () => T): T;
  close(): void;
}

export interface OpenOptions {
  /** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
  busyTimeoutMs: number;
  readOnly?: boolean;
}

// The part of node:sqlite used here (this project's @types/node is Node 20's, which has no node:sqlite).
interface NodeSqlite {
  DatabaseSync: new (
    path: string,
    options?: { readOnly?: boolean },
  ) => {
    exec(sql: string): void;
    prepare(sql: string): { run(...p: SqlValue[]): unknown; get(...p: SqlValue[]): unknown; all(...p: SqlValue[]): unknown[] };
    close(): void;
  };
}
type BetterSqlite = typeof import("better-sqlite3");

let nodeSqlite: NodeSqlite | null | undefined;

/**
 * node:sqlite when the runtime has it without a flag, else null. Loading it prints an
 * ExperimentalWarning on stderr; only that warning is dropped (stderr is the operator's log and
 * the warning says nothing about this program).
 */
export function builtinSqlite(): NodeSqlite | null {
  if (nodeSqlite !== undefined) return nodeSqlite;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, ...args: Parameters<typeof process.emitWarning>) {
    if (!isSqliteWarning(args[0], args[1])) Reflect.apply(emitWarning, process, args);
  } as typeof process.emitWarning;
  try {
    nodeSqlite = (process.getBuiltinModule?.("node:sqlite") as NodeSqlite | undefined) ?? null;
  } catch {
    // Node 22.5–22.12 know the module but refuse it without --experimental-sqlite.
    nodeSqlite = null;
  } finally {
    process.emitWarning = emitWarning;
  }
  if (nodeSqlite && typeof nodeSqlite.DatabaseSync !== "function") nodeSqlite = null;
  return nodeSqlite;
}

function isSqliteWarning(warning: unknown, typeOrOptions: unknown): boolean {
  const type = typeof typeOrOptions === "string" ? typeOrOptions : (typeOrOptions as { type?: string } | undefined)?.type;
  const message = typeof warning === "string" ? warning : ((warning as Error | undefined)?.message ?? "");
  const name = (warning as Error | undefined)?.name;
  return (type === "ExperimentalWarning" || name === "ExperimentalWarning") && /^SQLite\b/.test(message);
}

/**
 * No SQLite binding on this runtime: node:sqlite is missing (or needs a flag) and better-sqlite3 is
 * not installed or its compiled addon does not load here. Its message names the Node, the driver
 * and what to do; nothing about the store's directory is wrong.
 */
export class SqliteDriverError extends Error {
  override readonly name = "SqliteDriverError";
}

/** What the checkpoint worker must load to open its own connection with the same binding. */
export function driverModule(): string {
  return builtinSqlite() ? "node:sqlite" : createRequire(import.meta.url).resolve("better-sqlite3");
}

export function openSqlite(path: string, options: OpenOptions): SqlDatabase {
  const builtin = builtinSqlite();
  return builtin ? openBuiltin(builtin, path, options) : openBetter(betterSqlite(), path, options);
}

/** BEGIN, COMMIT and ROLLBACK prepared once: parsing them again on every charge cost more than the charge's own statements. */
interface Control {
  immediate: { run(): unknown };
  deferred: { run(): unknown };
  commit: { run(): unknown };
  rollback: { run(): unknown };
}

function control(db: { prepare(sql: string): { run(): unknown } }): Control {
  return {
    immediate: db.prepare("BEGIN IMMEDIATE"),
    deferred: db.prepare("BEGIN"),
    commit: db.prepare("COMMIT"),
    rollback: db.prepare("ROLLBACK"),
  };
}

function transact<T>(c: Control, mode: "immediate" | "deferred", fn: () => T): T {
  c[mode].run();
  try {
    const result = fn();
    c.commit.run();
    return result;
  } catch (err) {
    // After a failed COMMIT (SQLITE_BUSY) the transaction is still open; after some I/O errors
    // SQLite has already rolled it back and ROLLBACK itself fails: either way nothing stays applied.
    try {
      c.rollback.run();
    } catch {
      /* already rolled back */
    }
    throw err;
  }
}

function openBuiltin(mod: NodeSqlite, path: string, options: OpenOptions): SqlDatabase {
  const db = new mod.DatabaseSync(path, { readOnly: options.readOnly ?? false });
  let open = true;
  try {
    // The `timeout` option only exists from Node 22.16; the pragma works on every version.
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
  } catch (err) {
    db.close();
    throw err;
  }
  const tx = control(db);
  return {
    driver: "node:sqlite",
    get open() {
      return open;
    },
    exec: (sql) => void db.exec(sql),
    prepare: (sql) => statement(db.prepare(sql)),
    transaction: (mode, fn) => transact(tx, mode, fn),
    close() {
      if (open) {
        open = false;
        db.close();
      }
    },
  };
}

interface Better {
  Database: BetterSqlite;
  /** The compiled addon, loaded here so that a failure to load it is told apart from a failure to open a file. */
  addon: object;
}

let better: Better | undefined;

// What every driver failure says: the Node, the driver, the fixes.
const noBuiltin = () =>
  `Node.js ${process.versions.node} has no node:sqlite without a flag (${BUILTIN_SQLITE_NODE.join(".")} or newer has it, 23.4 on the 23 line)`;
const UPGRADE = `run it with Node.js ${BUILTIN_SQLITE_NODE.join(".")} or newer`;
// npm 11 skips a dependency's install script (which builds or fetches the addon) unless it is allowed.
const INSTALL = "npm install better-sqlite3 --allow-scripts=better-sqlite3, with -g for a global install";
const notInstalled = (why: string) =>
  `no SQLite driver: ${noBuiltin()} and better-sqlite3 ${why}; ${UPGRADE}, or install better-sqlite3 beside crypto-metrics-mcp (${INSTALL}), or set --store to a postgres:// URL`;
const badAddon = (why: string) =>
  `no SQLite driver: ${noBuiltin()} and the installed better-sqlite3 ${why}; ${UPGRADE}, or reinstall it for this Node (${INSTALL})`;
const NO_ADDON = "has no compiled addon (its install script did not run or failed)";
const ADDON = "better-sqlite3/build/Release/better_sqlite3.node";

/**
 * Why no SQLite driver can serve on this runtime, found without loading one (the Node's version,
 * else where better-sqlite3 and its addon would load from), or undefined. A start checks it, so that
 * a missing driver stops the program before a host's handshake rather than at the first charge; an
 * addon that is present but does not load here is found only when it is loaded.
 */
export function sqliteDriverProblem(): string | undefined {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (hasBuiltinSqlite(major, minor)) return undefined;
  const require = createRequire(import.meta.url);
  try {
    require.resolve("better-sqlite3");
  } catch {
    return notInstalled("is not installed");
  }
  try {
    require.resolve(ADDON);
  } catch {
    return badAddon(NO_ADDON);
  }
  return undefined;
}

/**
 * better-sqlite3 and its compiled addon. The addon is loaded from build/Release, where its install
 * always builds or downloads it, and handed to the constructor: left to itself better-sqlite3 finds
 * it with the `bindings` package, which walks a stack trace and tries a dozen paths (a few ms of
 * every start). Either part missing or unloadable is a SqliteDriverError.
 */
function betterSqlite(): Better {
  if (better) return better;
  const require = createRequire(import.meta.url);
  let Database: BetterSqlite;
  try {
    Database = require("better-sqlite3") as BetterSqlite;
  } catch (err) {
    throw new SqliteDriverError(
      notInstalled((err as { code?: string }).code === "MODULE_NOT_FOUND" ? "is not installed" : `does not load (${firstLine(err)})`),
    );
  }
  let addon: object;
  try {
    addon = require(require.resolve(ADDON)) as object;
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new SqliteDriverError(
      badAddon(
        code === "MODULE_NOT_FOUND" ? NO_ADDON : `has a compiled addon this Node cannot load (${code ?? "error"}: ${firstLine(err)})`,
      ),
    );
  }
  return (better = { Database, addon });
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0]!.slice(0, 300);
}

/** Either driver's prepared statement, as the store calls it: the three calls have the same meaning in both. */
function statement<Row>(st: {
  run(...p: SqlValue[]): unknown;
  get(...p: SqlValue[]): unknown;
  all(...p: SqlValue[]): unknown[];
}): SqlStatement<Row> {
  return {
    run: (...p) => void st.run(...p),
    get: (...p) => st.get(...p) as Row | undefined,
    all: (...p) => st.all(...p) as Row[],
  };
}

function openBetter({ Database, addon }: Better, path: string, options: OpenOptions): SqlDatabase {
  // The loaded addon is accepted where its path is (the typings know only the path).
  const db = new Database(path, {
    timeout: options.busyTimeoutMs,
    readonly: options.readOnly ?? false,
    nativeBinding: addon as unknown as string,
  });
  const tx = control(db);
  return {
    driver: "better-sqlite3",
    get open() {
      return db.open;
    },
    exec: (sql) => void db.exec(sql),
    // Statements that return no rows cannot be read with get/all in better-sqlite3 (and the store never does).
    prepare: (sql) => statement(db.prepare<SqlValue[]>(sql)),
    transaction: (mode, fn) => transact(tx, mode, fn),
    close() {
      if (db.open) db.close();
    },
  };
}
