// Latency of the HTTP backend: a cached call, a daily series through the loopback REST face next
// to the same call on InProcessBackend (the difference is what HTTP adds), and an open breaker.
// Run: npx tsx scripts/measure-http.ts [iterations]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { quantile, sorted } from "../bench/stats.js";
import { HttpBackend } from "../src/backend/http/index.js";
import { createInProcessService, InProcessBackend } from "../src/backend/inprocess/backend.js";
import { startRestServer } from "../src/backend/rest.js";
import type { Backend, BackendRequest } from "../src/backend/types.js";

const N = Math.max(200, Number(process.argv[2] ?? 2000));
const WARMUP = 200;
const QUIET = { warn: () => {}, info: () => {}, debug: () => {} };
const SERIES: BackendRequest = {
  endpoint: "derivatives/Volume_usd",
  asset: "btc",
  query: { timeframe: "1d", startDate: "2025-01-01", endDate: "2025-12-31" },
};

async function sample(backend: Backend, request: BackendRequest, count: number, expectError = false): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < WARMUP + count; i++) {
    const t0 = process.hrtime.bigint();
    try {
      await backend.fetch(request);
      if (expectError) throw new Error("expected a failure");
    } catch (error) {
      if (!expectError) throw error;
    }
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (i >= WARMUP) out.push(ms);
  }
  return out;
}

function q(samples: number[], p: number): number {
  return quantile(sorted(samples), p);
}

function row(name: string, samples: number[], target: string): string {
  const cells = [q(samples, 0.5), q(samples, 0.95), q(samples, 0.99)].map((v) => v.toFixed(3).padStart(9));
  return `${name.padEnd(46)}${cells.join("")}   ${target}\n`;
}

const stateDir = mkdtempSync(join(tmpdir(), "cm-measure-http-"));
// A plan wide enough that neither the rate window nor the credits interfere with timing.
const keysFile = join(stateDir, "keys.json");
writeFileSync(
  keysFile,
  JSON.stringify({ plans: {}, keys: [{ key: "measure", credits: 1e12, rateLimit: { requests: 100_000, windowSeconds: 1 } }] }),
);
const service = await createInProcessService({
  apiKey: undefined,
  keysFile,
  stateDir: join(stateDir, "state"),
  now: () => Date.parse("2025-12-31T12:00:00Z"),
});
const rest = await startRestServer(service, { host: "127.0.0.1", port: 0 });
const local = new InProcessBackend(service, "measure");
const uncached = new HttpBackend({ baseUrl: rest.url, apiKey: "measure", cache: { maxEntries: 0 }, log: QUIET });
const cached = new HttpBackend({ baseUrl: rest.url, apiKey: "measure", log: QUIET });

// A dead upstream (always 500) trips a breaker; its answers while open involve no network.
const dead = createServer((_req, res) => {
  res.writeHead(500, { "content-type": "application/json" });
  res.end('{"error":"down"}');
});
await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", resolve));
const tripped = new HttpBackend({
  baseUrl: `http://127.0.0.1:${(dead.address() as AddressInfo).port}`,
  apiKey: "measure",
  retry: { attempts: 1 },
  breaker: { failures: 5, cooldownMs: 3_600_000 },
  log: QUIET,
});
for (let i = 0; i < 5; i++) await tripped.fetch(SERIES).catch(() => {});
if (tripped.circuit !== "open") throw new Error(`breaker did not open (${tripped.circuit})`);

await cached.fetch(SERIES);
const records = ((await local.fetch(SERIES)).body as unknown[]).length;
const hit = await sample(cached, SERIES, N * 5);
// Interleave the two sides in blocks so drift in machine load hits both alike.
const viaHttp: number[] = [];
const direct: number[] = [];
for (let block = 0; block < 4; block++) {
  viaHttp.push(...(await sample(uncached, SERIES, N / 4)));
  direct.push(...(await sample(local, SERIES, N / 4)));
}
const open = await sample(tripped, SERIES, N * 5, true);

const added = q(viaHttp, 0.5) - q(direct, 0.5);
process.stdout.write(`HttpBackend latency, ${records}-point daily series over loopback, ms (${N} calls per side; cache ${N * 5})\n`);
process.stdout.write(`${"".padEnd(46)}${"p50".padStart(9)}${"p95".padStart(9)}${"p99".padStart(9)}\n`);
process.stdout.write(row("cached call (HttpBackend)", hit, "target p50 < 1 ms"));
process.stdout.write(row("uncached call (HttpBackend → REST face)", viaHttp, ""));
process.stdout.write(row("same call (InProcessBackend)", direct, ""));
process.stdout.write(`${"HTTP adds (p50 difference)".padEnd(46)}${added.toFixed(3).padStart(9)}${"".padStart(18)}   target < 2 ms\n`);
process.stdout.write(row("open breaker answer", open, "target < 5 ms"));

await Promise.all([uncached.close(), cached.close(), tripped.close()]);
dead.close();
await rest.close();
await service.close();
rmSync(stateDir, { recursive: true, force: true });
