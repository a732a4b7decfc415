// Preparing the PostgreSQL store when it opens: its schema migrated to this release's version, and
// an earlier version's usage files imported once.
import type pg from "pg";

import { log } from "../../../log.js";
import type { StoreSpec } from "../../../store-setting.js";
import { readLegacyUsage, retireLegacyUsage } from "./legacy-usage.js";
import { migration, PG_SCHEMA_VERSION } from "./postgres-sql.js";
import { StoreConfigError } from "./store.js";

export type PgSpec = Extract<StoreSpec, { kind: "postgres" }>;

/** Brings schema `s` (already quoted) up to PG_SCHEMA_VERSION; one process migrates at a time. */
export async function migrateSchema(pool: pg.Pool, s: string, spec: PgSpec): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // One process migrates at a time; the others wait and find the schema current.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`crypto-metrics-mcp:${spec.schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${s}.schema_version`);
    const current = rows[0]?.v ?? 0;
    if (current > PG_SCHEMA_VERSION) {
      throw new StoreConfigError(
        `the PostgreSQL store ${spec.display} has schema version ${current}, newer than this release understands (${PG_SCHEMA_VERSION}); upgrade every crypto-metrics-mcp that shares it, or point --store (CRYPTO_METRICS_STORE) at another schema`,
      );
    }
    for (let v = current + 1; v <= PG_SCHEMA_VERSION; v++) {
      await client.query(migration(v, s));
      await client.query(`INSERT INTO ${s}.schema_version (version) VALUES ($1)`, [v]);
      log.info("metering store migrated", { store: spec.display, version: v });
    }
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Under an advisory lock, files renamed before commit: each file's usage is counted once. */
export async function importLegacyUsage(pool: pg.Pool, s: string, dir: string): Promise<void> {
  const client = await pool.connect();
  let undo: (() => void) | undefined;
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`crypto-metrics-mcp:import:${s}`]);
    const legacy = readLegacyUsage(dir);
    if (!legacy) return void (await client.query("ROLLBACK"));
    const inserted = await client.query(`INSERT INTO ${s}.imports (source, credits) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      legacy.id,
      legacy.total,
    ]);
    if (inserted.rowCount === 1) {
      for (const [id, n] of legacy.spent) {
        await client.query(
          `INSERT INTO ${s}.meter (key_id, spent) VALUES ($1, $2) ON CONFLICT (key_id) DO UPDATE SET spent = ${s}.meter.spent + excluded.spent`,
          [id, n],
        );
      }
    }
    undo = retireLegacyUsage(dir, legacy.files);
    await client.query("COMMIT");
    undo = undefined;
  } catch (err) {
    undo?.();
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
