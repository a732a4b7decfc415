// The store setting: its forms, and a bad one stopping the program with the setting and the fix
// named (exit 2 for configuration, 1 for a database that does not answer), never falling back.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempDir } from "../../../../harness/service.js";
import { cleanEnv, ROOT } from "../../../../harness/spawn.js";
import { openSqlite } from "../../../../src/backend/inprocess/metering/sqlite-driver.js";
import { ConfigError, loadConfig } from "../../../../src/config.js";

function run(env: Record<string, string>, args: string[] = ["api", "--port", "0"]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "src/cli.ts"), ...args], {
    cwd: ROOT,
    env: cleanEnv(env),
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe("--store / CRYPTO_METRICS_STORE", () => {
  it("defaults to metering.sqlite in the state directory, and reads sqlite: and postgres: URLs", () => {
    expect(loadConfig({ CRYPTO_METRICS_STATE_DIR: "/srv/cm" }, []).store).toEqual({
      kind: "sqlite",
      path: "/srv/cm/metering.sqlite",
      display: "sqlite:/srv/cm/metering.sqlite",
    });
    expect(loadConfig({}, ["--store", "sqlite:///var/lib/cm/m.db"]).store).toMatchObject({ kind: "sqlite", path: "/var/lib/cm/m.db" });
    const pg = loadConfig(
      { CRYPTO_METRICS_STORE: "postgresql://biller:p%40ss@db.internal:6432/metrics?schema=cm_prod&sslmode=require" },
      [],
    ).store;
    expect(pg).toMatchObject({
      kind: "postgres",
      schema: "cm_prod",
      display: "postgres://biller@db.internal:6432/metrics (schema cm_prod)",
    });
    expect(pg.kind === "postgres" && pg.url).toBe("postgresql://biller:p%40ss@db.internal:6432/metrics?sslmode=require");
    // The flag wins over the environment.
    expect(loadConfig({ CRYPTO_METRICS_STORE: "postgres://h/db" }, ["--store", "sqlite:/x.db"]).store.kind).toBe("sqlite");
  });

  it.each([
    ["mysql://h/db", /--store \(CRYPTO_METRICS_STORE\) has the scheme "mysql:"; use postgres:\/\//],
    ["/var/lib/metering.db", /has no scheme; use .*sqlite:\/path/],
    ["postgres://u:hunter2@/db", /is not a valid URL; use postgres:\/\//],
    ["postgres://u:hunter2@h", /names no database/],
    ["postgres://h/db?schema=Bad-Name", /schema must be a lowercase SQL name/],
    ["sqlite:", /a sqlite: store names a file/],
  ])("refuses %s, naming the setting and the accepted forms", (value, message) => {
    const err = (() => {
      try {
        loadConfig({ CRYPTO_METRICS_STORE: value }, []);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain("hunter2");
  });

  it("exits 2 on a malformed URL, a newer schema or an unwritable state directory, and 1 on an unreachable database", () => {
    const dir = tempDir("cm-store-cli-");
    expect(run({ CRYPTO_METRICS_STORE: "mysql://h/db" })).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/CRYPTO_METRICS_STORE/),
    });
    const newer = join(dir, "newer.sqlite");
    const db = openSqlite(newer, { busyTimeoutMs: 1000 });
    db.exec("PRAGMA user_version = 99");
    db.close();
    const r1 = run({ CRYPTO_METRICS_STORE: `sqlite:${newer}` });
    expect(r1.status).toBe(2);
    expect(r1.stderr).toMatch(/schema version 99, newer than this release understands/);
    writeFileSync(join(dir, "not-a-dir"), "");
    const r2 = run({ CRYPTO_METRICS_STATE_DIR: join(dir, "not-a-dir", "state") });
    expect(r2.status).toBe(2);
    expect(r2.stderr).toMatch(/cannot be opened for writing .*CRYPTO_METRICS_STATE_DIR or --store/);
    const r3 = run({ CRYPTO_METRICS_STORE: "postgres://postgres:hunter2@127.0.0.1:9/test" }, ["call", "list_assets"]);
    expect(r3.status).toBe(1);
    expect(r3.stderr).toMatch(
      /PostgreSQL store postgres:\/\/postgres@127\.0\.0\.1:9\/test \(schema crypto_metrics\) cannot be reached .*never falls back/,
    );
    expect(r3.stderr).not.toContain("hunter2");
  }, 60_000);
});
