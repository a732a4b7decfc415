// No answer reveals the server: with the store file removed under a running `http` (and under a
// `stdio` session whose client asked for log messages), every text a client receives (tool errors,
// resource errors, log notifications, raw HTTP bodies) names no path, user or host, while the
// operator's log keeps the detail under the reference the client was given.
import { rmSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";

import { BIG_RATE, tempDir, writeKeys } from "../../harness/service.js";
import { spawnCli, type Spawned, StdioPeer } from "../../harness/spawn.js";

const running: Spawned[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
});

/** Fails with the text when it shows anything of the machine. */
function expectNothingOfTheServer(text: string, dir: string): void {
  expect(text).not.toContain(dir);
  expect(text).not.toMatch(/\/tmp\/|metering\.sqlite|\/home\/|\/root\//);
  expect(text).not.toMatch(/\n\s+at /); // a stack
  for (const name of [userInfo().username, hostname()]) if (name.length >= 3) expect(text).not.toMatch(new RegExp(`\\b${name}\\b`));
}

function removeStore(stateDir: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(join(stateDir, "metering.sqlite") + suffix, { force: true });
}

describe("a store removed under a running server", () => {
  it("http: tool and resource errors name no path; the log has it under the same reference", async () => {
    const { dir, keysFile } = writeKeys({ keys: [{ key: "k", credits: 1_000, rateLimit: BIG_RATE }] }, tempDir("cm-rel-reveal-"));
    const stateDir = join(dir, "state");
    const proc = spawnCli(["http", "--port", "0", "--keys-file", keysFile, "--state-dir", stateDir], {
      CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
      CRYPTO_METRICS_API_KEY: "k",
    });
    running.push(proc);
    const base = `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/))[1]}`;
    const client = new Client({ name: "reveal", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const args = { metric: "lifespan/Lth_mvrv", asset: "btc" };
    expect(((await client.callTool({ name: "get_series", arguments: args })) as CallToolResult).isError).toBeFalsy();
    removeStore(stateDir);

    const seen: string[] = [];
    const failed = (await client.callTool({ name: "get_series", arguments: { ...args, startDate: "2024-01-01" } })) as CallToolResult;
    expect(failed.isError).toBe(true);
    seen.push(JSON.stringify(failed));
    await client.readResource({ uri: "crypto-metrics://data/btc/market/metcalfe_ratio" }).then(
      (r) => seen.push(JSON.stringify(r)),
      (err: Error) => seen.push(err.message),
    );
    const raw = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "get_metrics_variation", arguments: { asset: "eth" } },
      }),
    });
    seen.push(await raw.text());
    await client.close();

    const text = seen.join("\n");
    expect(text).toContain("store_unavailable");
    expectNothingOfTheServer(text, dir);
    const ref = /Reference ([0-9a-f]{8}) in the server log/.exec(text)![1]!;
    expect(proc.stderrText()).toMatch(new RegExp(`ref=${ref} .*${join(stateDir, "metering.sqlite")} was deleted`));
  });

  it("stdio: the error and the log messages a client asked for name no path", async () => {
    const stateDir = join(tempDir("cm-rel-reveal-"), "state");
    const proc = spawnCli(["stdio", "--state-dir", stateDir], {
      CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
      CRYPTO_METRICS_LOG_LEVEL: "debug",
    });
    running.push(proc);
    const peer = new StdioPeer(proc);
    await peer.initialize();
    await peer.request("logging/setLevel", { level: "debug" });
    const call = (startDate: string) =>
      peer.request("tools/call", { name: "get_series", arguments: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate } });
    expect(((await call("2024-01-01"))["result"] as CallToolResult).isError).toBeFalsy();
    removeStore(stateDir);
    expect(((await call("2024-02-01"))["result"] as CallToolResult).isError).toBe(true);
    await peer.request("ping");
    const stdout = proc.stdoutText();
    expect(stdout).toContain('"method":"notifications/message"');
    expect(stdout).toContain("store_unavailable");
    expectNothingOfTheServer(stdout, stateDir);
    // The operator's own log (stderr) keeps where the store was.
    expect(proc.stderrText()).toContain(join(stateDir, "metering.sqlite"));
  });
});
