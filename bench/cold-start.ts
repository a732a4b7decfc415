// Cold start: wall time from spawn() to the `initialize` response on stdout, ours against a
// minimal SDK server, runs interleaved so drift on a shared machine hits both alike.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { BENCH_DIR, CLI, stop, type Sandbox } from "./proc.js";
import { median, msSince, round } from "./stats.js";

const INITIALIZE = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
})}\n`;

/** One cold start in ms; rejects if the child answers anything but a successful initialize. */
export async function timeInitialize(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  // Written before the child reads: the pipe holds it, as a client's first message would wait.
  child.stdin.write(INITIALIZE);
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  try {
    return await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        const nl = out.indexOf("\n");
        if (nl < 0) return;
        const ms = msSince(t0);
        const msg = JSON.parse(out.slice(0, nl)) as { id?: number; result?: { serverInfo?: unknown } };
        if (msg.id === 1 && msg.result?.serverInfo) resolve(ms);
        else reject(new Error(`unexpected first line from ${args.join(" ")}: ${out.slice(0, 300)}`));
      });
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before answering: ${stderr.slice(0, 500)}`)));
    });
  } finally {
    child.stdin.end();
    await stop(child);
  }
}

export interface ColdStart {
  runs: number;
  oursMs: number[];
  minimalMs: number[];
  oursMedianMs: number;
  minimalMedianMs: number;
}

export async function measureColdStart(sandbox: Sandbox, runs: number): Promise<ColdStart> {
  const ours = [CLI];
  const minimal = [join(BENCH_DIR, "minimal-server.mjs")];
  // One state dir for all runs, as a user's persists between starts; the untimed first start
  // creates it (and reads every module from disk once, for both servers).
  const stateDir = mkdtempSync(join(sandbox.dir, "cold-"));
  const env = () => sandbox.bareEnv(stateDir);
  await timeInitialize(ours, env());
  await timeInitialize(minimal, env());
  const oursMs: number[] = [];
  const minimalMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first so neither always follows the other's exit.
    if (i % 2 === 0) {
      oursMs.push(await timeInitialize(ours, env()));
      minimalMs.push(await timeInitialize(minimal, env()));
    } else {
      minimalMs.push(await timeInitialize(minimal, env()));
      oursMs.push(await timeInitialize(ours, env()));
    }
  }
  return {
    runs,
    oursMs: oursMs.map(round),
    minimalMs: minimalMs.map(round),
    oursMedianMs: round(median(oursMs)),
    minimalMedianMs: round(median(minimalMs)),
  };
}
