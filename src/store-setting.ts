// Reads the metering store setting (--store / CRYPTO_METRICS_STORE): an embedded SQLite file
// (the default, in the state directory) or a shared PostgreSQL database.
import { isAbsolute, join, resolve } from "node:path";

export const DEFAULT_STORE_FILE = "metering.sqlite";
export const DEFAULT_PG_SCHEMA = "crypto_metrics";
const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;
const SETTING = "--store (CRYPTO_METRICS_STORE)";
const FORMS = "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME] or sqlite:/path/to/metering.sqlite";

/** The store as configured cannot be used (bad URL, newer schema, unwritable place): fix the setting. */
export class StoreConfigError extends Error {
  override readonly name = "StoreConfigError";
  /** True when another process held the store locked: a later attempt may succeed. */
  constructor(
    message: string,
    readonly busy = false,
  ) {
    super(message);
  }
}

export type StoreSpec =
  | { kind: "sqlite"; path: string; display: string }
  /** `url` is handed to the driver as is (it may hold a password); `display` never does. */
  | { kind: "postgres"; url: string; schema: string; display: string };

export function defaultStore(stateDir: string): StoreSpec {
  const path = join(stateDir, DEFAULT_STORE_FILE);
  return { kind: "sqlite", path, display: `sqlite:${path}` };
}

/** The store a setting names; undefined or empty means the embedded default in `stateDir`. */
export function parseStoreSetting(raw: string | undefined, stateDir: string): StoreSpec {
  const value = raw?.trim();
  if (!value) return defaultStore(stateDir);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === "sqlite") return sqliteSpec(value.slice("sqlite:".length));
  if (scheme === "postgres" || scheme === "postgresql") return postgresSpec(value);
  const got = scheme && scheme.length > 1 ? `the scheme "${scheme}:"` : "no scheme";
  throw new StoreConfigError(`${SETTING} has ${got}; use ${FORMS}, or unset it for the embedded store in the state directory`);
}

function sqliteSpec(rest: string): StoreSpec {
  // sqlite:///abs, sqlite:/abs and sqlite:relative (to the working directory) all name a file.
  const raw = rest.replace(/^\/\/(?=\/)/, "");
  if (!raw || raw.endsWith("/") || raw.includes("?")) {
    throw new StoreConfigError(`${SETTING}: a sqlite: store names a file, e.g. sqlite:/var/lib/crypto-metrics/metering.sqlite`);
  }
  const path = isAbsolute(raw) ? raw : resolve(raw);
  return { kind: "sqlite", path, display: `sqlite:${path}` };
}

function postgresSpec(value: string): StoreSpec {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The value may hold a password: say what is wrong without repeating it.
    throw new StoreConfigError(`${SETTING} is not a valid URL; use ${FORMS} (percent-encode special characters of the password)`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!url.hostname && !url.searchParams.get("host")) {
    throw new StoreConfigError(`${SETTING} names no database host; use ${FORMS}`);
  }
  if (!database || database.includes("/")) {
    throw new StoreConfigError(`${SETTING} names no database (the path after the host); use ${FORMS}`);
  }
  const schemas = url.searchParams.getAll("schema");
  if (schemas.length > 1) throw new StoreConfigError(`${SETTING} gives schema more than once; give it once`);
  const schema = schemas[0] ?? DEFAULT_PG_SCHEMA;
  if (!SCHEMA_RE.test(schema)) {
    throw new StoreConfigError(
      `${SETTING}: schema must be a lowercase SQL name matching ${SCHEMA_RE.source}; got "${schema.slice(0, 70)}"`,
    );
  }
  // `schema` is ours, not the driver's: it must not reach the connection's startup parameters.
  url.searchParams.delete("schema");
  const host = url.hostname || url.searchParams.get("host")!;
  const user = url.username ? `${decodeURIComponent(url.username)}@` : "";
  const display = `postgres://${user}${host}${url.port ? `:${url.port}` : ""}/${database} (schema ${schema})`;
  return { kind: "postgres", url: url.href, schema, display };
}
