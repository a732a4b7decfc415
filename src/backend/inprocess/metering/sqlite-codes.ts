// SQLite's result codes as one name on either binding, so that a failure reads the same on both.
// SQLite's primary result codes by number, for node:sqlite's errors (which give numbers).
const PRIMARY: Record<number, string> = {
  1: "SQLITE_ERROR",
  2: "SQLITE_INTERNAL",
  3: "SQLITE_PERM",
  4: "SQLITE_ABORT",
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  7: "SQLITE_NOMEM",
  8: "SQLITE_READONLY",
  9: "SQLITE_INTERRUPT",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  12: "SQLITE_NOTFOUND",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  15: "SQLITE_PROTOCOL",
  16: "SQLITE_EMPTY",
  17: "SQLITE_SCHEMA",
  18: "SQLITE_TOOBIG",
  19: "SQLITE_CONSTRAINT",
  20: "SQLITE_MISMATCH",
  21: "SQLITE_MISUSE",
  22: "SQLITE_NOLFS",
  23: "SQLITE_AUTH",
  24: "SQLITE_FORMAT",
  25: "SQLITE_RANGE",
  26: "SQLITE_NOTADB",
};

/**
 * The primary SQLite result code of an error from either binding ("SQLITE_FULL", "SQLITE_BUSY"),
 * or undefined for anything that is not an SQLite failure. better-sqlite3 names the extended code
 * (SQLITE_READONLY_DBMOVED), node:sqlite gives its number: both come down to the primary name, so
 * the same failure reads the same on either binding.
 */
export function sqliteCode(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as Error & { code?: unknown; errcode?: unknown };
  if (e.name === "SqliteError" && typeof e.code === "string") return /^SQLITE_[A-Z]+/.exec(e.code)?.[0];
  if (e.code === "ERR_SQLITE_ERROR" && typeof e.errcode === "number") return PRIMARY[e.errcode & 0xff] ?? `SQLITE_${e.errcode & 0xff}`;
  return undefined;
}
