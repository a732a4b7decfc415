// The shared store on a real PostgreSQL server: the store contract, migrations (concurrent starts,
// a newer schema refused), earlier versions' usage imported once, and a lost connection that fails
// calls as store_unavailable and recovers by itself.
import { cpSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { dropSchema, PG_AVAILABLE, PG_URL, sql, storeUrl, testSchema } from "../../../../harness/postgres.js";
import { tempDir } from "../../../../harness/service.js";
import { sha256 } from "../../../../src/backend/inprocess/keys.js";
import {
  parseStoreSetting,
  StoreConfigError,
  type StoreSpec,
  StoreUnavailableError,
} from "../../../../src/backend/inprocess/metering/index.js";
import { migration, PG_SCHEMA_VERSION } from "../../../../src/backend/inprocess/metering/postgres-sql.js";
import { PostgresStore } from "../../../../src/backend/inprocess/metering/postgres-store.js";
import { meterKey, storeContract } from "./contract.js";

const FIXTURE = join(import.meta.dirname, "..", "..", "..", "fixtures", "legacy-state");
const schemas: string[] = [];
function spec(url?: string): Extract<StoreSpec, { kind: "postgres" }> {
  const schema = testSchema();
  schemas.push(schema);
  return parseStoreSetting(storeUrl(schema, url), "/unused") as Extract<StoreSpec, { kind: "postgres" }>;
}
afterAll(async () => {
  for (const s of schemas) await dropSchema(s);
});

describe.skipIf(!PG_AVAILABLE)("PostgresStore: the store contract", () => {
  const shared = spec();
  storeContract({ open: () => PostgresStore.open(shared) });
});

describe.skipIf(!PG_AVAILABLE)("PostgresStore on its own", () => {
  it("migrates once when several processes start together, and records the schema version", async () => {
    const s = spec();
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(s)));
    await Promise.all(stores.map((x) => x.close()));
    const { rows } = await sql(`SELECT version FROM "${s.schema}".schema_version ORDER BY version`);
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it("brings a version 1 schema forward with its balances and windows, and refunds its requests too", async () => {
    const s = spec();
    const q = `"${s.schema}"`;
    const v1 = { id: sha256("pg-v1").toString("hex") };
    await sql(
      `CREATE SCHEMA ${q}; CREATE TABLE ${q}.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());`,
    );
    await sql(migration(1, q));
    await sql(`INSERT INTO ${q}.schema_version (version) VALUES (1);
      INSERT INTO ${q}.meter VALUES ('${v1.id}', 6, 2, 2, 1700000001000);
      INSERT INTO ${q}.rate_log VALUES ('${v1.id}', 0, 1700000000000), ('${v1.id}', 1, 1700000001000);`);
    const store = await PostgresStore.open(s);
    try {
      const key = { ...v1, credits: 10, rateLimit: { requests: 2, windowSeconds: 30 } };
      expect(await store.charge(key, 1, 1700000002000)).toMatchObject({
        ok: false,
        reason: "rate_limited",
        retryAfterS: 28,
        creditsRemaining: 4,
        rate: { remaining: 0 },
      });
      // The second request of version 1 (number 1) is refunded: its place frees, the first's does not.
      await store.refund(key, 1, 3);
      expect(await store.charge(key, 1, 1700000003000)).toMatchObject({
        ok: true,
        request: 2,
        creditsRemaining: 6,
        rate: { remaining: 0, resetS: 27 },
      });
    } finally {
      await store.close();
    }
  });

  it("refuses a schema from a newer version, naming the setting and the fix", async () => {
    const s = spec();
    await (await PostgresStore.open(s)).close();
    await sql(`INSERT INTO "${s.schema}".schema_version (version) VALUES ($1)`, [PG_SCHEMA_VERSION + 1]);
    const err = await PostgresStore.open(s).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreConfigError);
    expect((err as Error).message).toContain(
      `schema version ${PG_SCHEMA_VERSION + 1}, newer than this release understands (${PG_SCHEMA_VERSION}); upgrade every crypto-metrics-mcp that shares it, or point --store (CRYPTO_METRICS_STORE)`,
    );
  });

  it("fails to start on an unreachable server, naming the setting, without the password", async () => {
    const s = spec("postgres://postgres:s3cret-pw@127.0.0.1:9/test");
    const err = await PostgresStore.open(s).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).toMatch(/cannot be reached \(ECONNREFUSED.*--store \(CRYPTO_METRICS_STORE\).*never falls back/);
    expect((err as Error).message).not.toContain("s3cret");
  });

  it("imports an earlier version's usage once", async () => {
    const s = spec();
    const dir = tempDir("cm-pg-legacy-");
    cpSync(FIXTURE, dir, { recursive: true });
    const first = await PostgresStore.open(s, { legacyDir: dir });
    expect(await first.spent(sha256("legacy-a").toString("hex"))).toBe(47);
    await first.close();
    cpSync(FIXTURE, dir, { recursive: true });
    const again = await PostgresStore.open(s, { legacyDir: dir });
    expect(await again.spent(sha256("legacy-a").toString("hex"))).toBe(47);
    expect(await again.spent(sha256("legacy-c").toString("hex"))).toBe(2);
    await again.close();
  });

  it("fails calls as store_unavailable while the connection is lost, and recovers by itself", async () => {
    const proxy = await tcpProxy(new URL(PG_URL));
    const target = new URL(PG_URL);
    target.host = `127.0.0.1:${proxy.port}`;
    const store = await PostgresStore.open(spec(target.href));
    try {
      const key = meterKey(100);
      expect((await store.charge(key, 1)).ok).toBe(true);
      proxy.down();
      for (let i = 0; i < 3; i++) {
        const err = await store.charge(key, 1).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StoreUnavailableError);
        // A call on a connection cut under it may or may not have been sent: the store says which it knows.
        expect((err as Error).message).toMatch(
          /Nothing was served or charged; retry shortly|whether it was recorded is not known yet\. Nothing was served; if it was recorded it is refunded as soon as the store answers again/,
        );
      }
      proxy.up();
      expect(await store.charge(key, 1)).toMatchObject({ ok: true, creditsRemaining: 98 });
      expect(await store.spent(key.id)).toBe(2);
    } finally {
      await store.close();
      await proxy.close();
    }
  });
});

/** A TCP relay to the server that can drop every connection and refuse new ones, then come back. */
async function tcpProxy(to: URL): Promise<{ port: number; down(): void; up(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(Number(to.port || 5432), to.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    down() {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    up() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
