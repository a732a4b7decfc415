// What a charge adds to a REST request: the service pipeline on a cached body, with the real store
// (embedded SQLite file; PostgreSQL over loopback when CRYPTO_METRICS_TEST_POSTGRES_URL or the local
// server answers) against the same pipeline with an unmetered store, interleaved in one process.
import { randomBytes } from "node:crypto";
import { join } from "node:path";

import pg from "pg";

import { createBodyCache } from "../src/backend/inprocess/body-lru.js";
import { KeyStore } from "../src/backend/inprocess/keys.js";
import { type ChargeOutcome, type MeteringStore, parseStoreSetting } from "../src/backend/inprocess/metering/index.js";
import { PostgresStore } from "../src/backend/inprocess/metering/postgres-store.js";
import { SqliteStore } from "../src/backend/inprocess/metering/sqlite-store.js";
import { InProcessService } from "../src/backend/inprocess/service.js";
import { type Latency, latency } from "./stats.js";

const PATH = "/btc/lifespan/Lth_mvrv";
const QUERY = "startDate=2025-06-01&endDate=2025-06-02";
const KEYS = KeyStore.fromJson(
  JSON.stringify({ keys: [{ key: "bench", credits: 1e12, rateLimit: { requests: 100_000, windowSeconds: 1 } }] }),
);

/** Admits everything and remembers nothing: the baseline without metering. */
class Unmetered implements MeteringStore {
  readonly kind = "sqlite" as const;
  readonly location = "none";
  async charge(): Promise<ChargeOutcome> {
    return { ok: true, request: 0, creditsRemaining: 1e12, rate: { remaining: 100_000, resetS: 1 } };
  }
  async refund(): Promise<void> {}
  async status() {
    return { creditsRemaining: 1e12, rate: { remaining: 100_000, resetS: 1 } };
  }
  async spent(): Promise<number> {
    return 0;
  }
  async close(): Promise<void> {}
}

function service(store: MeteringStore): InProcessService {
  return new InProcessService({ keys: KEYS, store, now: () => Date.parse("2025-12-31T12:00:00Z"), bodies: createBodyCache(1 << 20) });
}

async function timed(s: InProcessService): Promise<number> {
  const t0 = process.hrtime.bigint();
  const res = await s.handle({ method: "GET", path: PATH, query: new URLSearchParams(QUERY), headers: { "x-api-key": "bench" } });
  const us = Number(process.hrtime.bigint() - t0) / 1e3;
  if (res.status !== 200) throw new Error(`bench request answered ${res.status}`);
  return us;
}

export interface MeteringFigures {
  engine: "sqlite" | "postgres";
  n: number;
  /** Request latency through the service, µs. */
  metered: Latency;
  unmetered: Latency;
  /** store.charge() alone, µs. */
  charge: Latency;
}

async function measure(engine: MeteringFigures["engine"], store: MeteringStore, n: number): Promise<MeteringFigures> {
  const metered = service(store);
  const free = service(new Unmetered());
  for (let i = 0; i < Math.min(500, n); i++) await Promise.all([timed(metered), timed(free)]);
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  const key = KEYS.lookup("bench")!;
  for (let i = 0; i < n; i++) {
    // Alternating, so both see the same machine load.
    if (i % 2) {
      a.push(await timed(metered));
      b.push(await timed(free));
    } else {
      b.push(await timed(free));
      a.push(await timed(metered));
    }
    const t0 = process.hrtime.bigint();
    await store.charge(key, 1);
    c.push(Number(process.hrtime.bigint() - t0) / 1e3);
  }
  return { engine, n, metered: latency(a), unmetered: latency(b), charge: latency(c) };
}

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_500 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function measureMetering(dir: string): Promise<{ figures: MeteringFigures[]; postgres: string }> {
  const figures: MeteringFigures[] = [];
  const sqlite = SqliteStore.open(join(dir, "bench-metering.sqlite"), { checkpointInWorker: true }); // as the api and http servers open it
  try {
    figures.push(await measure("sqlite", sqlite, 20_000));
  } finally {
    await sqlite.close();
  }
  const base = process.env["CRYPTO_METRICS_TEST_POSTGRES_URL"] || "postgres://postgres@127.0.0.1:5432/test";
  if (!(await postgresReachable(base))) return { figures, postgres: `not measured: no server at ${base.replace(/:[^:@/]*@/, ":***@")}` };
  const schema = `bench_${randomBytes(4).toString("hex")}`;
  const url = new URL(base);
  url.searchParams.set("schema", schema);
  const store = await PostgresStore.open(
    parseStoreSetting(url.href, dir) as Extract<ReturnType<typeof parseStoreSetting>, { kind: "postgres" }>,
  );
  try {
    figures.push(await measure("postgres", store, 2_000));
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  return { figures, postgres: "measured" };
}
