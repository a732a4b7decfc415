// Median latency of the REST face for a 365-point daily series over loopback keep-alive, next to
// a bare node:http server sending a body of the same size (the floor of the transport itself).
// Run: npx tsx scripts/measure-rest.ts [requests]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Agent, request } from "undici";

import { quantile, sorted } from "../bench/stats.js";
import { createInProcessService } from "../src/backend/inprocess/backend.js";
import { startRestServer } from "../src/backend/rest.js";

const REQUESTS = Math.max(200, Number(process.argv[2] ?? 1000));
const WARMUP = 100;
const PATH = "/btc/derivatives/Volume_usd?timeframe=1d&startDate=2025-01-01&endDate=2025-12-31";

async function timeRequests(url: string, headers: Record<string, string>): Promise<{ samples: number[]; bytes: number }> {
  const agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 });
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const t0 = process.hrtime.bigint();
    const res = await request(url, { headers, dispatcher: agent });
    const body = await res.body.text();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${body.slice(0, 200)}`);
    bytes = body.length;
    if (i >= WARMUP) samples.push(ms);
  }
  await agent.close();
  return { samples, bytes };
}

function row(name: string, samples: number[]): string {
  const s = sorted(samples);
  const cells = [quantile(s, 0.5), quantile(s, 0.95), quantile(s, 0.99)].map((v) => v.toFixed(3).padStart(8));
  return `${name.padEnd(34)}${cells.join("")}`;
}

const stateDir = mkdtempSync(join(tmpdir(), "cm-measure-"));
// A key whose rate window does not stop the run (the local plan allows 600 per minute).
const keysFile = join(stateDir, "keys.json");
writeFileSync(keysFile, JSON.stringify({ keys: [{ key: "measure", rateLimit: { requests: 100_000, windowSeconds: 60 } }] }));
const service = await createInProcessService({ apiKey: "measure", keysFile, stateDir, now: () => Date.parse("2025-12-31T12:00:00Z") });
const rest = await startRestServer(service, { host: "127.0.0.1", port: 0 });
const ours = await timeRequests(rest.url + PATH, { "x-api-key": "measure" });

const payload = "x".repeat(ours.bytes);
const bare = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": payload.length });
  res.end(payload);
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
const baseline = await timeRequests(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/`, {});

process.stdout.write(`REST face, 365-point daily series (${ours.bytes} bytes), ${REQUESTS} sequential keep-alive requests\n`);
process.stdout.write(`${"".padEnd(34)}${"p50 ms".padStart(8)}${"p95 ms".padStart(8)}${"p99 ms".padStart(8)}\n`);
process.stdout.write(row("crypto-metrics-mcp api", ours.samples) + "\n");
process.stdout.write(row("bare node:http, same body size", baseline.samples) + "\n");

bare.close();
await rest.close();
await service.close();
rmSync(stateDir, { recursive: true, force: true });
