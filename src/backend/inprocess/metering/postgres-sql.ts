// The PostgreSQL store's schema, one migration per version. The charge is a function so that a
// charge is one statement and one round trip: its row lock on the key serializes charges of
// that key across every connection of every process, and the rate log lives in the same rows.
export const PG_SCHEMA_VERSION = 3;

/** Statements of migration `version` (1-based) for schema `s` (already validated as an SQL name). */
export function migration(version: number, s: string): string {
  if (version === 1) return v1(s);
  if (version === 2) return v2(s);
  if (version === 3) return v3(s);
  throw new Error(`no migration to version ${version}`);
}

function v1(s: string): string {
  return `
CREATE TABLE ${s}.meter (
  key_id text PRIMARY KEY,            -- SHA-256 of the key, hex
  spent bigint NOT NULL DEFAULT 0,    -- credits debited, ever
  requests bigint NOT NULL DEFAULT 0,
  seq bigint NOT NULL DEFAULT 0,      -- number of the next request in rate_log
  last_ms bigint NOT NULL DEFAULT 0   -- latest window time: a key's clock never runs backwards
);
-- The last R accepted requests of each key (R = its rate limit), numbered by seq.
CREATE TABLE ${s}.rate_log (key_id text NOT NULL, seq bigint NOT NULL, t_ms bigint NOT NULL, PRIMARY KEY (key_id, seq));
CREATE INDEX rate_log_time ON ${s}.rate_log (key_id, t_ms, seq);
CREATE TABLE ${s}.imports (source text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), credits bigint NOT NULL);

CREATE FUNCTION ${s}.rate_status(p_key text, p_seq bigint, p_limit integer, p_window_ms bigint, p_now bigint,
  OUT rate_remaining integer, OUT reset_s integer) LANGUAGE plpgsql STABLE AS $$
DECLARE f record;
BEGIN
  SELECT r.seq, r.t_ms INTO f FROM ${s}.rate_log r
    WHERE r.key_id = p_key AND r.t_ms > p_now - p_window_ms ORDER BY r.t_ms, r.seq LIMIT 1;
  IF NOT FOUND THEN rate_remaining := p_limit; reset_s := 0;
  ELSE
    rate_remaining := greatest(0, p_limit - (p_seq - f.seq));
    reset_s := greatest(1, ceil((f.t_ms + p_window_ms - p_now) / 1000.0))::integer;
  END IF;
END $$;

CREATE FUNCTION ${s}.charge(p_key text, p_credits bigint, p_cost bigint, p_limit integer, p_window_ms bigint, p_now_ms bigint,
  OUT outcome text, OUT credits_remaining bigint, OUT retry_after_s integer, OUT rate_remaining integer, OUT reset_s integer)
  LANGUAGE plpgsql AS $$
DECLARE m record; v_now bigint; v_oldest bigint; v_seq bigint; v_left bigint;
BEGIN
${chargeBody(s, 1)}
END $$;

CREATE FUNCTION ${s}.meter_status(p_key text, p_credits bigint, p_limit integer, p_window_ms bigint, p_now_ms bigint,
  OUT credits_remaining bigint, OUT rate_remaining integer, OUT reset_s integer) LANGUAGE plpgsql STABLE AS $$
DECLARE m record; v_now bigint;
BEGIN
  SELECT spent, seq, last_ms INTO m FROM ${s}.meter WHERE key_id = p_key;
  IF NOT FOUND THEN credits_remaining := greatest(0, p_credits); rate_remaining := p_limit; reset_s := 0; RETURN; END IF;
  v_now := greatest(coalesce(p_now_ms, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint), m.last_ms);
  credits_remaining := greatest(0, p_credits - m.spent);
  SELECT q.rate_remaining, q.reset_s INTO rate_remaining, reset_s FROM ${s}.rate_status(p_key, m.seq, p_limit, p_window_ms, v_now) q;
END $$;
`;
}

// A refund frees its request's place in the window as well as its credits, in one call. Log rows
// carry the number of their charge (meter.requests counts charges ever and numbers them; seq stays
// the contiguous position among the requests still counted), which charge() now answers.
function v2(s: string): string {
  return `
ALTER TABLE ${s}.rate_log ADD COLUMN id bigint;
UPDATE ${s}.rate_log SET id = seq;
ALTER TABLE ${s}.rate_log ALTER COLUMN id SET NOT NULL;
UPDATE ${s}.meter SET requests = greatest(requests, seq);
DROP FUNCTION ${s}.charge(text, bigint, bigint, integer, bigint, bigint);

CREATE FUNCTION ${s}.charge(p_key text, p_credits bigint, p_cost bigint, p_limit integer, p_window_ms bigint, p_now_ms bigint,
  OUT outcome text, OUT credits_remaining bigint, OUT retry_after_s integer, OUT rate_remaining integer, OUT reset_s integer, OUT request bigint)
  LANGUAGE plpgsql AS $$
DECLARE m record; v_now bigint; v_oldest bigint; v_seq bigint; v_left bigint;
BEGIN
${chargeBody(s, 2)}
END $$;

CREATE FUNCTION ${s}.refund(p_key text, p_request bigint, p_cost bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE v_seq bigint; v_at bigint;
BEGIN
  SELECT seq INTO v_seq FROM ${s}.meter WHERE key_id = p_key FOR UPDATE;
  IF NOT FOUND THEN RETURN; END IF;
  -- At or below its number, found from the newest down; not found: trimmed, out of the window already.
  SELECT r.seq INTO v_at FROM ${s}.rate_log r
    WHERE r.key_id = p_key AND r.seq <= least(p_request, v_seq - 1) AND r.id = p_request ORDER BY r.seq DESC LIMIT 1;
  IF v_at IS NOT NULL THEN
    DELETE FROM ${s}.rate_log WHERE key_id = p_key AND seq = v_at;
    -- The rows after it move down one, through negative positions: no two rows ever share one.
    UPDATE ${s}.rate_log SET seq = -seq WHERE key_id = p_key AND seq > v_at;
    UPDATE ${s}.rate_log SET seq = -seq - 1 WHERE key_id = p_key AND seq < 0;
    UPDATE ${s}.meter SET seq = seq - 1 WHERE key_id = p_key;
  END IF;
  UPDATE ${s}.meter SET spent = greatest(0, spent - p_cost) WHERE key_id = p_key;
END $$;
`;
}

// Each accepted charge records the caller's token for an hour: a process whose reply was lost
// (connection cut, server crash, read timeout) asks whether its charge committed instead of
// guessing. The token rows of a key are trimmed by its own charges, under its row lock.
function v3(s: string): string {
  return `
CREATE TABLE ${s}.charge_tokens (
  token uuid PRIMARY KEY,
  key_id text NOT NULL,
  request bigint NOT NULL,
  cost bigint NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX charge_tokens_key_at ON ${s}.charge_tokens (key_id, at);

CREATE FUNCTION ${s}.charge(p_key text, p_credits bigint, p_cost bigint, p_limit integer, p_window_ms bigint, p_now_ms bigint, p_token uuid,
  OUT outcome text, OUT credits_remaining bigint, OUT retry_after_s integer, OUT rate_remaining integer, OUT reset_s integer, OUT request bigint)
  LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.outcome, c.credits_remaining, c.retry_after_s, c.rate_remaining, c.reset_s, c.request
    INTO outcome, credits_remaining, retry_after_s, rate_remaining, reset_s, request
    FROM ${s}.charge(p_key, p_credits, p_cost, p_limit, p_window_ms, p_now_ms) c;
  IF outcome = 'ok' THEN
    DELETE FROM ${s}.charge_tokens WHERE key_id = p_key AND at < now() - interval '1 hour';
    INSERT INTO ${s}.charge_tokens (token, key_id, request, cost) VALUES (p_token, p_key, request, p_cost);
  END IF;
END $$;
`;
}

const TRIMMED_NOTE = "\n  -- A row no longer kept was out of the window when it was trimmed.";

/**
 * The charge's body, between BEGIN and END, as migration `version` (1 or 2) defines it: the key's meter
 * row locked (created first if new), the verdict (rate window, then credits), and on acceptance the
 * log row, the debit and the new counts. Version 2 numbers each log row by its charge and answers it.
 */
function chargeBody(s: string, version: 1 | 2): string {
  const columns = version === 1 ? "spent, seq, last_ms" : "spent, requests, seq, last_ms";
  const logRow =
    version === 1
      ? `INSERT INTO ${s}.rate_log (key_id, seq, t_ms) VALUES (p_key, v_seq, v_now);`
      : `INSERT INTO ${s}.rate_log (key_id, seq, id, t_ms) VALUES (p_key, v_seq, m.requests, v_now);`;
  return `  SELECT ${columns} INTO m FROM ${s}.meter WHERE key_id = p_key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO ${s}.meter (key_id) VALUES (p_key) ON CONFLICT (key_id) DO NOTHING;
    SELECT ${columns} INTO m FROM ${s}.meter WHERE key_id = p_key FOR UPDATE;
  END IF;
  -- Without a clock from the caller, the database's: one clock for every machine.
  v_now := greatest(coalesce(p_now_ms, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint), m.last_ms);
  v_left := greatest(0, p_credits - m.spent);
  v_seq := m.seq;${version === 1 ? "" : TRIMMED_NOTE}
  IF v_seq >= p_limit THEN
    SELECT t_ms INTO v_oldest FROM ${s}.rate_log WHERE key_id = p_key AND seq = v_seq - p_limit;
  END IF;
  IF v_oldest IS NOT NULL AND v_oldest > v_now - p_window_ms THEN
    outcome := 'rate_limited';
    retry_after_s := greatest(1, ceil((v_oldest + p_window_ms - v_now) / 1000.0))::integer;
  ELSIF v_left < p_cost THEN
    outcome := 'credits_exhausted';
  ELSE
    ${logRow}
    DELETE FROM ${s}.rate_log WHERE key_id = p_key AND seq <= v_seq - p_limit;
    UPDATE ${s}.meter SET spent = spent + p_cost, requests = requests + 1, seq = v_seq + 1, last_ms = v_now WHERE key_id = p_key;
    outcome := 'ok';${version === 1 ? "" : "\n    request := m.requests;"}
    v_left := v_left - p_cost;
    v_seq := v_seq + 1;
  END IF;
  credits_remaining := v_left;
  SELECT q.rate_remaining, q.reset_s INTO rate_remaining, reset_s FROM ${s}.rate_status(p_key, v_seq, p_limit, p_window_ms, v_now) q;`;
}
