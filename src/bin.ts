#!/usr/bin/env node
// The installed command (dist/cli.js): checks the runtime, turns on Node's compile cache, then loads
// the program. Imports nothing of ours but a constant (bundled into this file) so that an old Node or
// a damaged install gets one line saying what to do instead of a stack trace. Node's modules are
// taken with process.getBuiltinModule once the version is known to have it (20.16): an ESM import of
// node:fs builds its facade, whose getters load fs/promises, fs streams and readline on every start.
import { join } from "node:path";

import { hasBuiltinSqlite, MIN_NODE } from "./min-node.js";

function fail(message: string, exit: number): never {
  process.stderr.write(`crypto-metrics-mcp: ${message}\n`);
  process.exit(exit);
}

const below = (version: readonly number[], floor: readonly number[]): boolean =>
  version[0]! < floor[0]! ||
  (version[0] === floor[0] && (version[1]! < floor[1]! || (version[1] === floor[1] && (version[2] ?? 0) < (floor[2] ?? 0))));

const running = process.versions.node.split(".").map(Number);
if (below(running, MIN_NODE)) {
  fail(`needs Node.js ${MIN_NODE.join(".")} or newer, this is ${process.versions.node}; install a current LTS release from nodejs.org`, 2);
}
// A Node without node:sqlite needs better-sqlite3, which the .mcpb bundle leaves out: its package.json
// states the higher floor. Read only on such a Node, so a current one starts without it.
if (!hasBuiltinSqlite(running[0]!, running[1]!)) {
  let floor: number[] = [];
  try {
    const engines = (
      JSON.parse(process.getBuiltinModule("node:fs").readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
        engines?: { node?: string };
      }
    ).engines;
    floor =
      /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/
        .exec(engines?.node ?? "")
        ?.slice(1)
        .map((n) => Number(n ?? 0)) ?? [];
  } catch {
    // No readable package.json: the damaged-install check below says so.
  }
  if (floor.length && below(running, floor)) {
    fail(
      `needs Node.js ${floor.join(".")} or newer, this is ${process.versions.node}: this bundle meters with Node's built-in node:sqlite and carries no native driver; let the host use its built-in Node.js, or install Node.js ${floor.join(".")} or newer (a current LTS release from nodejs.org)`,
      2,
    );
  }
}

// Node >= 22.1 keeps compiled code between starts (the server's chunks load in about half the time);
// older Node has no such call. NODE_DISABLE_COMPILE_CACHE=1 turns it off. A directory it cannot use
// (not writable, not a directory, files corrupt) is skipped or recompiled over by Node without a word;
// one on a kernel file system is not tried at all, as Node's recursive mkdir spins there.
const cacheDir = process.env["NODE_COMPILE_CACHE"] || join(process.getBuiltinModule("node:os").tmpdir(), "node-compile-cache");
if (!/^\/(proc|sys|dev)(\/|$)/.test(cacheDir))
  (process.getBuiltinModule("node:module") as { enableCompileCache?: () => unknown }).enableCompileCache?.();

try {
  await import("./cli.js");
} catch (err) {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ERR_MODULE_NOT_FOUND" || err instanceof SyntaxError) {
    const what = err instanceof Error ? err.message.split("\n")[0] : String(err);
    fail(`the installation is damaged (${what}); reinstall it (npm install -g crypto-metrics-mcp, or the .mcpb bundle again)`, 1);
  }
  throw err;
}
