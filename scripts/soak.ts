// Soak run (not CI): mixed tool calls at a fixed rate against spawned stdio servers — one on the
// in-process service, one on the HTTP backend against a local upstream injecting faults — sampling
// each server's heap (after a full GC), RSS, open descriptors and event-loop delay, then saying
// whether memory and descriptors plateau.
//   npm run soak -- [--duration 10m] [--rate 50] [--sample 10s] [--faults 5] [--target both|inprocess|http]
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { serviceRig, tempDir, writeKeys } from "../harness/service.js";
import { analyse, callMix, percentile, type Sample } from "../harness/soak.js";
import { spawnCli, type Spawned, StdioPeer } from "../harness/spawn.js";
import { rawUpstream } from "../harness/upstream.js";
import { restHandler } from "../src/backend/rest.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i !== -1 && process.argv[i + 1] ? process.argv[i + 1]! : (process.env[`SOAK_${name.toUpperCase()}`] ?? fallback);
}

function seconds(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`not a duration: ${text} (e.g. 90s, 10m)`);
  return Number(m[1]) * ({ ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] ?? "s"] ?? 1);
}

const DURATION_S = seconds(arg("duration", "10m"));
const RATE = Number(arg("rate", "50"));
const SAMPLE_S = seconds(arg("sample", "10s"));
const FAULT_PCT = Number(arg("faults", "5"));
const TARGET = arg("target", "both");
const MAX_IN_FLIGHT = 200;

// Loaded into each server with --import: reports memory after a full GC and event-loop delay on stderr.
const PROBE = `
import { monitorEventLoopDelay } from "node:perf_hooks";
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
setInterval(() => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.stderr.write("soak-probe " + JSON.stringify({ heap: m.heapUsed, rss: m.rss, elP99: h.percentile(99) / 1e6, elMax: h.max / 1e6 }) + "\\n");
  h.reset();
}, ${Math.round(SAMPLE_S * 1000)}).unref();
`;

interface Target {
  name: string;
  proc: Spawned;
  peer: StdioPeer;
  samples: Sample[];
  latencies: number[];
  ok: number;
  toolErrors: number;
  protocolErrors: number;
  skipped: number;
  inFlight: number;
  probe?: { heap: number; rss: number; elP99: number; elMax: number };
}

const dir = tempDir("cm-soak-");
const probeFile = join(dir, "probe.mjs");
writeFileSync(probeFile, PROBE);
const KEY = "soak-key";
const { keysFile } = writeKeys({ keys: [{ key: KEY, credits: 1e12, rateLimit: { requests: 100_000, windowSeconds: 60 } }] }, dir);

// The upstream of the HTTP-backed server: our REST face, with FAULT_PCT % of answers broken.
const upstreamRig = serviceRig({ keys: [{ key: KEY, credits: 1e12, rateLimit: { requests: 100_000, windowSeconds: 60 } }] });
const rest = restHandler(upstreamRig.service);
const faults = { served: 0, injected: 0 };
const upstream = await rawUpstream((req, res) => {
  faults.served++;
  if (Math.random() * 100 >= FAULT_PCT) return rest(req, res);
  faults.injected++;
  const kind = Math.random();
  if (kind < 0.4) res.writeHead(500, { "content-type": "application/json" }).end('{"error":"injected"}');
  else if (kind < 0.7) res.socket?.destroy();
  else if (kind < 0.9) res.writeHead(200, { "content-type": "application/json" }).end('[{"time": ');
  else setTimeout(() => rest(req, res), 2_000);
});

function start(name: string, env: Record<string, string>): Target {
  const proc = spawnCli(["stdio"], { CRYPTO_METRICS_STATE_DIR: join(dir, `state-${name}`), CRYPTO_METRICS_LOG_LEVEL: "warn", ...env }, [
    "--expose-gc",
    "--import",
    pathToFileURL(probeFile).href,
  ]);
  const target: Target = {
    name,
    proc,
    peer: new StdioPeer(proc, { keepLines: false }),
    samples: [],
    latencies: [],
    ok: 0,
    toolErrors: 0,
    protocolErrors: 0,
    skipped: 0,
    inFlight: 0,
  };
  let pending = "";
  proc.child.stderr.on("data", (b: Buffer) => {
    pending += b.toString("utf8");
    let nl: number;
    while ((nl = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.startsWith("soak-probe ")) target.probe = JSON.parse(line.slice(11)) as Target["probe"];
    }
  });
  return target;
}

const targets: Target[] = [];
if (TARGET !== "http") targets.push(start("inprocess", { CRYPTO_METRICS_KEYS_FILE: keysFile, CRYPTO_METRICS_API_KEY: KEY }));
if (TARGET !== "inprocess") targets.push(start("http", { CRYPTO_METRICS_BASE_URL: upstream.url, CRYPTO_METRICS_API_KEY: KEY }));
await Promise.all(targets.map((t) => t.peer.initialize()));

process.stderr.write(
  `soak: ${DURATION_S} s at ${RATE} calls/s per server, sampling every ${SAMPLE_S} s, ${FAULT_PCT} % upstream faults; servers: ${targets.map((t) => `${t.name} (pid ${t.proc.child.pid})`).join(", ")}\n`,
);
console.log("t_s   server     calls    errors  p50_ms  p99_ms  heap_MB  rss_MB  fds  el_p99_ms  in_flight");

function fire(target: Target): void {
  if (target.inFlight >= MAX_IN_FLIGHT) {
    target.skipped++;
    return;
  }
  const { name, args } = callMix();
  const t0 = performance.now();
  target.inFlight++;
  target.peer
    .request("tools/call", { name, arguments: args }, 60_000)
    .then(
      (reply) => {
        target.latencies.push(performance.now() - t0);
        if ("error" in reply) target.protocolErrors++;
        else if ((reply["result"] as { isError?: boolean }).isError) target.toolErrors++;
        else target.ok++;
      },
      () => target.protocolErrors++,
    )
    .finally(() => target.inFlight--);
}

const began = performance.now();
const tick = setInterval(() => targets.forEach(fire), 1000 / RATE);
const lastCalls = new Map<string, number>();
const lastErrors = new Map<string, number>();
const sampler = setInterval(() => {
  const t = Math.round((performance.now() - began) / 1000);
  for (const target of targets) {
    const pid = target.proc.child.pid!;
    let fds = -1;
    try {
      fds = readdirSync(`/proc/${pid}/fd`).length;
    } catch {
      // not Linux, or the server is gone
    }
    const lat = target.latencies.splice(0);
    const calls = target.ok + target.toolErrors + target.protocolErrors;
    const p = target.probe;
    const sample: Sample = {
      t,
      heapMB: p ? p.heap / 1048576 : NaN,
      rssMB: p ? p.rss / 1048576 : NaN,
      fds,
      elP99: p?.elP99 ?? NaN,
      p50: percentile(lat, 50),
      p99: percentile(lat, 99),
    };
    target.samples.push(sample);
    target.proc.stdout.splice(0); // the peer has parsed them; do not retain
    const allErrors = target.toolErrors + target.protocolErrors;
    const errs = allErrors - (lastErrors.get(target.name) ?? 0);
    lastErrors.set(target.name, allErrors);
    console.log(
      `${String(t).padEnd(5)} ${target.name.padEnd(10)} ${String(calls - (lastCalls.get(target.name) ?? 0)).padStart(5)}  ${String(errs).padStart(8)}  ${sample.p50.toFixed(1).padStart(6)}  ${sample.p99.toFixed(1).padStart(6)}  ${sample.heapMB.toFixed(1).padStart(7)}  ${sample.rssMB.toFixed(1).padStart(6)}  ${String(fds).padStart(3)}  ${sample.elP99.toFixed(1).padStart(9)}  ${String(target.inFlight).padStart(9)}`,
    );
    lastCalls.set(target.name, calls);
  }
}, SAMPLE_S * 1000);

await new Promise((resolve) => setTimeout(resolve, DURATION_S * 1000));
clearInterval(tick);
clearInterval(sampler);
// Let the last calls finish, then close the sessions the way a client does (end of stdin).
for (let i = 0; i < 100 && targets.some((t) => t.inFlight > 0); i++) await new Promise((r) => setTimeout(r, 100));
let healthy = true;
for (const target of targets) {
  const calls = target.ok + target.toolErrors + target.protocolErrors;
  const verdict = analyse(target.samples);
  console.log(
    `\n${target.name}: ${calls} calls (${target.ok} ok, ${target.toolErrors} tool errors, ${target.protocolErrors} protocol errors, ${target.skipped} skipped at the in-flight cap)`,
  );
  for (const line of verdict.lines) console.log(`  ${line}`);
  healthy &&= verdict.plateau && target.protocolErrors === 0;
  target.proc.child.stdin.end();
}
if (targets.some((t) => t.name === "http")) {
  const rate = faults.served ? (100 * faults.injected) / faults.served : 0;
  console.log(
    `\nupstream: ${faults.served} requests, ${faults.injected} faults injected (${rate.toFixed(2)} %); the HTTP backend's retries hide most of them from tool results`,
  );
}
const exits = await Promise.all(targets.map((t) => t.proc.exited));
console.log(`\nservers exited: ${exits.map((e, i) => `${targets[i]!.name} code=${e.code}`).join(", ")}`);
console.log(healthy ? "VERDICT: memory and descriptors plateau; no protocol errors" : "VERDICT: NOT healthy (see above)");
await upstream.close();
upstreamRig.close();
process.exit(healthy && exits.every((e) => e.code === 0) ? 0 : 1);
