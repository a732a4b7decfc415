// Routine events are logged as routine: a client that leaves an HTTP call is one info line without a
// stack, and a malformed stdio line is one line naming the field (not the SDK's issue list), while
// the client still gets its JSON-RPC error.
import { request } from "node:http";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { BIG_RATE, tempDir, writeKeys } from "../../harness/service.js";
import { spawnCli, type Spawned, StdioPeer } from "../../harness/spawn.js";

const running: Spawned[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
});

const lines = (proc: Spawned) => proc.stderrText().split("\n").filter(Boolean);

describe("routine events in the log", () => {
  it("an HTTP client leaving during a call: one info line, no stack, no error", async () => {
    const { dir, keysFile } = writeKeys({ keys: [{ key: "k", credits: 1_000_000, rateLimit: BIG_RATE }] }, tempDir("cm-rel-routine-"));
    const proc = spawnCli(["http", "--port", "0", "--keys-file", keysFile, "--state-dir", join(dir, "state"), "--log-level", "debug"], {
      CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
    });
    running.push(proc);
    const url = `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/))[1]}/mcp`;
    // A month of minutes takes long enough to build that the client can leave during the call; it
    // leaves a little later on each try until the server had started on one.
    const call = (i: number, leaveAfterMs: number) => {
      const req = request(url, {
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: "Bearer k",
          "mcp-protocol-version": "2025-11-25",
        },
      });
      req.on("error", () => undefined);
      // A month of minutes (~44,000 records, under the 100,000 cap); another month on each try.
      const [startDate, endDate] = [`2024-0${1 + i}-01`, `2024-0${2 + i}-01`];
      req.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: i,
          method: "tools/call",
          params: {
            name: "get_ohlcv",
            arguments: { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", startDate, endDate },
          },
        }),
      );
      setTimeout(() => req.destroy(), leaveAfterMs);
    };
    for (let i = 0; i < 6 && !/abandoned/.test(proc.stderrText()); i++) {
      call(i, 20 * 2 ** i);
      await proc.waitForStderr(/get_ohlcv abandoned/, 3_000).catch(() => undefined);
    }
    const abandoned = lines(proc).filter((l) => l.includes("abandoned"));
    expect(abandoned.length).toBeGreaterThanOrEqual(1);
    expect(new Set(abandoned)).toEqual(new Set(["crypto-metrics-mcp info: get_ohlcv abandoned: the client left or cancelled the call"]));
    expect(proc.stderrText()).not.toMatch(/ error: |SdkError|\bat .*\.ts:\d+/);
  });

  it("a malformed stdio line: one warn line naming the field, and the client's error", async () => {
    const proc = spawnCli(["stdio"], { CRYPTO_METRICS_STATE_DIR: join(tempDir("cm-rel-routine-"), "state") });
    running.push(proc);
    const peer = new StdioPeer(proc);
    await peer.initialize();
    await peer.request("ping");
    peer.write('{"jsonrpc":"2.0","id":"bad","method":7}\n');
    expect((await peer.request("ping"))["result"]).toEqual({});
    const answer = peer.lines.map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number } }).find((m) => m.id === "bad");
    expect(answer?.error?.code).toBe(-32600);
    const warned = lines(proc).filter((l) => l.includes("not a valid JSON-RPC message"));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/field \\"method\\": .*expected string/);
    expect(proc.stderrText()).not.toMatch(/invalid_union|"code":/);
  });
});
