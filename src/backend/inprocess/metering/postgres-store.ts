// The shared metering store: a PostgreSQL schema used by any number of processes on any number of
// machines. A charge is one call of the schema's charge() function (one statement, one round trip);
// a lost connection fails that call as store_unavailable and the pool reconnects on the next one.
// A charge whose reply is lost (connection cut, server crash, read timeout) is not guessed at: its
// token says whether it committed, and it is then served, or refunded once the store answers.
import { randomUUID } from "node:crypto";

import pg from "pg";

import { log } from "../../../log.js";
import { importLegacyUsage, migrateSchema, type PgSpec } from "./postgres-prepare.js";
import {
  type ChargeOutcome,
  type MeteringStore,
  type MeterKey,
  type MeterStatus,
  StoreConfigError,
  StoreUnavailableError,
} from "./store.js";

const POOL_SIZE = 8;
const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 10_000;
/** SQLSTATE classes that no retry will fix: the setting is wrong (auth, database, privileges). */
const CONFIG_SQLSTATE = /^(28|3D|42501|3F)/;
/** Failures after which a statement may or may not have committed: no answer, or the connection or server went away. */
const AMBIGUOUS_SQLSTATE = /^(08|57P0)/;
/** How long a request waits to learn whether its charge committed before it is answered 503. */
const SETTLE_WITHIN_MS = 3_000;
/** Charges whose outcome is still unknown are looked up again this often, and refunded if they committed. */
const RECHECK_EVERY_MS = 2_000;

const isAmbiguous = (err: unknown) => {
  const code = (err as { code?: string }).code;
  // No SQLSTATE: the client gave up (read timeout) or the socket failed (ECONNRESET, EPIPE), after sending.
  return !code || /^E[A-Z]+$/.test(code) || AMBIGUOUS_SQLSTATE.test(code);
};
const ignore = () => undefined;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
interface Unsettled {
  key: MeterKey;
  pid: number | undefined;
}

interface ChargeRow {
  outcome: "ok" | "rate_limited" | "credits_exhausted";
  credits_remaining: string;
  retry_after_s: number | null;
  rate_remaining: number;
  reset_s: number;
  request: string | null;
}
interface StatusRow {
  credits_remaining: string;
  rate_remaining: number;
  reset_s: number;
}
interface LookupRow extends StatusRow {
  request: string | null;
}

function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code ? `${e.code}${e.message && !/^[A-Z0-9]+$/.test(e.message) ? `: ${e.message}` : ""}` : (e.message ?? String(err));
}

export class PostgresStore implements MeteringStore {
  readonly kind = "postgres" as const;
  readonly location: string;
  private readonly s: string;
  /** Charges sent whose outcome is not known yet, by token. */
  private readonly unsettled = new Map<string, Unsettled>();
  private recheck: NodeJS.Timeout | undefined;

  private constructor(
    private readonly pool: pg.Pool,
    spec: PgSpec,
  ) {
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
    pool.on("error", (err) =>
      log.warn("metering store connection lost; the next call reconnects", { store: spec.display, error: reason(err) }),
    );
    const store = new PostgresStore(pool, spec);
    try {
      await migrateSchema(pool, store.s, spec);
      if (options.legacyDir) await importLegacyUsage(pool, store.s, options.legacyDir);
      return store;
    } catch (err) {
      await pool.end().catch(() => undefined);
      if (err instanceof StoreConfigError) throw err;
      const code = (err as { code?: string }).code ?? "";
      const fix = "check --store (CRYPTO_METRICS_STORE)";
      if (CONFIG_SQLSTATE.test(code))
        throw new StoreConfigError(
          `the PostgreSQL store ${spec.display} refused us (${reason(err)}); ${fix}: user, password, database and privileges`,
        );
      throw new StoreUnavailableError(
        `the PostgreSQL store ${spec.display} cannot be reached (${reason(err)}); start the database or ${fix}. Metering never falls back to a local store when a shared one is configured`,
      );
    }
  }

  private async run<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>({ name, text, values })).rows;
    } catch (err) {
      throw new StoreUnavailableError(
        `The metering store ${this.location} failed (${reason(err)}). Nothing was served or charged; retry shortly.`,
      );
    }
  }

  private failed(err: unknown): StoreUnavailableError {
    return new StoreUnavailableError(
      `The metering store ${this.location} failed (${reason(err)}). Nothing was served or charged; retry shortly.`,
    );
  }

  async charge(key: MeterKey, cost: number, nowMs?: number): Promise<ChargeOutcome> {
    const token = randomUUID();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw this.failed(err);
    }
    // A connection cut mid-call is reported to the call; the client's own error event must not end the process.
    client.on("error", ignore);
    let row: ChargeRow;
    try {
      [row] = (
        await client.query<ChargeRow>({
          name: "cm_charge_t",
          text: `SELECT * FROM ${this.s}.charge($1, $2, $3, $4, $5, $6, $7)`,
          values: [key.id, key.credits, cost, key.rateLimit.requests, key.rateLimit.windowSeconds * 1000, nowMs ?? null, token],
        })
      ).rows as [ChargeRow];
      client.off("error", ignore);
      client.release();
    } catch (err) {
      // The connection is not reused: it may still be inside the call.
      client.release(err as Error);
      if (!isAmbiguous(err)) throw this.failed(err);
      return this.settle(token, { key, pid: (client as { processID?: number }).processID }, err);
    }
    const status: MeterStatus = {
      creditsRemaining: Number(row.credits_remaining),
      rate: { remaining: row.rate_remaining, resetS: row.reset_s },
    };
    if (row.outcome === "ok") return { ok: true, request: Number(row.request), ...status };
    if (row.outcome === "rate_limited") return { ok: false, reason: "rate_limited", retryAfterS: row.retry_after_s!, ...status };
    return { ok: false, reason: "credits_exhausted", ...status };
  }

  /**
   * A charge sent without an answer: learns from its token whether it committed. Committed, the
   * request is served as charged; not committed, it is a 503 that charged nothing; not known within
   * SETTLE_WITHIN_MS, a 503 that says so, and the charge is refunded if it turns out committed.
   */
  private async settle(token: string, pending: Unsettled, cause: unknown): Promise<ChargeOutcome> {
    const deadline = Date.now() + SETTLE_WITHIN_MS;
    while (Date.now() < deadline) {
      const found = await this.lookup(token, pending, deadline).catch(() => undefined);
      if (found === null) {
        throw new StoreUnavailableError(
          `The metering store ${this.location} lost the connection during the charge (${reason(cause)}); the charge was checked and not recorded. Nothing was served or charged; retry shortly.`,
          "The metering store lost its connection during the charge; the charge was checked and not recorded. Nothing was served or charged; retry shortly.",
        );
      }
      if (found)
        return {
          ok: true,
          request: Number(found.request),
          creditsRemaining: Number(found.credits_remaining),
          rate: { remaining: found.rate_remaining, resetS: found.reset_s },
        };
      await sleep(100);
    }
    this.unsettled.set(token, pending);
    this.recheck ??= setInterval(() => void this.recheckUnsettled(), RECHECK_EVERY_MS).unref();
    log.warn("a charge's outcome is not known yet; it is refunded if it was recorded", { store: this.location });
    throw new StoreUnavailableError(
      `The metering store ${this.location} stopped answering after the charge was sent (${reason(cause)}); whether it was recorded is not known yet. Nothing was served; if it was recorded it is refunded as soon as the store answers again. Retry shortly.`,
      "The metering store stopped answering after the charge was sent; whether it was recorded is not known yet. Nothing was served; if it was recorded it is refunded as soon as the store answers again. Retry shortly.",
    );
  }

  /**
   * The token's charge as committed (with the key's balance now), null when it did not commit, or
   * undefined when that cannot be known yet. The connection that sent it is ended first and
   * waited for: a call still running there could otherwise commit after the lookup.
   */
  private async lookup(token: string, { key, pid }: Unsettled, deadline: number): Promise<LookupRow | null | undefined> {
    const client = await this.pool.connect();
    client.on("error", ignore);
    let failure: Error | undefined;
    try {
      if (pid !== undefined) {
        await client.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND application_name = 'crypto-metrics-mcp'",
          [pid],
        );
        for (;;) {
          const { rows } = await client.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
          if (!rows.length) break;
          if (Date.now() >= deadline) return undefined;
          await sleep(20);
        }
      }
      const { rows } = await client.query<LookupRow>(
        `SELECT t.request, s.* FROM ${this.s}.meter_status($2, $3, $4, $5, NULL) s LEFT JOIN ${this.s}.charge_tokens t ON t.token = $1`,
        [token, key.id, key.credits, key.rateLimit.requests, key.rateLimit.windowSeconds * 1000],
      );
      return rows[0]?.request == null ? null : rows[0];
    } catch (err) {
      failure = err as Error;
      throw err;
    } finally {
      // A connection that failed is dropped, not pooled.
      if (!failure) client.off("error", ignore);
      client.release(failure);
    }
  }

  /** Charges whose outcome was unknown: refunded (once, with their token) if they committed, forgotten if not. */
  private async recheckUnsettled(): Promise<void> {
    for (const [token, pending] of this.unsettled) {
      const found = await this.lookup(token, pending, Date.now() + SETTLE_WITHIN_MS).catch(() => undefined);
      if (found === undefined) return;
      if (found) {
        const refunded = await this.pool
          .query(
            `WITH t AS (DELETE FROM ${this.s}.charge_tokens WHERE token = $1 RETURNING key_id, request, cost) SELECT ${this.s}.refund(t.key_id, t.request, t.cost) FROM t`,
            [token],
          )
          .catch(() => undefined);
        if (!refunded) return;
        log.info("a charge whose request was answered 503 was recorded; it is refunded", { store: this.location });
      }
      this.unsettled.delete(token);
      pending.pid = undefined;
    }
    if (!this.unsettled.size) {
      clearInterval(this.recheck);
      this.recheck = undefined;
    }
  }

  async refund(key: MeterKey, request: number, cost: number): Promise<void> {
    await this.run("cm_refund", `SELECT ${this.s}.refund($1, $2, $3)`, [key.id, request, cost]);
  }

  async status(key: MeterKey, nowMs?: number): Promise<MeterStatus> {
    const [row] = await this.run<StatusRow>("cm_status", `SELECT * FROM ${this.s}.meter_status($1, $2, $3, $4, $5)`, [
      key.id,
      key.credits,
      key.rateLimit.requests,
      key.rateLimit.windowSeconds * 1000,
      nowMs ?? null,
    ]);
    return { creditsRemaining: Number(row!.credits_remaining), rate: { remaining: row!.rate_remaining, resetS: row!.reset_s } };
  }

  async spent(keyId: string): Promise<number> {
    const rows = await this.run<{ spent: string }>("cm_spent", `SELECT spent FROM ${this.s}.meter WHERE key_id = $1`, [keyId]);
    return rows.length ? Number(rows[0]!.spent) : 0;
  }

  async close(): Promise<void> {
    if (this.unsettled.size) await this.recheckUnsettled().catch(() => undefined);
    clearInterval(this.recheck);
    if (this.unsettled.size)
      log.warn("charges of requests answered 503 could not be checked before closing; each may stay charged", {
        store: this.location,
        charges: this.unsettled.size,
      });
    await this.pool.end();
  }
}
