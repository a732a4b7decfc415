// MCP over HTTP with OAuth token verification against the same server with API keys, same run, same
// load generator: `http --auth oauth` (JWTs of a token issuer on loopback, verified against its
// JWKS) and `http` with the bench key, both answering the same tools/call in the 2025 era.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { startTokenIssuer } from "../harness/token-issuer.js";
import { compare, type LoadFigure, type Target } from "./load.js";
import { CLI, KEY, type Sandbox, spawnListening, stop } from "./proc.js";

const ROUNDS = 6;
const SETTLE_MS = 1_500;
const PUBLIC_URL = "https://mcp.bench.test/mcp";
/** Tokens signed up front for the row where every request brings one never seen before (wrapped around if a run outlasts them). */
const FRESH_TOKENS = 20_000;

function target(name: string, url: string, bearer: (i: number) => string): Target {
  return {
    name,
    url,
    request: (i) => ({
      method: "POST",
      path: "/mcp",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        authorization: `Bearer ${bearer(i)}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: i + 1,
        method: "tools/call",
        params: { name: "list_assets", arguments: { asset: "btc" } },
      }),
    }),
    check(status, body) {
      const text = body.toString("utf8");
      if (status !== 200 || !text.includes('"result"') || text.includes('"isError":true'))
        throw new Error(`${name}: status ${status}: ${text.slice(0, 300)}`);
    },
  };
}

export interface OAuthRun {
  concurrency: number;
  /** keys: API key; token: one token reused (as clients do for its lifetime); fresh: a new token every request. */
  figures: LoadFigure[];
}

export async function measureOAuth(sandbox: Sandbox, concurrency: number, durationMs: number): Promise<OAuthRun> {
  const issuer = await startTokenIssuer();
  const keysFile = join(sandbox.dir, "oauth-keys.json");
  writeFileSync(
    keysFile,
    JSON.stringify({
      plans: { bench: { credits: 1_000_000_000, rateLimit: { requests: 100_000, windowSeconds: 1 } } },
      oauth: { defaultPlan: "bench" },
    }),
  );
  const oauthEnv = { ...sandbox.env, CRYPTO_METRICS_KEYS_FILE: keysFile, CRYPTO_METRICS_STATE_DIR: join(sandbox.dir, "state-oauth") };
  const keyed = await spawnListening([CLI, "http", "--port", "0"], {
    ...sandbox.env,
    CRYPTO_METRICS_STATE_DIR: join(sandbox.dir, "state-keys"),
  });
  let oauth: Awaited<ReturnType<typeof spawnListening>> | undefined;
  try {
    oauth = await spawnListening(
      [CLI, "http", "--port", "0", "--auth", "oauth", "--issuer", issuer.issuer, "--public-url", PUBLIC_URL],
      oauthEnv,
    );
    const token = await issuer.token("bench-user", PUBLIC_URL);
    const fresh: string[] = [];
    for (let i = 0; i < FRESH_TOKENS; i++) fresh.push(await issuer.token(`user-${i % 64}`, PUBLIC_URL, { jti: `t${i}` }));
    const targets = [
      target("keys", keyed.url, () => KEY),
      target("token", oauth.url, () => token),
      target("fresh", oauth.url, (i) => fresh[i % FRESH_TOKENS]!),
    ];
    await compare(targets, concurrency, SETTLE_MS, 1); // not counted: JIT, heap, sockets, the JWKS fetch
    return { concurrency, figures: await compare(targets, concurrency, durationMs, ROUNDS) };
  } finally {
    await stop(keyed.child);
    if (oauth) await stop(oauth.child);
    await issuer.close();
  }
}
