// Runs `crypto-metrics-mcp call …` as a real child process with a clean environment, a pinned
// clock, a private state dir and the test keys file; resolves with the exit code and both streams.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

import { NOW_ISO, tempDir, writeKeys } from "./mcp.js";
import { cleanEnv, ROOT } from "./spawn.js";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliEnv {
  /** The state dir and keys file of a sequence of runs that share one meter. */
  stateDir: string;
  keysFile: string;
  env(extra?: Record<string, string>): Record<string, string>;
}

/** A fresh meter: state dir plus the test keys file (demo-key, onchain-only, tiny, slow…). */
export function cliEnv(key = "demo-key"): CliEnv {
  const dir = tempDir("cm-cli-");
  const keysFile = writeKeys(dir);
  const stateDir = join(dir, "state");
  return {
    stateDir,
    keysFile,
    env: (extra = {}) => ({
      CRYPTO_METRICS_NOW: NOW_ISO,
      CRYPTO_METRICS_STATE_DIR: stateDir,
      CRYPTO_METRICS_KEYS_FILE: keysFile,
      CRYPTO_METRICS_API_KEY: key,
      CRYPTO_METRICS_LOG_LEVEL: "warn",
      ...extra,
    }),
  };
}

/** The latest modification time of any file below `dir`. */
export function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether dist/`file` exists and is newer than every source file. */
export function builtIsFresh(file: string): boolean {
  const built = join(ROOT, "dist", file);
  return existsSync(built) && statSync(built).mtimeMs > newestMtime(join(ROOT, "src"));
}

/**
 * The built CLI when dist/ is newer than every source file (CI builds before it tests), else the
 * sources through tsx. The built one starts on a sixth of the CPU, which keeps these tests fast on
 * a busy machine; the fallback means an edit is never tested against a stale build.
 */
const ENTRY: readonly string[] = builtIsFresh("cli.js") ? [join(ROOT, "dist", "cli.js")] : ["--import", "tsx", join(ROOT, "src", "cli.ts")];

export function runCli(args: readonly string[], env: Record<string, string>, input?: string): Promise<CliRun> {
  const child = spawn(process.execPath, [...ENTRY, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  child.stdin.on("error", () => undefined);
  child.stdin.end(input ?? "");
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
    );
  });
}

/** `call …` with the given environment. */
export const call = (env: Record<string, string>, ...args: string[]) => runCli(["call", ...args], env);
