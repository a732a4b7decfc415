// The shared metering store: a PostgreSQL schema used by any number of processes on any number of
// machines. A charge is one call of the schema's charge() function (one statement, one round trip);
// a lost connection fails that call as store_unavailable and the pool reconnects on the next one.
import pg from "pg";
import { log } from "../../../log.js";
import { readLegacyUsage, retireLegacyUsage } from "./legacy-usage.js";
import { migration, PG_SCHEMA_VERSION } from "./postgres-sql.js";
import type { StoreSpec } from "../../../store-setting.js";
import { StoreConfigError, StoreUnavailableError, type ChargeOutcome, type MeterKey, type MeteringStore, type MeterStatus } from "./store.js";

type PgSpec = Extract<StoreSpec, { kind: "postgres" }>;

const POOL_SIZE = 8;
const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 10_000;
/** SQLSTATE classes that no retry will fix: the setting is wrong (auth, database, privileges). */
const CONFIG_SQLSTATE = /^(28|3D|42501|3F)/;

interface ChargeRow { outcome: "ok" | "rate_limited" | "credits_exhausted"; credits_remaining: string; retry_after_s: number | null; rate_remaining: number; reset_s: number; request: string | null }
interface StatusRow { credits_remaining: string; rate_remaining: number; reset_s: number }

function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code ? `${e.code}${e.message && !/^[A-Z0-9]+$/.test(e.message) ? `: ${e.message}` : ""}` : (e.message ?? String(err));
}

export class PostgresStore implements MeteringStore {
  readonly kind = "postgres" as const;
  readonly location: string;
  private readonly s: string;

  private constructor(private readonly pool: pg.Pool, spec: PgSpec) {
    this.location = spec.display;
    this.s = `"${spec.schema}"`;
  }

  static async open(spec: PgSpec, options: { legacyDir?: string } = {}): Promise<PostgresStore> {
    // Every charge waits for the server's WAL flush (PostgreSQL's default): a charge that answered
    // survives a crash of the database server too. An operator who prefers ~0.3 ms charges to that
    // guarantee adds ?options=-c%20synchronous_commit%3Doff to the URL (our own processes' crashes
    // still lose nothing; a database crash may then lose its last fraction of a second of charges).
    const pool = new pg.Pool({
      connectionString: spec.url,
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS + 1_000,
      keepAlive: true,
      application_name: "crypto-metrics-mcp",
    });
    // An idle connection dropped by the server must not end the process: the pool discards it.
    pool.on("error", (err) => log.warn("metering store connection lost; the next call reconnects", { store: spec.display, error: reason(err) }));
    const store = new PostgresStore(pool, spec);
    try {
      await store.migrate(spec);
      if (options.legacyDir) await store.importLegacy(options.legacyDir);
      return store;
    } catch (err) {
      await pool.end().catch(() => undefined);
      if (err instanceof StoreConfigError) throw err;
      const code = (err as { code?: string }).code ?? "";
      const fix = "check --store (CRYPTO_METRICS_STORE)";
      if (CONFIG_SQLSTATE.test(code)) throw new StoreConfigError(`the PostgreSQL store ${spec.display} refused us (${reason(err)}); ${fix}: user, password, database and privileges`);
      throw new StoreUnavailableError(`the PostgreSQL store ${spec.display} cannot be reached (${reason(err)}); start the database or ${fix}. Metering never falls back to a local store when a shared one is configured`);
    }
  }

  private async migrate(spec: PgSpec): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      // One process migrates at a time; the others wait and find the schema current.
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`crypto-metrics-mcp:${spec.schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.s}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.s}.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const { rows } = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${this.s}.schema_version`);
      const current = rows[0]?.v ?? 0;
      if (current > PG_SCHEMA_VERSION) {
        throw new StoreConfigError(`the PostgreSQL store ${spec.display} has schema version ${current}, newer than this release understands (${PG_SCHEMA_VERSION}); upgrade every crypto-metrics-mcp that shares it, or point --store (CRYPTO_METRICS_STORE) at another schema`);
      }
      for (let v = current + 1; v <= PG_SCHEMA_VERSION; v++) {
        await client.query(migration(v, this.s));
        await client.query(`INSERT INTO ${this.s}.schema_version (version) VALUES ($1)`, [v]);
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
  private async importLegacy(dir: string): Promise<void> {
    const client = await this.pool.connect();
    let undo: (() => void) | undefined;
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`crypto-metrics-mcp:import:${this.s}`]);
      const legacy = readLegacyUsage(dir);
      if (!legacy) return void (await client.query("ROLLBACK"));
      const inserted = await client.query(`INSERT INTO ${this.s}.imports (source, credits) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [legacy.id, legacy.total]);
      if (inserted.rowCount === 1) {
        for (const [id, n] of legacy.spent) {
          await client.query(`INSERT INTO ${this.s}.meter (key_id, spent) VALUES ($1, $2) ON CONFLICT (key_id) DO UPDATE SET spent = ${this.s}.meter.spent + excluded.spent`, [id, n]);
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

  private async run<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>({ name, text, values })).rows;
    } catch (err) {
      throw new StoreUnavailableError(`The metering store ${this.location} failed (${reason(err)}). Nothing was served or charged; retry shortly.`);
    }
  }

  async charge(key: MeterKey, cost: number, nowMs?: number): Promise<ChargeOutcome> {
    const [row] = await this.run<ChargeRow>("cm_charge", `SELECT * FROM ${this.s}.charge($1, $2, $3, $4, $5, $6)`,
      [key.id, key.credits, cost, key.rateLimit.requests, key.rateLimit.windowSeconds * 1000, nowMs ?? null]);
    const status: MeterStatus = { creditsRemaining: Number(row!.credits_remaining), rate: { remaining: row!.rate_remaining, resetS: row!.reset_s } };
    if (row!.outcome === "ok") return { ok: true, request: Number(row!.request), ...status };
    if (row!.outcome === "rate_limited") return { ok: false, reason: "rate_limited", retryAfterS: row!.retry_after_s!, ...status };
    return { ok: false, reason: "credits_exhausted", ...status };
  }

  async refund(key: MeterKey, request: number, cost: number): Promise<void> {
    await this.run("cm_refund", `SELECT ${this.s}.refund($1, $2, $3)`, [key.id, request, cost]);
  }

  async status(key: MeterKey, nowMs?: number): Promise<MeterStatus> {
    const [row] = await this.run<StatusRow>("cm_status", `SELECT * FROM ${this.s}.meter_status($1, $2, $3, $4, $5)`,
      [key.id, key.credits, key.rateLimit.requests, key.rateLimit.windowSeconds * 1000, nowMs ?? null]);
    return { creditsRemaining: Number(row!.credits_remaining), rate: { remaining: row!.rate_remaining, resetS: row!.reset_s } };
  }

  async spent(keyId: string): Promise<number> {
    const rows = await this.run<{ spent: string }>("cm_spent", `SELECT spent FROM ${this.s}.meter WHERE key_id = $1`, [keyId]);
    return rows.length ? Number(rows[0]!.spent) : 0;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
