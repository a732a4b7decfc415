// Start-up as a client sees it, every kind of child interleaved in the same run so drift on a shared
// machine hits all alike: spawn → tools/list response (the first answer that needs the whole server;
// initialize alone could be answered before anything loads) for our server, the minimal SDK server
// and a raw JSON-RPC responder, next to `node -e 0`; and a one-shot `call get_series` end to end,
// beside the floor of any such call with this stack (bench/call-floor.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

import * as esbuild from "esbuild";

import { runtimes } from "../harness/runtimes.js";
// @ts-expect-error: a plain ESM script without types
import { englishOnlyZodLocales, zodUnused } from "../scripts/zod-plugins.mjs";
import { BENCH_DIR, cleanEnv, CLI, peakRssMb, type Sandbox, stop } from "./proc.js";
import { median, msSince, round } from "./stats.js";

const jsonLine = (m: unknown) => `${JSON.stringify(m)}\n`;
const INITIALIZE = jsonLine({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
});
/** A 2026-07-28 client's first request: no initialize, version and capabilities in its _meta. */
const MODERN_TOOLS_LIST = jsonLine({
  jsonrpc: "2.0",
  id: 2,
  method: "tools/list",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
    },
  },
});
/** What a client sends once initialize is answered, as the protocol has it (not before). */
const AFTER_INITIALIZE =
  jsonLine({ jsonrpc: "2.0", method: "notifications/initialized" }) + jsonLine({ jsonrpc: "2.0", id: 2, method: "tools/list" });

interface Start {
  ms: number;
  /** Peak RSS (VmHWM) at the moment tools/list arrived, MB. */
  rssMb: number;
  toolsList: string;
}

/**
 * One cold start: wall time from spawn() to the tools/list response on stdout, the client behaving
 * as a real one does: initialize first, then the rest only after its answer.
 */
async function timeToolsList(
  args: string[],
  env: NodeJS.ProcessEnv,
  era: "2025" | "2026-07-28" = "2025",
  node = process.execPath,
): Promise<Start> {
  const t0 = process.hrtime.bigint();
  const child = spawn(node, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  // Written before the child reads: the pipe holds it, as a client's first message would wait.
  child.stdin.write(era === "2025" ? INITIALIZE : MODERN_TOOLS_LIST);
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  try {
    return await new Promise<Start>((resolve, reject) => {
      let out = "";
      let sentRest = false;
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        for (const line of out.split("\n").slice(0, -1)) {
          const msg = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
          if (msg.id === 1 && !sentRest) {
            sentRest = true;
            child.stdin.write(AFTER_INITIALIZE);
          }
          if (msg.id !== 2) continue;
          const ms = msSince(t0);
          if (!msg.result?.tools?.length) return reject(new Error(`${args.join(" ")}: no tools in tools/list: ${line.slice(0, 300)}`));
          resolve({ ms, rssMb: peakRssMb(child.pid!), toolsList: JSON.stringify(msg.result) });
        }
      });
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before answering: ${stderr.slice(0, 500)}`)));
    });
  } finally {
    child.stdin.end();
    await stop(child);
  }
}

/** Wall time from spawn() to exit, and the exit must be 0. */
async function timeRun(args: string[], env: NodeJS.ProcessEnv, node = process.execPath): Promise<number> {
  const t0 = process.hrtime.bigint();
  const child = spawn(node, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (out += c.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ms = msSince(t0);
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${out.slice(0, 500)}`);
  return ms;
}

export interface Spread {
  median: number;
  runs: number[];
}

const spread = (xs: number[]): Spread => ({ median: round(median(xs)), runs: xs.map(round) });

export interface ColdStart {
  runs: number;
  nodeE0: Spread;
  raw: Spread;
  minimal: Spread;
  ours: Spread;
  /** The same, for a 2026-07-28 client (its first request is tools/list). */
  minimalModern: Spread;
  oursModern: Spread;
  oursRssMb: number;
  minimalRssMb: number;
  callGetSeries: Spread;
  callNodeE0: Spread;
  /** bench/call-floor.ts: zod-validated arguments and one SQLite charge, nothing else. */
  callFloor: Spread;
  callArgs: string[];
  /** The same start (2025 client) and one-shot call on the other runtimes users have (Node 22, 24). */
  runtimes: RuntimeStart[];
}

export interface RuntimeStart {
  node: string;
  version: string;
  ours: Spread;
  /** A bare Node process answering the same lines (bench/raw-responder.mjs). */
  raw: Spread;
  minimal: Spread;
  call: Spread;
  nodeE0: Spread;
  /** bench/call-floor.ts on this runtime (node:sqlite). */
  callFloor: Spread;
}

/** Node 22 and 24 (the newest of each line found): CRYPTO_METRICS_TEST_RUNTIMES or .ci/run's cache. */
export function otherRuntimes(): Array<{ path: string; version: string }> {
  const byMajor = new Map<number, { path: string; version: number[] }>();
  for (const r of runtimes()) {
    const major = r.version[0]!;
    if (major !== 22 && major !== 24) continue;
    const seen = byMajor.get(major);
    if (!seen || r.version.join(".").localeCompare(seen.version.join("."), undefined, { numeric: true }) > 0) byMajor.set(major, r);
  }
  return [...byMajor.values()].sort((a, b) => a.version[0]! - b.version[0]!).map((r) => ({ path: r.path, version: r.version.join(".") }));
}

export const CALL_ARGS = ["call", "get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc"];

export async function measureColdStart(sandbox: Sandbox, runs: number): Promise<ColdStart> {
  // One state dir for all runs, as a user's persists between starts; the untimed first start
  // creates it (and reads every module from disk once, and fills Node's compile cache where it has one).
  const stateDir = mkdtempSync(join(sandbox.dir, "cold-"));
  const oursEnv = sandbox.bareEnv(stateDir);
  const plain = cleanEnv();
  const first = await timeToolsList([CLI], oursEnv);
  const listing = join(sandbox.dir, "tools-list.json");
  writeFileSync(listing, first.toolsList);
  const kinds = {
    nodeE0: () => timeRun(["-e", "0"], plain),
    raw: async () => (await timeToolsList([join(BENCH_DIR, "raw-responder.mjs"), listing], plain)).ms,
    minimal: async () => await timeToolsList([join(BENCH_DIR, "minimal-server.mjs")], plain),
    ours: async () => timeToolsList([CLI], oursEnv),
    minimalModern: async () => timeToolsList([join(BENCH_DIR, "minimal-server.mjs")], plain, "2026-07-28"),
    oursModern: async () => timeToolsList([CLI], oursEnv, "2026-07-28"),
  };
  await kinds.minimal();
  const samples = {
    nodeE0: [] as number[],
    raw: [] as number[],
    minimal: [] as number[],
    ours: [] as number[],
    minimalModern: [] as number[],
    oursModern: [] as number[],
  };
  const rss = { minimal: [] as number[], ours: [] as number[], minimalModern: [] as number[], oursModern: [] as number[] };
  const order = ["nodeE0", "raw", "minimal", "ours", "minimalModern", "oursModern"] as const;
  for (let i = 0; i < runs; i++) {
    // Rotate which goes first so none always follows the same neighbour's exit.
    for (let k = 0; k < order.length; k++) {
      const kind = order[(i + k) % order.length]!;
      if (kind === "nodeE0") samples.nodeE0.push(await kinds.nodeE0());
      else if (kind === "raw") samples.raw.push(await kinds.raw());
      else {
        const s = await kinds[kind]();
        samples[kind].push(s.ms);
        rss[kind].push(s.rssMb);
      }
    }
  }
  // The scripted one-shot: the whole process, from spawn to exit, against `node -e 0` and the floor.
  const callEnv = { ...sandbox.env };
  const floorArgs = [await buildCallFloor(sandbox.dir), FLOOR_SQLITE, join(stateDir, "floor.sqlite"), "lifespan/Lth_mvrv", "btc"];
  await timeRun([CLI, ...CALL_ARGS], callEnv);
  await timeRun(floorArgs, plain);
  const call: number[] = [];
  const nodeE0: number[] = [];
  const floor: number[] = [];
  const callKinds = [
    async () => call.push(await timeRun([CLI, ...CALL_ARGS], callEnv)),
    async () => nodeE0.push(await timeRun(["-e", "0"], plain)),
    async () => floor.push(await timeRun(floorArgs, plain)),
  ];
  for (let i = 0; i < runs; i++) for (let k = 0; k < callKinds.length; k++) await callKinds[(i + k) % callKinds.length]!();
  const others: RuntimeStart[] = [];
  for (const { path: node, version } of otherRuntimes()) {
    process.stderr.write(`bench: start-up and call on Node ${version}\n`);
    const rawList = () => timeToolsList([join(BENCH_DIR, "raw-responder.mjs"), listing], plain, "2025", node);
    const kinds = [
      async () => (await timeToolsList([CLI], oursEnv, "2025", node)).ms,
      async () => (await rawList()).ms,
      async () => (await timeToolsList([join(BENCH_DIR, "minimal-server.mjs")], plain, "2025", node)).ms,
      () => timeRun([CLI, ...CALL_ARGS], callEnv, node),
      () => timeRun(["-e", "0"], plain, node),
      () => timeRun(floorArgs, plain, node),
    ];
    // Untimed: the first start on this runtime fills its compile cache, as a user's first start does.
    for (const kind of kinds) await kind();
    const samples: number[][] = kinds.map(() => []);
    for (let i = 0; i < runs; i++)
      for (let k = 0; k < kinds.length; k++) samples[(i + k) % kinds.length]!.push(await kinds[(i + k) % kinds.length]!());
    const [ours, raw, minimal, call, e0, callFloor] = samples.map(spread) as [Spread, Spread, Spread, Spread, Spread, Spread];
    others.push({ node, version, ours, raw, minimal, call, nodeE0: e0, callFloor });
  }
  return {
    runs,
    nodeE0: spread(samples.nodeE0),
    raw: spread(samples.raw),
    minimal: spread(samples.minimal),
    ours: spread(samples.ours),
    minimalModern: spread(samples.minimalModern),
    oursModern: spread(samples.oursModern),
    oursRssMb: round(median(rss.ours)),
    minimalRssMb: round(median(rss.minimal)),
    callGetSeries: spread(call),
    callNodeE0: spread(nodeE0),
    callFloor: spread(floor),
    callArgs: CALL_ARGS,
    runtimes: others,
  };
}

/** The better-sqlite3 package the floor loads (the store's binding on Node 20). */
const FLOOR_SQLITE = dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json"));

/** bench/call-floor.ts bundled as dist/ is (minified ESM, zod trimmed by the same plugins). */
async function buildCallFloor(dir: string): Promise<string> {
  const outfile = join(dir, "call-floor.mjs");
  await esbuild.build({
    entryPoints: [join(BENCH_DIR, "call-floor.ts")],
    outfile,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["better-sqlite3"],
    plugins: [englishOnlyZodLocales, zodUnused],
    logLevel: "warning",
  });
  return outfile;
}
