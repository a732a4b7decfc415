// Spawns the CLI from source (node --import tsx src/cli.ts) with a clean environment, capturing
// stdout and stderr byte for byte, with helpers to wait for a line and for the exit.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..");
const CLI = resolve(ROOT, "src/cli.ts");

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  stdout: Buffer[];
  stderr: Buffer[];
  stdoutText(): string;
  stderrText(): string;
  /** Resolves with the first stderr match of `re` (e.g. the listening line). */
  waitForStderr(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Environment without any CRYPTO_METRICS_* of the caller's, plus `env`. */
export function cleanEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("CRYPTO_METRICS_")) base[k] = v;
  return { ...base, ...env };
}

/** `shell`: commands run by sh before exec'ing node (e.g. "ulimit -f 256" for a small disk). */
export function spawnCli(args: string[], env: Record<string, string> = {}, nodeFlags: string[] = [], shell?: string): Spawned {
  const argv = [...nodeFlags, "--import", "tsx", CLI, ...args];
  const child =
    shell === undefined
      ? spawn(process.execPath, argv, { cwd: ROOT, env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] })
      : spawn("sh", ["-c", `${shell} && exec "$0" "$@"`, process.execPath, ...argv], {
          cwd: ROOT,
          env: cleanEnv(env),
          stdio: ["pipe", "pipe", "pipe"],
        });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => stdout.push(b));
  child.stderr.on("data", (b: Buffer) => stderr.push(b));
  // Writes after the child is gone must not crash the test process.
  child.stdin.on("error", () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.once("exit", (code, signal) => res({ code, signal })),
  );
  const stderrText = () => Buffer.concat(stderr).toString("utf8");
  return {
    child,
    stdout,
    stderr,
    stdoutText: () => Buffer.concat(stdout).toString("utf8"),
    stderrText,
    exited,
    waitForStderr(re, timeoutMs = 20_000) {
      return new Promise((res, rej) => {
        const check = () => {
          const m = re.exec(stderrText());
          if (m) {
            cleanup();
            res(m);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          rej(new Error(`no ${re} on stderr within ${timeoutMs} ms; stderr: ${stderrText().slice(-500)}`));
        }, timeoutMs);
        const onExit = () => {
          cleanup();
          rej(new Error(`exited before ${re}; stderr: ${stderrText().slice(-500)}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          child.stderr.off("data", check);
          child.off("exit", onExit);
        };
        child.stderr.on("data", check);
        child.once("exit", onExit);
        check();
      });
    },
  };
}

/** A line-oriented JSON-RPC client over a spawned stdio server. */
export class StdioPeer {
  private buffer = "";
  private nextId = 1;
  private readonly waiting = new Map<number, (message: Record<string, unknown>) => void>();
  readonly lines: string[] = [];

  /** `keepLines: false` for long runs (the soak), where every stdout line would otherwise be retained. */
  constructor(
    readonly proc: Spawned,
    private readonly options: { keepLines?: boolean } = {},
  ) {
    proc.child.stdout.on("data", (b: Buffer) => {
      this.buffer += b.toString("utf8");
      let nl: number;
      while ((nl = this.buffer.indexOf("\n")) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (this.options.keepLines !== false) this.lines.push(line);
        try {
          const msg = JSON.parse(line) as Record<string, unknown>;
          if (typeof msg["id"] === "number") this.waiting.get(msg["id"])?.(msg);
        } catch {
          // Non-JSON lines are kept in `lines` for the purity check.
        }
      }
    });
  }

  /** Sends a request and resolves with the response message. */
  request(method: string, params?: unknown, timeoutMs = 20_000): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no answer to ${method} #${id} within ${timeoutMs} ms`)), timeoutMs);
      this.waiting.set(id, (m) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        res(m);
      });
      this.write(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) }) + "\n");
    });
  }

  notify(method: string, params?: unknown): void {
    this.write(JSON.stringify({ jsonrpc: "2.0", method, ...(params !== undefined && { params }) }) + "\n");
  }

  write(data: string | Buffer): boolean {
    return this.proc.child.stdin.write(data);
  }

  async initialize(): Promise<Record<string, unknown>> {
    const res = await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "reliability", version: "1" },
    });
    this.notify("notifications/initialized");
    return res;
  }
}
