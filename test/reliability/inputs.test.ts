// Operator and client input the process must survive and answer clearly: files that never end, a
// state directory given as '', a password on the command line, stdin split mid-character, lines
// that are not JSON-RPC messages, and an upstream echoing the key in another letter case.
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { tempDir } from "../../harness/service.js";
import { spawnCli, type Spawned, StdioPeer } from "../../harness/spawn.js";
import { redact } from "../../src/backend/http/upstream-errors.js";
import { loadConfig } from "../../src/config.js";
import { clientSafe } from "../../src/incidents.js";
import { addLogSink } from "../../src/log.js";
import { invalidLineReply, LineSplitter, Utf8Lines } from "../../src/transports/stdio-lines.js";

const running: Spawned[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.child.kill("SIGKILL");
});

describe("operator-given files and settings", () => {
  it("refuses a batch that never ends (/dev/zero) with exit 2 and the limit, instead of growing without bound", async () => {
    const proc = spawnCli(["call", "--batch", "/dev/zero", "--state-dir", join(tempDir("cm-rel-in-"), "state")]);
    running.push(proc);
    const exit = await proc.exited;
    expect(exit.code).toBe(2);
    expect(proc.stderrText()).toContain("the batch file /dev/zero holds more than 64 MiB; split it into batches of at most 64 MiB");
  }, 60_000);

  it("takes --state-dir '' as unset, not as the working directory", () => {
    const env = { HOME: "/home/ana" };
    expect(loadConfig(env, ["--state-dir", ""]).stateDir).toBe(loadConfig(env, []).stateDir);
    expect(loadConfig({ ...env, CRYPTO_METRICS_STATE_DIR: "/srv/cm" }, ["--state-dir", "  "]).stateDir).toBe("/srv/cm");
  });

  it("warns when --store carries a password, without repeating it, and says where to put it", () => {
    const lines: string[] = [];
    const stop = addLogSink((_level, line) => lines.push(line));
    try {
      loadConfig({ HOME: "/h" }, ["api", "--store", "postgres://cm:s3cret-pw@db.internal/metrics"]);
      loadConfig({ HOME: "/h", CRYPTO_METRICS_STORE: "postgres://cm:s3cret-pw@db.internal/metrics" }, ["api"]);
      loadConfig({ HOME: "/h" }, ["api", "--store", "postgres://cm@db.internal/metrics"]);
    } finally {
      stop();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      "--store carries a password, which every local user can read in the process list; put the URL in CRYPTO_METRICS_STORE instead, or the password in PGPASSWORD or ~/.pgpass",
    );
    expect(lines[0]).not.toContain("s3cret");
  });

  it("redacts the key from upstream text in any letter case", () => {
    const key = "Canary-Up-5b6c7d8e9f0a1b2c";
    const text = `Accepted: ${key}, ${key.toUpperCase()}, ${key.toLowerCase()}, ${encodeURIComponent(key).toLowerCase()}`;
    const out = redact(text, [key]);
    expect(out).not.toMatch(/5b6c7d8e9f0a1b2c/i);
    expect(out).toBe("Accepted: [redacted], [redacted], [redacted], [redacted]");
  });
});

describe("text bound for a client", () => {
  it("loses absolute paths and connection URLs, keeps routes, URIs and endpoint ids", () => {
    expect(clientSafe("The metering store /tmp/x/state/metering.sqlite was deleted (C:\\Users\\me\\m.db, ~/s/m)")).toBe(
      "The metering store [path] was deleted ([path], [path])",
    );
    expect(clientSafe("postgres://u:pw@db.internal:5432/test?schema=s failed")).toBe("[store] failed");
    const kept = "lifespan/Lth_mvrv at crypto-metrics://data/btc/lifespan/Lth_mvrv; the MCP endpoint is /mcp; 1/2";
    expect(clientSafe(kept)).toBe(kept);
  });
});

describe("stdin lines", () => {
  it("keeps a character split across two reads whole", () => {
    const lines = new Utf8Lines();
    const bytes = Buffer.from('{"asset":"xé"}\n');
    const at = bytes.indexOf(0xc3) + 1;
    expect(lines.decode(bytes.subarray(0, at)) + lines.decode(bytes.subarray(at))).toBe('{"asset":"xé"}\n');
  });

  it("owes a parse error to a non-JSON line and an invalid request to a batch, none to a notification or a blank line", () => {
    expect(invalidLineReply("not json")).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(invalidLineReply('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(invalidLineReply('{"id":7,"method":"ping"}')).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(invalidLineReply('{"method":"notifications/x"}')).toBeUndefined();
    expect(invalidLineReply("   ")).toBeUndefined();
  });

  it("skips a line over the cap as it streams, keeping only its top-level id, and splits the lines around it", () => {
    const lines = new LineSplitter(32);
    const pad = "a".repeat(40);
    expect(lines.push(`{"jsonrpc":"2.0","id":1}\n{"params":{"id":"inner","x":"${pad.slice(0, 20)}`)).toEqual(['{"jsonrpc":"2.0","id":1}']);
    expect(lines.push(`${pad}\\""},"id" : "outer\\"q"}\n{"id":2}\n`)).toEqual([{ tooLong: true, id: 'outer"q' }, '{"id":2}']);
    expect(lines.push(`{"id":-1.5e3,"p":"${pad}"}\n[${pad}]\n{"id":{"a":1},"p":"${pad}"}`)).toEqual([
      { tooLong: true, id: -1500 },
      { tooLong: true, id: null },
    ]);
    expect(lines.end()).toEqual([{ tooLong: true, id: null }]);
    expect(lines.push("{}")).toEqual([]);
    expect(lines.end()).toEqual(["{}"]);
  });

  it("answers a stdio server's bad lines with JSON-RPC errors, and a split character arrives whole", async () => {
    const proc = spawnCli(["stdio"], {
      CRYPTO_METRICS_STATE_DIR: join(tempDir("cm-rel-in-"), "state"),
      CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
    });
    running.push(proc);
    const peer = new StdioPeer(proc);
    await peer.initialize();
    proc.child.stdin.write("not json\n");
    proc.child.stdin.write('[{"jsonrpc":"2.0","id":99,"method":"ping"}]\n');
    expect(await peer.request("ping")).toMatchObject({ result: {} });
    const errors = peer.lines.map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number } }).filter((m) => m.error);
    expect(errors.map((m) => [m.id, m.error!.code])).toEqual([
      [null, -32700],
      [null, -32600],
    ]);
    // A tool call whose é is split between two writes (two reads on the server's side).
    const line = Buffer.from(
      `${JSON.stringify({ jsonrpc: "2.0", id: 500, method: "tools/call", params: { name: "get_series", arguments: { metric: "lifespan/Lth_mvrv", asset: "xé" } } })}\n`,
    );
    const at = line.indexOf(0xc3) + 1;
    const answered = new Promise<string>((resolve) => {
      const check = () => {
        const hit = peer.lines.find((l) => l.includes('"id":500'));
        if (hit) resolve(hit);
        else setTimeout(check, 20);
      };
      check();
    });
    proc.child.stdin.write(line.subarray(0, at));
    await new Promise((r) => setTimeout(r, 100));
    proc.child.stdin.write(line.subarray(at));
    const text = await answered;
    expect(text).toContain("xé");
    expect(text).not.toContain("\\ufffd");
    expect(text).not.toContain("\ufffd");
  }, 60_000);
});
