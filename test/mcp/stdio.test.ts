// One spawned stdio session: every stdout line is a JSON-RPC message, logs stay on stderr, and the
// process exits 0 when stdin ends or on SIGTERM.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { NOW_ISO, tempDir } from "../../harness/mcp.js";

const ROOT = join(import.meta.dirname, "..", "..");

function start(): { child: ChildProcessWithoutNullStreams; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/cli.ts"), "stdio"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      CRYPTO_METRICS_NOW: NOW_ISO,
      CRYPTO_METRICS_STATE_DIR: tempDir("cm-stdio-"),
      CRYPTO_METRICS_API_KEY: "stdio-secret-key",
    },
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

function send(child: ChildProcessWithoutNullStreams, message: object): void {
  child.stdin.write(`${JSON.stringify(message)}\n`);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("stdio transport", () => {
  it("writes only JSON-RPC on stdout through a whole session and exits 0 when stdin ends", async () => {
    const s = start();
    send(s.child, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    send(s.child, { jsonrpc: "2.0", method: "notifications/initialized" });
    send(s.child, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    send(s.child, {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "get_series", arguments: { metric: "lifespan/Lth_mvrv", asset: "btc" } },
    });
    send(s.child, {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "get_series", arguments: { metric: "lifespan/Cvdd", asset: "ethh" } },
    });
    send(s.child, { jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: "crypto-metrics://catalog" } });
    send(s.child, { jsonrpc: "2.0", id: 6, method: "prompts/get", params: { name: "asset_brief", arguments: { asset: "btc" } } });
    await until(() => s.stdout().split("\n").filter(Boolean).length >= 6, "six responses");
    s.child.stdin.end();
    expect(await s.exited).toBe(0);

    const lines = s.stdout().split("\n").filter(Boolean);
    const messages = lines.map(
      (line) => JSON.parse(line) as { jsonrpc: string; id?: number; result?: { isError?: boolean; content?: Array<{ text: string }> } },
    );
    for (const m of messages) expect(m.jsonrpc).toBe("2.0");
    // Requests are handled concurrently, so responses may come in any order.
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const byId = (id: number) => messages.find((m) => m.id === id)!;
    expect(byId(3).result!.content![0]!.text).toContain("btc lifespan/Lth_mvrv");
    expect(byId(4).result!.isError).toBe(true);
    expect(s.stderr()).toContain("ready on stdio");
    expect(s.stdout() + s.stderr()).not.toContain("stdio-secret-key");
  });

  it("exits 0 on SIGTERM", async () => {
    const s = start();
    send(s.child, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    await until(() => s.stdout().includes('"id":1'), "the initialize response");
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });
});
