// REST face under load: requests/s and latency for a 365-point daily series with N concurrent
// keep-alive clients, against a bare node:http server (its own process too) returning the same bytes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pool } from "undici";
import { BENCH_DIR, CLI, KEY, spawnListening, stop, type Sandbox } from "./proc.js";
import { latency, median, msSince, round, type Latency } from "./stats.js";

/** Rounds per server and load, alternating between the two servers. */
const ROUNDS = 5;

export const REST_PATH = "/btc/derivatives/Volume_usd?timeframe=1d&startDate=2025-01-01&endDate=2025-12-31";

/** 3,000 different 365-day windows: more than the REST face's body cache holds, so every request misses. */
const DISTINCT_WINDOWS = 3_000;
const WINDOW_BASE_MS = Date.parse("2016-01-01T00:00:00Z");

export function distinctPath(i: number): string {
  const start = WINDOW_BASE_MS + (i % DISTINCT_WINDOWS) * 86_400_000;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `/btc/derivatives/Volume_usd?timeframe=1d&startDate=${day(start)}&endDate=${day(start + 364 * 86_400_000)}`;
}

export interface LoadFigure {
  server: "ours" | "bare";
  /** "repeat": the same request every time (the body cache answers); "distinct": a new window every time. */
  mode: "repeat" | "distinct";
  concurrency: number;
  requests: number;
  seconds: number;
  /** Median of the rounds' rates. */
  requestsPerSecond: number;
  latencyMs: Latency;
}

interface Drive {
  requests: number;
  seconds: number;
  samples: number[];
}

/** `concurrency` loops of request → full body → next, over one pool of as many keep-alive sockets. */
async function drive(origin: string, headers: Record<string, string>, concurrency: number, durationMs: number, expectBytes: number, mode: LoadFigure["mode"] = "repeat"): Promise<Drive> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const samples: number[] = [];
  const t0 = process.hrtime.bigint();
  const deadline = Number(t0 / 1_000_000n) + durationMs;
  let sent = 0;
  const worker = async () => {
    while (Number(process.hrtime.bigint() / 1_000_000n) < deadline) {
      const t = process.hrtime.bigint();
      const path = mode === "repeat" ? REST_PATH : distinctPath(sent++);
      const res = await pool.request({ path, method: "GET", headers });
      const body = await res.body.arrayBuffer();
      // Distinct windows differ in a few digits, so only the repeated body has an exact size.
      if (res.statusCode !== 200 || (mode === "repeat" ? body.byteLength !== expectBytes : body.byteLength < expectBytes * 0.8)) {
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

export async function measureRest(sandbox: Sandbox, concurrencies: readonly number[], durationMs: number, distinctConcurrency: number): Promise<RestLoad> {
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
    const runs = [
      ...concurrencies.map((concurrency) => ({ concurrency, mode: "repeat" as const })),
      { concurrency: distinctConcurrency, mode: "distinct" as const },
    ];
    for (const { concurrency, mode } of runs) {
      // Alternating rounds, median rate: load from other processes on a shared machine only ever
      // slows a round down, and it hits both servers alike instead of whichever ran second.
      const rounds = new Map<string, Drive[]>(targets.map((t) => [t.server, []]));
      for (let r = 0; r < ROUNDS; r++) {
        for (const { server, url, headers: h } of r % 2 ? [...targets].reverse() : targets) {
          rounds.get(server)!.push(await drive(url, h, concurrency, durationMs / ROUNDS, bytes.length, mode));
        }
      }
      for (const { server } of targets) {
        const ds = rounds.get(server)!;
        const requests = ds.reduce((n, d) => n + d.requests, 0);
        figures.push({
          server,
          mode,
          concurrency,
          requests,
          seconds: round(ds.reduce((n, d) => n + d.seconds, 0)),
          requestsPerSecond: round(median(ds.map((d) => d.requests / d.seconds))),
          latencyMs: latency(ds.flatMap((d) => d.samples)),
        });
      }
    }
    return { path: REST_PATH, bodyBytes: bytes.length, durationMs, figures };
  } finally {
    await stop(ours.child);
    if (bare) await stop(bare.child);
  }
}
