// Opens the configured metering store. The PostgreSQL engine is loaded only when asked for: a start
// with the embedded store never loads its driver. The embedded one is part of the in-process
// service (SQLite itself is opened only by open), and the HTTP backend loads neither.
import type { StoreSpec } from "../../../store-setting.js";
import { SqliteStore } from "./sqlite-store.js";
import type { MeteringStore } from "./store.js";

export * from "./store.js";
export { defaultStore, parseStoreSetting, type StoreSpec } from "../../../store-setting.js";

export interface OpenStoreOptions {
  /** State directory of earlier versions' usage.json and journals, imported once. */
  legacyDir?: string;
  /** SQLite only: checkpoint the WAL in a worker thread (servers under load), not on the request path. */
  checkpointInWorker?: boolean;
}

export async function openStore(spec: StoreSpec, options: OpenStoreOptions = {}): Promise<MeteringStore> {
  if (spec.kind === "sqlite") return SqliteStore.open(spec.path, options);
  const { PostgresStore } = await import("./postgres-store.js");
  return PostgresStore.open(spec, { ...(options.legacyDir !== undefined && { legacyDir: options.legacyDir }) });
}
