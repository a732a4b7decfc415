// stdio purity and survival against a spawned server: a 500-call session (with a stray console.log
// firing throughout) leaves nothing but JSON-RPC lines on stdout; 1,000 malformed lines and a 9 MB
// line leave it answering; a line over the 10 MB limit is answered with an error under its id, and the
// session goes on.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { spawnCli, type Spawned, StdioPeer } from "../../harness/spawn.js";

const dir = mkdtempSync(join(tmpdir(), "cm-rel-stdio-"));
// Stands in for a dependency that logs with console.log once the session runs.
const STRAY = join(dir, "stray-log.mjs");
writeFileSync(
  STRAY,
  `
const write = process.stdout.write.bind(process.stdout);
let started = false;
process.stdout.write = (...args) => {
  if (!started) {
    started = true;
    setInterval(() => { console.log("STRAY console.log"); console.info("STRAY console.info"); console.debug("STRAY console.debug"); }, 10).unref();
  }
  return write(...args);
};
`,
);

const CALLS: [string, Record<string, unknown>][] = [
  ["list_assets", {}],
  ["list_assets", { metric: "lifespan/Cvdd" }],
  ["list_assets", { search: "usd" }],
  ["get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-01-01", endDate: "2025-03-01" }],
  ["get_series", { metric: "market/metcalfe_ratio", asset: "eth", max_points: 12 }],
  ["get_ohlcv", { metric: "spot/Trades", asset: "sol", timeframe: "1h", startDate: "2025-06-01", endDate: "2025-06-02" }],
  ["get_metrics_variation", { asset: "btc" }],
  ["get_liquidation_heatmap", { asset: "btc", timeframe: "1h", lookback: "24h" }],
  ["get_series", { metric: "lifespan/Lth_mvrv", asset: "ethh" }],
  ["get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc", startDate: "2025-02-30" }],
];

let proc: Spawned;
let peer: StdioPeer;

beforeAll(async () => {
  proc = spawnCli(["stdio"], {
    CRYPTO_METRICS_STATE_DIR: join(dir, "state"),
    CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
    CRYPTO_METRICS_LOG_LEVEL: "debug",
    NODE_OPTIONS: `--import ${pathToFileURL(STRAY).href}`,
  });
  peer = new StdioPeer(proc);
  await peer.initialize();
});

afterAll(() => {
  if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
});

function assertPureStdout(): void {
  const text = proc.stdoutText();
  expect(text.endsWith("\n")).toBe(true);
  for (const line of text.slice(0, -1).split("\n")) {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`stdout carries a non-JSON line: ${JSON.stringify(line.slice(0, 120))}`);
    }
    expect(msg["jsonrpc"]).toBe("2.0");
    expect("result" in msg || "error" in msg || "method" in msg).toBe(true);
  }
}

describe("stdio session", () => {
  it("answers a 500-call session with nothing but JSON-RPC on stdout, though console.log fires throughout", async () => {
    const pending: Promise<Record<string, unknown>>[] = [];
    for (let i = 0; i < 500; i++) {
      if (i % 50 === 49) pending.push(peer.request("ping"));
      else if (i % 50 === 48) pending.push(peer.request("resources/list"));
      else {
        const [name, args] = CALLS[i % CALLS.length]!;
        pending.push(peer.request("tools/call", { name, arguments: args }));
      }
      // Bounded concurrency, as a real client has.
      if (pending.length % 25 === 0) await Promise.all(pending.slice(-25));
    }
    const replies = await Promise.all(pending);
    expect(replies).toHaveLength(500);
    expect(replies.every((r) => "result" in r)).toBe(true);
    const errors = replies.filter((r) => (r["result"] as { isError?: boolean }).isError);
    // The two deliberately bad calls of every ten, less those whose turn went to ping and resources/list.
    const bad = Array.from({ length: 500 }, (_, i) => i).filter((i) => i % 50 < 48 && i % CALLS.length >= 8).length;
    expect(errors).toHaveLength(bad);
    assertPureStdout();
    // The stray logging really ran during the session, and went to stderr.
    expect(proc.stderrText()).toMatch(/STRAY console\.log/);
    expect(proc.stdoutText()).not.toMatch(/STRAY/);
  });

  it("takes a burst of 400 concurrent calls from a client that reads slowly without a listener-leak warning", async () => {
    proc.child.stdout.pause();
    const burst = Array.from({ length: 400 }, () => peer.request("tools/call", { name: "list_assets", arguments: {} }, 30_000));
    await new Promise((r) => setTimeout(r, 300));
    proc.child.stdout.resume();
    const replies = await Promise.all(burst);
    expect(replies.every((r) => "result" in r)).toBe(true);
    assertPureStdout();
    expect(proc.stderrText()).not.toMatch(/MaxListenersExceeded|memory leak/);
  });

  it("survives 1,000 malformed lines (bad JSON, NUL bytes, non-JSON-RPC JSON, a 9 MB line) and still answers", async () => {
    const garbage = [
      "{",
      "}",
      "not json",
      "\u0000",
      '\u0000\u0000{"jsonrpc":"2.0"}',
      "[]",
      "42",
      '"str"',
      "null",
      '{"foo":1}',
      '{"jsonrpc":"1.0","id":"g","method":"ping"}',
      '{"jsonrpc":"2.0","id":{},"method":"ping"}',
      '{"jsonrpc":"2.0","method":7}',
      "\ud800",
      "\u001b[31mred",
      '{"jsonrpc":"2.0","id":"g2","method":"tools/call","params":{"name":"get_series","arguments":[1]}}',
      '{"a":' + "[".repeat(5_000),
    ];
    for (let i = 0; i < 999; i++) {
      if (!peer.write(garbage[i % garbage.length]! + "\n")) await new Promise((r) => proc.child.stdin.once("drain", r));
    }
    if (!peer.write(Buffer.concat([Buffer.from("x".repeat(9 * 1024 * 1024)), Buffer.from("\n")]))) {
      await new Promise((r) => proc.child.stdin.once("drain", r));
    }
    const pong = await peer.request("ping", undefined, 30_000);
    expect(pong["result"]).toEqual({});
    const call = await peer.request("tools/call", { name: "get_series", arguments: { metric: "lifespan/Lth_mvrv", asset: "btc" } });
    expect((call["result"] as { isError?: boolean }).isError).toBeFalsy();
    assertPureStdout();
    // An invalid-params request is a caller error, never -32603.
    expect(proc.stdoutText()).not.toContain("-32603");
  });

  it("answers a line over the 10 MB limit with an error under its id, and goes on", async () => {
    // The id comes after the oversized part: it is read as the line streams by.
    peer.write('{"jsonrpc":"2.0","method":"tools/call","params":{"pad":"');
    peer.write(Buffer.alloc(11 * 1024 * 1024, "a"));
    peer.write('"},"id":"oversized"}\n');
    const pong = await peer.request("ping", undefined, 30_000);
    expect(pong["result"]).toEqual({});
    const refused = peer.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((m) => m["id"] === "oversized");
    expect(refused?.["error"]).toMatchObject({ code: -32600, message: expect.stringMatching(/maximum size of 10485760 bytes/) });
    expect(proc.child.exitCode).toBeNull();
    assertPureStdout();
  });
});
