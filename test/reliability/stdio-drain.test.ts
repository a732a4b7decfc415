// A stdio session that ends owes what it was sent: a pipe of requests closed at once, or a SIGTERM
// while calls run, gets every answer before the process exits 0; a 12 MiB line gets an error and the
// request after it is answered. Against a spawned server, through its real stdin and stdout.
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { tempDir } from "../../harness/service.js";
import { spawnCli, type Spawned } from "../../harness/spawn.js";

const running: Spawned[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
});

function start(): Spawned {
  const proc = spawnCli(["stdio"], {
    CRYPTO_METRICS_STATE_DIR: join(tempDir("cm-rel-drain-"), "state"),
    CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
  });
  running.push(proc);
  return proc;
}

const line = (m: object) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`;
const initialize = line({
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "pipe", version: "1" } },
});
const CALLS = [
  { name: "get_metrics_variation", arguments: { asset: "btc" } },
  { name: "get_series", arguments: { metric: "lifespan/Lth_mvrv", asset: "btc" } },
  { name: "get_liquidation_heatmap", arguments: { asset: "eth" } },
  { name: "list_assets", arguments: { search: "usd" } },
];
const replies = (proc: Spawned) =>
  proc
    .stdoutText()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: unknown; result?: { isError?: boolean }; error?: { code: number; message: string } });

describe("a stdio session that ends", () => {
  it("answers initialize, four tool calls and tools/list piped in with stdin closed at once, then exits 0", async () => {
    const proc = start();
    proc.child.stdin.end(
      initialize +
        line({ method: "notifications/initialized" }) +
        CALLS.map((params, i) => line({ id: i + 1, method: "tools/call", params })).join("") +
        line({ id: 9, method: "tools/list" }),
    );
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    const got = replies(proc);
    expect(got.map((r) => r.id).sort()).toEqual([0, 1, 2, 3, 4, 9]);
    expect(got.every((r) => r.result && !r.result.isError)).toBe(true);
  });

  it("answers the last line though it has no line break", async () => {
    const proc = start();
    proc.child.stdin.end(initialize + line({ method: "notifications/initialized" }) + line({ id: 5, method: "ping" }).trimEnd());
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect(replies(proc).map((r) => r.id)).toEqual([0, 5]);
  });

  it("answers the calls in progress on SIGTERM, then exits 0", async () => {
    const proc = start();
    proc.child.stdin.write(initialize + line({ method: "notifications/initialized" }));
    await proc.waitForStderr(/ready on stdio/);
    proc.child.stdin.write(CALLS.map((params, i) => line({ id: i + 1, method: "tools/call", params })).join(""));
    // Sent once the server has read the calls: the heatmap's answer is then still being built.
    await new Promise<void>((resolve) => proc.child.stdin.write("", () => resolve()));
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect(
      replies(proc)
        .map((r) => r.id)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
  });

  it("answers a 12 MiB line with an error (id null when it has none) and the request after it", async () => {
    const proc = start();
    proc.child.stdin.write(initialize);
    proc.child.stdin.write(Buffer.alloc(12 * 1024 * 1024, "x"));
    proc.child.stdin.end("\n" + line({ id: 2, method: "ping" }));
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    const got = replies(proc);
    expect(got.find((r) => r.id === null)?.error).toMatchObject({ code: -32600 });
    expect(got.find((r) => r.id === 2)).toMatchObject({ result: {} });
  });
});
