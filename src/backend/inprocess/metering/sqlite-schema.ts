// The embedded store's schema, one migration per version. A file is brought forward step by step
// at start (PRAGMA user_version holds its version), in one transaction.

export const SQLITE_SCHEMA_VERSION = 3;

/** seq of a key's head row in `ledger`: it sorts after every position of the key's rate log. */
export const HEAD = Number.MAX_SAFE_INTEGER;

/** Statements that bring a file from `version - 1` to `version`. */
export const MIGRATIONS: Record<number, string> = {
  1: `
CREATE TABLE meter (
  key_id TEXT PRIMARY KEY,           -- SHA-256 of the key, hex
  spent INTEGER NOT NULL DEFAULT 0,  -- credits debited, ever
  requests INTEGER NOT NULL DEFAULT 0,
  seq INTEGER NOT NULL DEFAULT 0,    -- number of the next request in rate_log
  last_ms INTEGER NOT NULL DEFAULT 0 -- latest window time: a key's clock never runs backwards
) WITHOUT ROWID;
-- The last R accepted requests of each key (R = its rate limit), numbered by seq.
CREATE TABLE rate_log (key_id TEXT NOT NULL, seq INTEGER NOT NULL, t_ms INTEGER NOT NULL, PRIMARY KEY (key_id, seq)) WITHOUT ROWID;
CREATE INDEX rate_log_time ON rate_log (key_id, t_ms, seq);
CREATE TABLE imports (source TEXT PRIMARY KEY, at_ms INTEGER NOT NULL, credits INTEGER NOT NULL) WITHOUT ROWID;
`,
  // A refund frees its request's place in the window: log rows carry the number of their charge
  // (meter.requests counts charges ever and numbers them; seq stays the contiguous position among
  // the requests still counted). Times grow with seq (a key's clock never runs backwards), so the
  // first request inside the window is found from meter.first_seq along the primary key instead
  // of through a time index that every charge had to update twice.
  2: `
ALTER TABLE rate_log ADD COLUMN id INTEGER NOT NULL DEFAULT -1;
UPDATE rate_log SET id = seq;
UPDATE meter SET requests = max(requests, seq);
ALTER TABLE meter ADD COLUMN first_seq INTEGER NOT NULL DEFAULT 0;
DROP INDEX rate_log_time;
`,
  // A charge wrote two pages of two tables (the meter row, the log's newest leaf), and SQLite's
  // commit costs one WAL frame per page written. The meter row now lives in the log's own table as
  // the key's head row, sorted right after the key's newest request, so a charge writes one page.
  // Rows are keyed by a small number per key instead of its 64-character digest: a log row is
  // ~20 bytes instead of ~90, and its leaf pages are rebalanced a few times less often.
  // `meter` stays, as a view, for operators.
  3: `
CREATE TABLE keys (key_id TEXT PRIMARY KEY, no INTEGER NOT NULL UNIQUE) WITHOUT ROWID;
INSERT INTO keys (key_id, no) SELECT key_id, row_number() OVER (ORDER BY key_id) FROM meter;
CREATE TABLE ledger (
  key_no INTEGER NOT NULL,  -- keys.no
  seq INTEGER NOT NULL,     -- a request's position in the rate log; ${HEAD} for the key's head row
  id INTEGER NOT NULL,      -- request: the number of its charge; head: the number of the next charge
  t_ms INTEGER NOT NULL,    -- request: its window time; head: the key's latest (its clock never runs backwards)
  spent INTEGER,            -- head only: credits debited, ever
  next_seq INTEGER,         -- head only: position of the next request
  first_seq INTEGER,        -- head only: position of the first request inside the window when last charged
  PRIMARY KEY (key_no, seq)
) WITHOUT ROWID;
INSERT INTO ledger (key_no, seq, id, t_ms) SELECT k.no, r.seq, r.id, r.t_ms FROM rate_log r JOIN keys k USING (key_id);
INSERT INTO ledger SELECT k.no, ${HEAD}, m.requests, m.last_ms, m.spent, m.seq, m.first_seq FROM meter m JOIN keys k USING (key_id);
DROP TABLE rate_log;
DROP TABLE meter;
CREATE VIEW meter (key_id, spent, requests) AS
  SELECT k.key_id, h.spent, h.id FROM keys k JOIN ledger h ON h.key_no = k.no AND h.seq = ${HEAD};
`,
};
