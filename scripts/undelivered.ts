// Charged-but-undelivered calls under random client aborts (not CI: its figures are random): a spawned
// `http` server, N uncached get_series calls (1 credit each, distinct ranges: none is answered from a
// cache) sent C at a time, each client socket destroyed at a random 0–MAX ms; then the store's spend
// is compared with the calls received whole.
//   npm run undelivered -- [--store sqlite|postgres] [--era 2025-11-25|2026-07-28] [--calls 300]
//     [--concurrency 4] [--max-abort-ms 50] [--keep-alive]
import { Agent, request } from "node:http";
import { join } from "node:path";

import pg from "pg";

import { PG_URL, storeUrl, testSchema } from "../harness/postgres.js";
import { BIG_RATE, tempDir, writeKeys } from "../harness/service.js";
import { spawnCli } from "../harness/spawn.js";
import { sha256 } from "../src/backend/inprocess/keys.js";
import { openSqlite } from "../src/backend/inprocess/metering/sqlite-driver.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i !== -1 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const STORE = arg("store", "sqlite");
const ERA = arg("era", "2025-11-25");
const CALLS = Number(arg("calls", "300"));
const CONCURRENCY = Number(arg("concurrency", "4"));
const MAX_ABORT_MS = Number(arg("max-abort-ms", "50"));
const KEEP_ALIVE = process.argv.includes("--keep-alive");
const KEY = "abort-harness";
/** 1 credit + 1 per 10,000 records: a daily series of at most 1,100 records. */
const COST = 1;

const { dir, keysFile } = writeKeys({ keys: [{ key: KEY, credits: 100_000_000, rateLimit: BIG_RATE }] }, tempDir("cm-undelivered-"));
const schema = testSchema("undelivered");
const storeArgs = STORE === "postgres" ? ["--store", storeUrl(schema)] : ["--state-dir", join(dir, "state")];
const proc = spawnCli(["http", "--port", "0", "--keys-file", keysFile, ...storeArgs], { CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z" });
const url = `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/))[1]}/mcp`;
const keyId = sha256(KEY).toString("hex");

async function spent(): Promise<number> {
  if (STORE === "postgres") {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ spent: string }>(`SELECT spent FROM ${schema}.meter WHERE key_id = $1`, [keyId]);
      return Number(rows[0]?.spent ?? 0);
    } finally {
      await client.end();
    }
  }
  const db = openSqlite(join(dir, "state", "metering.sqlite"), { busyTimeoutMs: 5_000, readOnly: true });
  try {
    return db.prepare<{ spent: number }>("SELECT spent FROM meter WHERE key_id = ?").get(keyId)?.spent ?? 0;
  } finally {
    db.close();
  }
}

const modern = ERA === "2026-07-28";
const agent = KEEP_ALIVE ? new Agent({ keepAlive: true, maxSockets: CONCURRENCY }) : false;

/** True when the answer arrived whole with a result before the client gave up. */
function call(i: number, abortMs = Math.random() * MAX_ABORT_MS): Promise<boolean> {
  const start = new Date(Date.UTC(2022, 0, 1) + (i % 700) * 86_400_000);
  const end = new Date(Date.UTC(2025, 0, 1) - Math.floor(i / 700) * 86_400_000);
  const args = {
    metric: "lifespan/Lth_mvrv",
    asset: "btc",
    startDate: start.toISOString().slice(0, 10),
    endDate: end.toISOString().slice(0, 10),
  };
  const meta = modern
    ? { _meta: { "io.modelcontextprotocol/protocolVersion": ERA, "io.modelcontextprotocol/clientCapabilities": {} } }
    : {};
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${KEY}`,
    "mcp-protocol-version": ERA,
    ...(modern && { "mcp-method": "tools/call", "mcp-name": "get_series", "mcp-param-asset": "btc" }),
  };
  return new Promise((resolve) => {
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok);
    };
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      res.on("end", () => done(res.statusCode === 200 && text.includes('"result"') && !text.includes('"isError":true')));
      res.on("error", () => done(false));
      res.on("aborted", () => done(false));
    });
    req.on("error", () => done(false));
    const timer = setTimeout(() => {
      done(false);
      req.destroy();
    }, abortMs);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "get_series", arguments: args, ...meta } }));
  });
}

// Warmed up first (its code compiled), outside the count, as a server that has run a while.
for (let i = 0; i < 20; i++) await call(100_000 + i, 10_000);
const before = await spent();
let next = 0;
let delivered = 0;
const took: number[] = [];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < CALLS) {
      const t0 = performance.now();
      if (await call(next++)) {
        delivered++;
        took.push(performance.now() - t0);
      }
    }
  }),
);
took.sort((a, b) => a - b);
// The store's figure once refunds in flight have landed (unchanged for 2 s).
let last = await spent();
for (let stable = 0; stable < 5;) {
  await new Promise((r) => setTimeout(r, 400));
  const now = await spent();
  stable = now === last ? stable + 1 : 0;
  last = now;
}
const charged = (last - before) / COST;
proc.child.kill("SIGTERM");
await proc.exited;
if (STORE === "postgres") {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
}
const extra = charged - delivered;
console.log(
  `${STORE} ${ERA}${KEEP_ALIVE ? " keep-alive" : ""}: ${CALLS} calls, ${delivered} received whole, ${charged} charged: ` +
    (extra >= 0 ? `${extra} charged but not received` : `${-extra} received but refunded`) +
    (took.length
      ? ` (received in ${took[0]!.toFixed(0)}–${took.at(-1)!.toFixed(0)} ms, median ${took[took.length >> 1]!.toFixed(0)})`
      : ""),
);
