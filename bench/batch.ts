// Scripted use: N get_metrics_variation calls over N assets as one `call --batch` process against
// N separate `call` processes (a shell loop), in the same run, on the same key and clock.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { coverage, endpointById, VARIATION_ID } from "../src/catalog/index.js";
import { CLI, type Sandbox } from "./proc.js";
import { median, msSince } from "./stats.js";

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<Exit> {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function check(what: string, exit: Exit, lines: number): void {
  const ok = exit.stdout
    .trimEnd()
    .split("\n")
    .filter((l) => (JSON.parse(l) as { ok?: boolean }).ok === true).length;
  if (exit.code !== 0 || ok !== lines)
    throw new Error(`${what}: exit ${exit.code}, ${ok} results of ${lines}: ${exit.stderr.slice(0, 400)}`);
}

export interface BatchFigures {
  calls: number;
  /** Median wall time of the whole batch process, ms. */
  batchMs: number;
  batchRunsMs: number[];
  /** Wall time of the N processes, one after another, ms. */
  processesMs: number;
  perProcessMs: number;
}

export async function measureBatch(sandbox: Sandbox, calls: number, batchRuns: number): Promise<BatchFigures> {
  const assets = coverage(endpointById(VARIATION_ID)!)!.slice(0, calls);
  if (assets.length < calls) throw new Error(`only ${assets.length} assets have metrics-variation`);
  const file = join(sandbox.dir, "variation.jsonl");
  writeFileSync(file, assets.map((asset) => JSON.stringify({ tool: "get_metrics_variation", arguments: { asset } })).join("\n") + "\n");

  // Alternated (batch, then the loop, then batch…) so drift on a shared machine hits both alike.
  const batchRunsMs: number[] = [];
  const measureOne = async () => {
    const t0 = process.hrtime.bigint();
    const exit = await run(["call", "--batch", file], sandbox.env);
    batchRunsMs.push(msSince(t0));
    check("batch", exit, calls);
  };
  await measureOne();
  const t0 = process.hrtime.bigint();
  for (const asset of assets) {
    const exit = await run(["call", "get_metrics_variation", "--asset", asset, "--format", "json"], sandbox.env);
    if (exit.code !== 0) throw new Error(`call --asset ${asset}: exit ${exit.code}: ${exit.stderr.slice(0, 400)}`);
  }
  const processesMs = msSince(t0);
  for (let i = 1; i < batchRuns; i++) await measureOne();
  return { calls, batchMs: median(batchRunsMs), batchRunsMs, processesMs, perProcessMs: processesMs / calls };
}
