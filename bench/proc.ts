// Child processes of the bench: the pinned environment our server runs with, spawning servers
// that announce `listening on URL` on stderr, stopping them, and reading their peak RSS.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The build measured: this checkout's, or another's with BENCH_CLI=/path/to/dist/cli.js (before/after runs). */
export const CLI = process.env["BENCH_CLI"] ?? join(ROOT, "dist", "cli.js");
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

/**
 * What every child starts from: PATH, HOME and the temp dir, nothing else. In particular no
 * NODE_EXTRA_CA_CERTS (on Node 20 it makes every start parse the CA file: +40–60 ms), no NODE_OPTIONS
 * (tsx registers its loader there) and none of the caller's CRYPTO_METRICS_*.
 */
export const CLEAN_ENV_NOTE = "children get only PATH, HOME, TMPDIR (NODE_EXTRA_CA_CERTS, NODE_OPTIONS and the rest stripped)";

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ["PATH", "HOME", "TMPDIR"]) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** The clean environment plus `extra`: for children that are not our server (floors, baselines). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...baseEnv(), ...extra };
}

export interface Pinning {
  /** Command prefix that puts a server on its CPU (empty when not pinned). */
  server: string[];
  note: string;
  pinned: boolean;
}

let pinning: Pinning = { server: [], note: "not pinned", pinned: false };

/**
 * CPU placement for the load sections: from here on the bench process (the load generator) runs on
 * CPU 0 and servers started by spawnListening on CPU 1, so neither steals the other's core
 * unnoticed. Called only once the start-up figures are taken (children inherit the mask). Needs
 * taskset and two CPUs; otherwise nothing is pinned and the rows say so.
 */
export function pinLoadGenerator(): Pinning {
  if (pinning.pinned) return pinning;
  const taskset = ["/usr/bin/taskset", "/bin/taskset"].find((p) => existsSync(p));
  if (!taskset || cpus().length < 2) return (pinning = { server: [], note: "not pinned (needs taskset and 2 CPUs)", pinned: false });
  const r = spawnSync(taskset, ["-a", "-p", "-c", "0", String(process.pid)], { stdio: "ignore" });
  if (r.status !== 0) return (pinning = { server: [], note: "not pinned (taskset refused)", pinned: false });
  return (pinning = { server: [taskset, "-c", "1"], note: "client on CPU 0, server on CPU 1", pinned: true });
}

export function createSandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "cm-bench-"));
  const keysFile = join(dir, "keys.json");
  writeFileSync(
    keysFile,
    JSON.stringify({
      keys: [{ key: KEY, credits: 1_000_000_000, rateLimit: { requests: 100_000, windowSeconds: 1 } }],
    }),
  );
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

/** Spawns `node args…` (on the server CPU) and resolves once it prints `listening on URL` to stderr. */
export function spawnListening(args: string[], env: NodeJS.ProcessEnv): Promise<Listening> {
  const [cmd, ...pre] = [...pinning.server, process.execPath];
  const child = spawn(cmd!, [...pre, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
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
