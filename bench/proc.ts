// Child processes of the bench: the pinned environment our server runs with, spawning servers
// that announce `listening on URL` on stderr, stopping them, and reading their peak RSS.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CLI = join(ROOT, "dist", "cli.js");
export const BENCH_DIR = join(ROOT, "bench");
/** "Now" for every run: the same data, so the same bytes and tokens, run after run. */
export const NOW = "2025-12-31T12:00:00Z";
export const KEY = "bench-key";

export interface Sandbox {
  dir: string;
  keysFile: string;
  /** Environment for `node dist/cli.js`: pinned clock, private state, a key that never runs dry. */
  env: NodeJS.ProcessEnv;
  /** Only the clock and a fresh state dir: what a newcomer's first start looks like. */
  bareEnv: (stateDir: string) => NodeJS.ProcessEnv;
  dispose(): void;
}

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith("CRYPTO_METRICS_")) delete env[name];
  delete env["NODE_OPTIONS"]; // tsx registers its loader there; the children are plain node
  return env;
}

export function createSandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "cm-bench-"));
  const keysFile = join(dir, "keys.json");
  writeFileSync(keysFile, JSON.stringify({
    keys: [{ key: KEY, credits: 1_000_000_000, rateLimit: { requests: 100_000, windowSeconds: 1 } }],
  }));
  const env = {
    ...baseEnv(),
    CRYPTO_METRICS_NOW: NOW,
    CRYPTO_METRICS_STATE_DIR: join(dir, "state"),
    CRYPTO_METRICS_KEYS_FILE: keysFile,
    CRYPTO_METRICS_API_KEY: KEY,
    CRYPTO_METRICS_LOG_LEVEL: "warn",
  };
  return {
    dir,
    keysFile,
    env,
    bareEnv: (stateDir) => ({ ...baseEnv(), CRYPTO_METRICS_NOW: NOW, CRYPTO_METRICS_STATE_DIR: stateDir }),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Listening {
  child: ChildProcess;
  url: string;
}

/** Spawns `node args…` and resolves once it prints `listening on URL` to stderr. */
export function spawnListening(args: string[], env: NodeJS.ProcessEnv): Promise<Listening> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let err = "";
    const onData = (chunk: Buffer) => {
      err += chunk.toString("utf8");
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        child.stderr!.off("data", onData);
        child.stderr!.resume(); // keep draining so a chatty child never blocks
        resolve({ child, url: m[1]!.replace(/\/$/, "") });
      }
    };
    child.stderr!.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before listening: ${err.slice(0, 500)}`)));
  });
}

/** SIGTERM, then SIGKILL if the child has not exited within `graceMs`. */
export function stop(child: ChildProcess, graceMs = 3_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Peak resident set size (VmHWM) of a live process in MB, from /proc (Linux only). */
export function peakRssMb(pid: number): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}
