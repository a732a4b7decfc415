#!/usr/bin/env node
// The installed command (dist/cli.js): checks the runtime, turns on Node's compile cache, then loads
// the program. Imports nothing of ours but a constant (bundled into this file) so that an old Node or
// a damaged install gets one line saying what to do instead of a stack trace.
import module from "node:module";
import { MIN_NODE } from "./min-node.js";

function fail(message: string): never {
  process.stderr.write(`crypto-metrics-mcp: ${message}\n`);
  process.exit(1);
}

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
  fail(`needs Node.js ${MIN_NODE.join(".")} or newer, this is ${process.versions.node}; install a current LTS release from nodejs.org`);
}

// Node >= 22.1 keeps compiled code between starts (about a tenth of a start); older Node has no such
// call. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

try {
  await import("./cli.js");
} catch (err) {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ERR_MODULE_NOT_FOUND" || err instanceof SyntaxError) {
    const what = err instanceof Error ? err.message.split("\n")[0] : String(err);
    fail(`the installation is damaged (${what}); reinstall it (npm install -g crypto-metrics-mcp, or the .mcpb bundle again)`);
  }
  throw err;
}
