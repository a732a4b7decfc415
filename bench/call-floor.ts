// The least a one-shot metered call does with this program's stack, for `npm run bench` to time
// beside `call get_series`: validate its arguments with zod (the library the tools validate with),
// open the SQLite metering file as the store opens it (WAL, synchronous NORMAL; node:sqlite where the
// runtime has it without a flag, as the store does, else better-sqlite3),
// debit one credit in a write transaction, print a line, close. No catalog, data or digest. The
// bench bundles it as dist/ is bundled (zod with the same plugins); argv: the better-sqlite3
// package directory, the store file, then a metric and an asset.
import { createRequire } from "node:module";

import { z } from "zod";

const [sqlitePackage, file, metric, asset] = process.argv.slice(2);
const args = z
  .object({ metric: z.string().min(1), asset: z.string().regex(/^[a-z0-9-]+$/), from: z.string().optional(), to: z.string().optional() })
  .parse({ metric, asset });
interface Db {
  exec(sql: string): void;
  prepare(sql: string): { run(): unknown };
  close(): void;
}
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const builtin = major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
const db: Db = builtin
  ? new (process.getBuiltinModule("node:sqlite") as { DatabaseSync: new (path: string) => Db }).DatabaseSync(file!)
  : new (createRequire(import.meta.url)(sqlitePackage!) as typeof import("better-sqlite3"))(file!, { timeout: 5000 });
db.exec("PRAGMA busy_timeout = 5000");
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA synchronous = NORMAL");
db.exec("CREATE TABLE IF NOT EXISTS ledger (k INTEGER PRIMARY KEY, credits INTEGER NOT NULL)");
db.prepare("INSERT OR IGNORE INTO ledger VALUES (1, 1000000000)").run();
const debit = db.prepare("UPDATE ledger SET credits = credits - 1 WHERE k = 1 AND credits > 0");
db.exec("BEGIN IMMEDIATE");
debit.run();
db.exec("COMMIT");
process.stdout.write(`${args.metric} ${args.asset}: charged 1 credit\n`);
db.close();
