// The oldest Node this runs on, alone in its module so that reading it starts nothing.
// package.json `engines` says the same (a test keeps them equal).
export const MIN_NODE: readonly [number, number] = [20, 18];

/**
 * The first release whose built-in node:sqlite needs no flag (23.4 on the odd line). Below it the
 * metering store needs better-sqlite3, which the .mcpb bundle does not carry: this is the bundle's
 * floor (its manifest's compatibility.runtimes.node and its package.json `engines`).
 */
export const BUILTIN_SQLITE_NODE: readonly [number, number] = [22, 13];

/** Whether Node `major.minor` has node:sqlite without a flag. */
export function hasBuiltinSqlite(major: number, minor: number): boolean {
  return major > 23 || (major === 23 && minor >= 4) || (major === BUILTIN_SQLITE_NODE[0] && minor >= BUILTIN_SQLITE_NODE[1]);
}
