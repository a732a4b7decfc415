// REST face under load: requests/s and latency for a 365-point daily series with N concurrent
// keep-alive clients, against a bare node:http server (its own process too) returning the same bytes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pool } from "undici";
import { BENCH_DIR, CLI, KEY, spawnListening, stop, type Sandbox } from "./proc.js";
import { latency, msSince, round, type Latency } from "./stats.js";

export const REST_PATH = "/btc/derivatives/Volume_usd?timeframe=1d&startDate=2025-01-01&endDate=2025-12-31";

export interface LoadFigure {
  server: "ours" | "bare";
  concurrency: number;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: Latency;
}

interface Drive {
  requests: number;
  seconds: number;
  samples: number[];
}

/** `concurrency` loops of request → full body → next, over one pool of as many keep-alive sockets. */
async function drive(origin: string, headers: Record<string, string>, concurrency: number, durationMs: number, expectBytes: number): Promise<Drive> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const samples: number[] = [];
  const t0 = process.hrtime.bigint();
  const deadline = Number(t0 / 1_000_000n) + durationMs;
  const worker = async () => {
    while (Number(process.hrtime.bigint() / 1_000_000n) < deadline) {
      const t = process.hrtime.bigint();
      const res = await pool.request({ path: REST_PATH, method: "GET", headers });
      const body = await res.body.arrayBuffer();
      if (res.statusCode !== 200 || body.byteLength !== expectBytes) {
        throw new Error(`${origin}: status ${res.statusCode}, ${body.byteLength} bytes (expected 200, ${expectBytes})`);
      }
      samples.push(msSince(t));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = msSince(t0) / 1000;
  await pool.close();
  return { requests: samples.length, seconds, samples };
}

export interface RestLoad {
  path: string;
  bodyBytes: number;
  durationMs: number;
  figures: LoadFigure[];
}

export async function measureRest(sandbox: Sandbox, concurrencies: readonly number[], durationMs: number): Promise<RestLoad> {
  const ours = await spawnListening([CLI, "api", "--port", "0"], sandbox.env);
  let bare: Awaited<ReturnType<typeof spawnListening>> | undefined;
  try {
    const headers = { "x-api-key": KEY };
    const first = await fetch(ours.url + REST_PATH, { headers });
    const bytes = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200) throw new Error(`REST face answered ${first.status}: ${bytes.toString("utf8").slice(0, 300)}`);
    const points = (JSON.parse(bytes.toString("utf8")) as unknown[]).length;
    if (points !== 365) throw new Error(`expected 365 points, got ${points}`);
    const bodyFile = join(sandbox.dir, "rest-body.json");
    writeFileSync(bodyFile, bytes);
    bare = await spawnListening([join(BENCH_DIR, "bare-server.mjs"), bodyFile], sandbox.env);

    const figures: LoadFigure[] = [];
    const targets = [
      { server: "ours" as const, url: ours.url, headers },
      { server: "bare" as const, url: bare.url, headers: {} },
    ];
    for (const { url, headers: h } of targets) await drive(url, h, 4, Math.min(1_000, durationMs), bytes.length); // warm-up: JIT, sockets
    for (const concurrency of concurrencies) {
      for (const { server, url, headers: h } of targets) {
        const d = await drive(url, h, concurrency, durationMs, bytes.length);
        figures.push({
          server,
          concurrency,
          requests: d.requests,
          seconds: round(d.seconds),
          requestsPerSecond: round(d.requests / d.seconds),
          latencyMs: latency(d.samples),
        });
      }
    }
    return { path: REST_PATH, bodyBytes: bytes.length, durationMs, figures };
  } finally {
    await stop(ours.child);
    if (bare) await stop(bare.child);
  }
}
