// Zero secret egress: with canary caller and upstream keys, tool calls, fuzzed calls and forced
// upstream errors (an upstream that echoes the key in bodies, headers and URLs) leave the canary in
// no channel: stdout and stderr of spawned servers, tool results, error texts, MCP notifications,
// HTTP bodies and headers, and files in the state dir.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { mcpRig, textOf } from "../../harness/mcp.js";
import { BIG_RATE, tempDir, writeKeys } from "../../harness/service.js";
import { spawnCli, StdioPeer } from "../../harness/spawn.js";
import { rawUpstream, type Upstream } from "../../harness/upstream.js";
import { HttpBackend } from "../../src/backend/http/index.js";
import { sha256 } from "../../src/backend/inprocess/keys.js";

const CALLER = "ck_CANARY_caller_7f3a9e1b2c4d5e6f";
const UPSTREAM = "ck_CANARY_upstream_5b8e2d4f6a1c0d9e";
const UNKNOWN = "ck_CANARY_unknown_0a1b2c3d4e5f6a7b";
const CANARIES = [CALLER, UPSTREAM, UNKNOWN];

/** Fails naming the channel when any canary, or its distinctive tail, shows up in `text`. */
function assertClean(channel: string, text: string): void {
  for (const canary of CANARIES) {
    const tail = canary.slice(-16);
    expect(
      text.includes(canary) || text.includes(tail) || text.includes(encodeURIComponent(canary)),
      `${channel} carries ${canary.slice(0, 12)}…`,
    ).toBe(false);
  }
  expect(text, channel).not.toMatch(/CANARY/i);
}

function filesUnder(dir: string): string {
  let out = "";
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    out += `\n${name}\n` + (statSync(path).isDirectory() ? filesUnder(path) : readFileSync(path, "utf8"));
  }
  return out;
}

// Each asset asks the upstream for a different failure, every one quoting the key it received.
type Answer = { status: number; type: string; body: string; headers?: Record<string, string> };
const ECHO: Record<string, (key: string) => Answer> = {
  btc: (k) => ({
    status: 401,
    type: "application/json",
    body: JSON.stringify({ error: `invalid api key ${k}`, docs: `https://up.example/keys?api_key=${encodeURIComponent(k)}` }),
  }),
  eth: (k) => ({
    status: 400,
    type: "application/json",
    body: JSON.stringify({ message: `startDate is malformed (X-Api-Key: ${k})`, parameter: `startDate ${k}` }),
  }),
  ltc: (k) => ({ status: 403, type: "text/html", body: `<html><body>forbidden for ${k}</body></html>` }),
  doge: (k) => ({
    status: 404,
    type: "application/json",
    body: JSON.stringify({ error: { message: `no such asset for ${k}`, allowed: [k, "btc"] } }),
  }),
  bch: (k) => ({ status: 500, type: "application/json", body: JSON.stringify({ status: { error_message: `crash ${k}` } }) }),
  dash: (k) => ({
    status: 429,
    type: "application/json",
    body: JSON.stringify({ msg: `Rate limit exceeded for ${k}` }),
    headers: { "retry-after": "600" },
  }),
  zec: (k) => ({ status: 200, type: "application/json", body: `{"oops": "${k}"` }),
  xrp: (k) => ({ status: 200, type: "application/json", body: JSON.stringify([{ time: k, adrBalUSD1MCnt: 1 }]) }),
  ada: (k) => ({
    status: 302,
    type: "text/plain",
    body: `see http://evil.example/?k=${k}`,
    headers: { location: `http://evil.example/?k=${k}` },
  }),
  link: () => ({ status: 200, type: "application/json", body: JSON.stringify([{ time: "2025-06-01T00:00:00.000Z", adrBalUSD1MCnt: 12 }]) }),
};
const ASSETS = Object.keys(ECHO);

let upstream: Upstream;

beforeAll(async () => {
  upstream = await rawUpstream((req, res, seen) => {
    const asset = new URL(req.url ?? "/", "http://x").pathname.split("/")[1] ?? "";
    const answer = (ECHO[asset] ?? ECHO.btc!)(seen.key ?? "");
    res.writeHead(answer.status, { "content-type": answer.type, "x-echo-key": seen.key ?? "", ...answer.headers });
    res.end(answer.body);
  });
});
afterAll(() => upstream.close());

const METRIC = "addresses/AdrBalUSD1MCnt"; // set M2: covers every asset above
const ECHO_CALLS: [string, Record<string, unknown>][] = ASSETS.map((asset) => [
  "get_series",
  { metric: METRIC, asset, startDate: "2025-06-01", endDate: "2025-06-02" },
]);

describe("in-process MCP server over an echoing upstream", () => {
  it("keeps both canaries out of results, error texts and every message the server sends", async () => {
    const backend = new HttpBackend({ baseUrl: upstream.url, apiKey: UPSTREAM, retry: { attempts: 2, baseMs: 1, capMs: 2 } });
    for (const bearer of [undefined, CALLER]) {
      const rig = await mcpRig(backend, { configuredKey: UPSTREAM, record: true, ...(bearer && { bearer }) });
      try {
        for (const [name, args] of ECHO_CALLS) {
          const result = await rig.call(name, args);
          assertClean(`${name} ${JSON.stringify(args)} text`, textOf(result));
          assertClean(`${name} structured`, JSON.stringify(result.structuredContent ?? {}));
        }
        // The other tools, through the same upstream.
        for (const [name, args] of [
          ["get_metrics_variation", { asset: "btc" }],
          ["get_liquidation_heatmap", { asset: "eth" }],
          ["get_ohlcv", { metric: "spot/Trades", asset: "ltc" }],
        ] as const) {
          assertClean(name, JSON.stringify(await rig.call(name, args)));
        }
        assertClean(
          "resource read error",
          JSON.stringify(
            await rig.client.readResource({ uri: "crypto-metrics://series/btc/addresses/AdrBalUSD1MCnt" }).catch((e: unknown) => String(e)),
          ),
        );
        assertClean("server → client wire", rig.wire.join("\n"));
        expect(rig.wire.length).toBeGreaterThan(ECHO_CALLS.length);
      } finally {
        await rig.close();
      }
    }
    await backend.close();
    // The keys went where they belong (the X-Api-Key header), never into a URL.
    expect(upstream.seen.some((s) => s.key === UPSTREAM)).toBe(true);
    expect(upstream.seen.some((s) => s.key === CALLER)).toBe(true);
    assertClean("upstream request URLs", upstream.seen.map((s) => s.url).join("\n"));
  });
});

describe("spawned servers", () => {
  it("stdio over the echoing upstream: tool calls, 300 fuzzed calls and forced errors leave stdout, stderr and the state dir clean", async () => {
    const stateDir = tempDir("cm-rel-secret-state-");
    const proc = spawnCli(["stdio"], {
      CRYPTO_METRICS_BASE_URL: upstream.url,
      CRYPTO_METRICS_API_KEY: UPSTREAM,
      CRYPTO_METRICS_STATE_DIR: stateDir,
      CRYPTO_METRICS_LOG_LEVEL: "debug",
    });
    const peer = new StdioPeer(proc);
    try {
      await peer.initialize();
      for (const [name, args] of ECHO_CALLS) await peer.request("tools/call", { name, arguments: args }, 30_000);
      const fuzz = fc.sample(
        fc.record({
          name: fc.constantFrom("list_assets", "get_series", "get_ohlcv", "get_metrics_variation", "get_liquidation_heatmap"),
          arguments: fc.dictionary(
            fc.constantFrom("metric", "asset", "startDate", "exchange", "entity_name", "symbol", "top_k", "x"),
            fc.oneof(fc.string(), fc.integer(), fc.constantFrom(...ASSETS, METRIC)),
          ),
        }),
        { numRuns: 300, seed: 7 },
      );
      await Promise.all(fuzz.map((p) => peer.request("tools/call", p, 30_000)));
      await peer.request("resources/read", { uri: "crypto-metrics://series/btc/addresses/AdrBalUSD1MCnt" });
    } finally {
      proc.child.stdin.end();
      await proc.exited;
    }
    expect(proc.stdoutText().split("\n").length).toBeGreaterThan(300);
    assertClean("stdio stdout", proc.stdoutText());
    assertClean("stdio stderr", proc.stderrText());
    assertClean("stdio state dir", filesUnder(stateDir));
  });

  it("api and http with canary keys: HTTP bodies, headers, stderr and state files carry only digests", async () => {
    const { dir, keysFile } = writeKeys(
      {
        keys: [
          { key: CALLER, credits: 1_000, rateLimit: BIG_RATE },
          { key: "other", credits: 5 },
        ],
      },
      tempDir("cm-rel-secret-"),
    );
    const replies: string[] = [];
    const send = (base: string, path: string, method: string, headers: Record<string, string>, body?: string) =>
      new Promise<void>((resolve, reject) => {
        const req = httpRequest(new URL(path, base), { method, headers }, (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (d: string) => (text += d));
          res.on("end", () => {
            replies.push(`${res.statusCode} ${JSON.stringify(res.headers)} ${text}`);
            resolve();
          });
        });
        req.on("error", reject);
        req.end(body);
      });
    for (const command of ["api", "http"] as const) {
      const stateDir = join(dir, `state-${command}`);
      const proc = spawnCli(
        [
          command,
          "--port",
          "0",
          "--keys-file",
          keysFile,
          "--state-dir",
          stateDir,
          "--log-level",
          "debug",
          ...(command === "http" ? ["--require-key"] : []),
        ],
        {
          CRYPTO_METRICS_NOW: "2025-12-31T12:00:00Z",
        },
      );
      try {
        const base = `http://${(await proc.waitForStderr(/listening on http:\/\/(\S+)/))[1]}`;
        if (command === "api") {
          const path = "/btc/lifespan/Lth_mvrv?startDate=2025-06-01&endDate=2025-06-02";
          const variants: Record<string, string>[] = [
            { "x-api-key": CALLER },
            { authorization: `Bearer ${CALLER}` },
            { "x-api-key": UNKNOWN },
            { authorization: `Bearer ${UNKNOWN}` },
            { "x-api-key": CALLER, authorization: `Bearer ${UNKNOWN}` },
            { "x-api-key": "other" },
          ];
          for (const headers of variants) {
            await send(base, path, "GET", headers);
            await send(base, "/liquidation_levels/heatmap?asset=btc&timeframe=1h&lookback=24h", "GET", headers);
            await send(base, path, "POST", headers);
          }
          for (let i = 0; i < 8; i++) await send(base, path, "GET", { "x-api-key": "other" }); // through 402
        } else {
          const body = (name: string, args: object) =>
            JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
          const headers = (key: string) => ({
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          });
          for (const key of [CALLER, UNKNOWN]) {
            await send(
              base,
              "/mcp",
              "POST",
              headers(key),
              body("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-06-01", endDate: "2025-06-02" }),
            );
            await send(
              base,
              "/mcp",
              "POST",
              headers(key),
              body("get_liquidation_heatmap", { asset: "btc", timeframe: "1h", lookback: "24h" }),
            );
            await send(base, "/mcp", "POST", headers(key), body("get_series", { metric: "lifespan/Lth_mvrv", asset: "eth" }));
          }
          await send(
            base,
            "/mcp",
            "POST",
            { authorization: `Basic ${Buffer.from(`${CALLER}:x`).toString("base64")}`, "content-type": "application/json" },
            body("list_assets", {}),
          );
        }
      } finally {
        proc.child.kill("SIGTERM");
        await proc.exited;
      }
      assertClean(`${command} stderr`, proc.stderrText());
      assertClean(`${command} stdout`, proc.stdoutText());
      const state = filesUnder(stateDir);
      assertClean(`${command} state dir`, state);
      // What is recorded is the digest of the key that was charged.
      expect(state).toContain(sha256(CALLER).toString("hex"));
    }
    expect(replies.length).toBeGreaterThan(20);
    assertClean("HTTP replies", replies.join("\n"));
    // The replies did include successes and refusals (not all one kind).
    expect(replies.some((r) => r.startsWith("200"))).toBe(true);
    expect(replies.some((r) => r.startsWith("401"))).toBe(true);
  });
});
