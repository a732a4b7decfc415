// REST face under load: requests/s and latency for a 365-point daily series with N concurrent
// keep-alive clients, against a bare node:http server (its own process too) returning the same bytes;
// and the same with a random window every request, so the body cache cannot answer.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { rng } from "../harness/summary-inputs.js";
import { compare, type LoadFigure, type Target } from "./load.js";
import { BENCH_DIR, CLI, KEY, type Sandbox, spawnListening, stop } from "./proc.js";

export const REST_PATH = "/btc/derivatives/Volume_usd?timeframe=1d&startDate=2025-01-01&endDate=2025-12-31";

const ROUNDS = 5;
const DAY_MS = 86_400_000;
/** Window starts are drawn from 2014-01-01 … 2024-12-31 (BTC's history covers every one). */
const WINDOW_BASE_MS = Date.parse("2014-01-01T00:00:00Z");
const WINDOW_DAYS_SPAN = 4_018;

/** A different window per request, the same sequence every run. */
const next = rng(0x5eed);

/** A 365-day window starting on a day drawn at random: two requests share a window with probability 1/4,018. */
export function randomWindowPath(): string {
  const start = WINDOW_BASE_MS + Math.floor(next() * WINDOW_DAYS_SPAN) * DAY_MS;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `/btc/derivatives/Volume_usd?timeframe=1d&startDate=${day(start)}&endDate=${day(start + 364 * DAY_MS)}`;
}

export interface RestLoad {
  path: string;
  bodyBytes: number;
  durationMs: number;
  repeat: LoadFigure[];
  distinct: LoadFigure[];
}

export async function measureRest(
  sandbox: Sandbox,
  concurrencies: readonly number[],
  durationMs: number,
  distinctConcurrency: number,
): Promise<RestLoad> {
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

    const exact = (name: string) => (status: number, body: Buffer) => {
      if (status !== 200 || body.length !== bytes.length)
        throw new Error(`${name}: status ${status}, ${body.length} bytes (expected 200, ${bytes.length})`);
    };
    // Windows differ in a few digits, so a miss's body has no exact size; every one holds 365 records.
    const year = (name: string) => (status: number, body: Buffer) => {
      if (status !== 200 || body.length < bytes.length * 0.8) throw new Error(`${name}: status ${status}, ${body.length} bytes`);
    };
    const repeat: Target[] = [
      { name: "ours", url: ours.url, request: () => ({ method: "GET", path: REST_PATH, headers }), check: exact("ours") },
      { name: "bare", url: bare.url, request: () => ({ method: "GET", path: REST_PATH, headers: {} }), check: exact("bare") },
    ];
    const distinct: Target[] = [
      { name: "ours", url: ours.url, request: () => ({ method: "GET", path: randomWindowPath(), headers }), check: year("ours") },
      { name: "bare", url: bare.url, request: () => ({ method: "GET", path: randomWindowPath(), headers: {} }), check: exact("bare") },
    ];
    await compare(repeat, 4, Math.min(1_000, durationMs), 2); // warm-up: JIT, sockets
    const out: RestLoad = { path: REST_PATH, bodyBytes: bytes.length, durationMs, repeat: [], distinct: [] };
    for (const n of concurrencies) out.repeat.push(...(await compare(repeat, n, durationMs, ROUNDS)));
    out.distinct.push(...(await compare(distinct, distinctConcurrency, durationMs, ROUNDS)));
    return out;
  } finally {
    await stop(ours.child);
    if (bare) await stop(bare.child);
  }
}
