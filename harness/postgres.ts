// The PostgreSQL server of the shared-store tests: CRYPTO_METRICS_TEST_POSTGRES_URL (default the
// local trust-auth server). Each suite gets its own schema, so parallel runs never collide. Without
// a server the suites are skipped with the reason printed, except in CI, where that is a failure.
import { randomBytes } from "node:crypto";

import pg from "pg";

import { skipping } from "./skips.js";

export const PG_URL = process.env["CRYPTO_METRICS_TEST_POSTGRES_URL"] || "postgres://postgres@127.0.0.1:5432/test";

async function probe(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (err) {
    return (err as Error).message || (err as { code?: string }).code || String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const problem = await probe();
if (problem !== undefined) {
  const reason = `no PostgreSQL server at CRYPTO_METRICS_TEST_POSTGRES_URL (${PG_URL.replace(/:[^:@/]*@/, ":***@")}): ${problem}`;
  if (process.env["CI"] === "true") throw new Error(`${reason}; CI runs the shared-store tests, so a database is required`);
  skipping(
    "the PostgreSQL store tests",
    `start a server and set CRYPTO_METRICS_TEST_POSTGRES_URL; ${PG_URL.replace(/:[^:@/]*@/, ":***@")}: ${problem}`,
  );
}

/** Whether the shared-store tests can run here. */
export const PG_AVAILABLE = problem === undefined;

/** A fresh schema name for one suite (dropped by dropSchema). */
export function testSchema(prefix = "cmt"): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

/** The store URL of `schema` on the test server. */
export function storeUrl(schema: string, base = PG_URL): string {
  const url = new URL(base);
  url.searchParams.set("schema", schema);
  return url.href;
}

export async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  if (PG_AVAILABLE) await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
