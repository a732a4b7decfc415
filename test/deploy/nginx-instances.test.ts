// The hosted deployment, on loopback: nginx (the shipped locations file) in front of three
// `http --auth oauth` processes on one PostgreSQL store, users signed in through nginx with the
// test authorization server. Concurrent calls spread over the instances are metered exactly: each
// user with N credits gets exactly N successes, each user with a window of R requests exactly R,
// the rest a clear refusal, and no 5xx anywhere. Both MCP eras are served without affinity.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NOW_ISO } from "../../harness/mcp.js";
import { NGINX_AVAILABLE, type RunningNginx, startNginx } from "../../harness/nginx.js";
import { signIn } from "../../harness/oauth-client.js";
import { type OidcIssuer, startOidcIssuer } from "../../harness/oidc-issuer.js";
import { freePort } from "../../harness/ports.js";
import { dropSchema, PG_AVAILABLE, storeUrl, testSchema } from "../../harness/postgres.js";
import { rpcAnswer } from "../../harness/rpc-answer.js";
import { spawnCli, type Spawned } from "../../harness/spawn.js";
import { KeyStore } from "../../src/backend/inprocess/keys.js";

const INSTANCES = 3;
/** Credits of each metered user; 4×N calls each. */
const N = 10;
/** Requests of each windowed user's rate window; 4×R calls each. */
const R = 8;
const KEYS = {
  plans: {
    metered: { credits: N, rateLimit: { requests: 10_000, windowSeconds: 60 } },
    windowed: { credits: 10_000, rateLimit: { requests: R, windowSeconds: 3600 } },
  },
  oauth: {
    subjects: [
      { sub: "ana", plan: "metered" },
      { sub: "ben", plan: "metered" },
      { sub: "cy", plan: "windowed" },
      { sub: "di", plan: "windowed" },
    ],
  },
};
const SERIES = { name: "get_series", arguments: { metric: "mining/DiffLast", asset: "btc", startDate: "2025-12-01" } };

const ready = NGINX_AVAILABLE && PG_AVAILABLE;
const schema = testSchema("cmt_nginx");
let issuer: OidcIssuer;
let nginx: RunningNginx;
const instances: Spawned[] = [];
let mcpUrl: string;

beforeAll(async () => {
  if (!ready) return;
  const port = await freePort();
  mcpUrl = `http://127.0.0.1:${port}/mcp`;
  issuer = await startOidcIssuer([mcpUrl]);
  const dir = mkdtempSync(join(tmpdir(), "cm-nginx-instances-"));
  const keysFile = join(dir, "keys.json");
  writeFileSync(keysFile, JSON.stringify(KEYS));
  const args = ["http", "--port", "0", "--auth", "oauth", "--issuer", issuer.issuer, "--public-url", mcpUrl, "--keys-file", keysFile];
  for (let i = 0; i < INSTANCES; i++) {
    instances.push(
      spawnCli([...args, "--state-dir", join(dir, `state-${i}`), "--store", storeUrl(schema)], {
        CRYPTO_METRICS_NOW: NOW_ISO,
        CRYPTO_METRICS_LOG_LEVEL: "warn",
      }),
    );
  }
  const listening = await Promise.all(instances.map((p) => p.waitForStderr(/listening on http:\/\/([\d.]+:\d+)/, 60_000)));
  nginx = await startNginx(
    port,
    listening.map((m) => m[1]!),
  );
}, 120_000);

afterAll(async () => {
  await nginx?.close();
  for (const p of instances) p.child.kill("SIGTERM");
  await Promise.all(instances.map((p) => p.exited));
  await issuer?.close();
  await dropSchema(schema);
});

/** The answer to a 2025-11-25 tools/call sent statelessly (no initialize, no session) with a bearer token. */
async function legacyCall(token: string): Promise<{ status: number; result?: CallToolResult }> {
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: SERIES }),
  });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status };
  return { status: 200, result: rpcAnswer<{ result: CallToolResult }>(text).result };
}

type Outcome = "ok" | "credits" | "rate" | string;

function outcome(r: { status: number; result?: CallToolResult }): Outcome {
  if (r.status !== 200 || !r.result) return `status ${r.status}`;
  if (!r.result.isError) return "ok";
  const text = r.result.content.map((c) => (c.type === "text" ? c.text : "")).join(" ");
  if (/^Credits exhausted \(402\)/.test(text)) return "credits";
  if (/^Rate limit reached \(429 rate_limited/.test(text)) return "rate";
  return text.slice(0, 200);
}

/** 4×`per` calls for one user, all at once: half stateless 2025-11-25 POSTs, half through the SDK v2 client in the 2026-07-28 era. */
function burst(client: Client, token: string, per: number): Promise<Outcome>[] {
  return Array.from({ length: 4 * per }, (_, i) =>
    i % 2 === 0
      ? legacyCall(token).then(outcome)
      : client.callTool(SERIES).then(
          (result) => outcome({ status: 200, result: result as CallToolResult }),
          (err: Error) => `threw ${err.message.slice(0, 200)}`,
        ),
  );
}

const tally = (outcomes: Outcome[]) => outcomes.reduce<Record<string, number>>((t, o) => ({ ...t, [o]: (t[o] ?? 0) + 1 }), {});

describe.skipIf(!ready)("three instances behind nginx on one PostgreSQL store", () => {
  it("gives each user exactly N successes of 4×N concurrent calls, the rest out of credits, no 5xx", async () => {
    const users = await Promise.all(["ana", "ben"].map((u) => signIn(mcpUrl, u)));
    for (const { client } of users) {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      // As hosts do: the tool list first (it names the arguments a 2026-07-28 client mirrors into headers).
      await client.listTools();
    }
    const results = await Promise.all(users.map(({ client, provider }) => Promise.all(burst(client, provider.accessToken!, N))));
    for (const outcomes of results) expect(tally(outcomes)).toEqual({ ok: N, credits: 3 * N });
    for (const { client } of users) await client.close();
  }, 120_000);

  it("holds rate windows the same way: exactly R of 4×R concurrent calls, the rest rate-limited", async () => {
    const users = await Promise.all(["cy", "di"].map((u) => signIn(mcpUrl, u)));
    for (const { client } of users) await client.listTools();
    const results = await Promise.all(users.map(({ client, provider }) => Promise.all(burst(client, provider.accessToken!, R))));
    for (const outcomes of results) expect(tally(outcomes)).toEqual({ ok: R, rate: 3 * R });
    for (const { client } of users) await client.close();
  }, 120_000);

  it("spread the requests over every instance, and nginx answered nothing 5xx", () => {
    const log = nginx.accessLog();
    const byUpstream = tally(log.filter((l) => l.includes("/mcp")).map((l) => l.split(" ")[1]!));
    expect(Object.keys(byUpstream)).toHaveLength(INSTANCES);
    expect(log.filter((l) => /^5\d\d /.test(l))).toEqual([]);
  });
});

describe("the shipped examples", () => {
  it("has a keys file example the server reads", () => {
    const text = readFileSync(resolve(import.meta.dirname, "../../deploy/keys.example.json"), "utf8");
    const accounts = KeyStore.fromJson(text).acceptSubjects("https://auth.example.com/realms/team");
    expect(accounts.account("2f0c6b1e-5d8a-4f7e-9a41-0c1d2e3f4a5b")!.record.plan).toBe("heavy");
    expect(accounts.account("someone-else")!.record.plan).toBe("team");
  });
});
