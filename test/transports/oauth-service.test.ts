// `http --auth oauth` in front of the real service (here our REST face over loopback, reached by the
// HTTP backend): every user's reads go out under the operator's key only, and each user's own quota
// from the keys file holds — exactly N successes of 3×N concurrent calls with N credits — so one
// user cannot spend everyone's upstream credits. A read the upstream refuses is refunded.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NOW } from "../../harness/mcp.js";
import { rpcAnswer } from "../../harness/rpc-answer.js";
import { startTokenIssuer, type TokenIssuer } from "../../harness/token-issuer.js";
import { HttpBackend } from "../../src/backend/http/index.js";
import { createInProcessService } from "../../src/backend/inprocess/backend.js";
import type { InProcessService } from "../../src/backend/inprocess/service.js";
import { type RestServer, startRestServer } from "../../src/backend/rest.js";
import { type RunningHttpServer, startHttpServer } from "../../src/transports/http.js";
import { oauthForService } from "../../src/transports/oauth/setup.js";

const PUBLIC_URL = "https://mcp.example.test/mcp";
const N = 6;
const OPERATOR_CREDITS = 100_000;

let issuer: TokenIssuer;
let service: InProcessService;
let rest: RestServer;
let server: RunningHttpServer;
let close: () => Promise<void>;

beforeAll(async () => {
  issuer = await startTokenIssuer();
  const dir = mkdtempSync(join(tmpdir(), "cm-oauth-service-"));
  const upstreamKeys = join(dir, "upstream-keys.json");
  writeFileSync(
    upstreamKeys,
    JSON.stringify({
      keys: [
        {
          key: "operator-key",
          credits: OPERATOR_CREDITS,
          rateLimit: { requests: 10_000, windowSeconds: 60 },
          metrics: ["mining/DiffLast", "lifespan/Lth_mvrv"],
        },
      ],
    }),
  );
  service = await createInProcessService({ apiKey: undefined, keysFile: upstreamKeys, stateDir: join(dir, "upstream"), now: () => NOW });
  rest = await startRestServer(service, { host: "127.0.0.1", port: 0 });
  const keysFile = join(dir, "keys.json");
  writeFileSync(
    keysFile,
    JSON.stringify({
      plans: { team: { credits: N, rateLimit: { requests: 1000, windowSeconds: 60 } } },
      oauth: { defaultPlan: "team", subjects: [{ sub: "onchain", credits: 50, metrics: ["lifespan/Lth_mvrv", "market/metcalfe_ratio"] }] },
    }),
  );
  const upstream = new HttpBackend({ baseUrl: rest.url, apiKey: "operator-key", now: () => NOW });
  const { oauth, backend } = await oauthForService(
    { issuer: issuer.issuer, publicUrl: PUBLIC_URL, keysFile, store: undefined as never, stateDir: join(dir, "state") },
    upstream,
  );
  server = await startHttpServer({ backend, host: "127.0.0.1", port: 0, requireKey: false, oauth });
  close = () => backend.close();
});
afterAll(async () => {
  await server?.close();
  await close?.();
  await rest?.close();
  await service?.close();
  await issuer?.close();
});

/**
 * A distinct read each time (the upstream client answers a repeat from its cache, which costs the
 * operator nothing and so is not charged to the user either).
 */
const series = (day: number, month = 11) => ({
  jsonrpc: "2.0",
  id: day,
  method: "tools/call",
  params: {
    name: "get_series",
    arguments: { metric: "mining/DiffLast", asset: "btc", startDate: `2025-${month}-${String(day).padStart(2, "0")}` },
  },
});

async function call(token: string, body: unknown): Promise<{ isError?: boolean; text: string; remaining?: number }> {
  const res = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  const { result } = rpcAnswer<{
    result: { isError?: boolean; content: { text: string }[]; structuredContent?: { credits?: { remaining: number } } };
  }>(text);
  return { isError: result.isError, text: result.content[0]!.text, remaining: result.structuredContent?.credits?.remaining };
}

describe("--auth oauth with the real service", () => {
  it("charges each user's own account before reading under the operator's key: exactly N successes each", async () => {
    const tokens = await Promise.all(["ana", "ben"].map((u) => issuer.token(u, PUBLIC_URL)));
    const outcomes = await Promise.all(
      tokens.map((t, user) => Promise.all(Array.from({ length: 3 * N }, (_, i) => call(t, series(i + 1, 10 + user))))),
    );
    for (const results of outcomes) {
      expect(results.filter((r) => !r.isError)).toHaveLength(N);
      const refused = results.filter((r) => r.isError);
      expect(refused).toHaveLength(2 * N);
      for (const r of refused) expect(r.text).toMatch(/^Credits exhausted \(402\)/);
      // Each answer shows the user's balance, never the operator's.
      expect(
        results
          .filter((r) => !r.isError)
          .map((r) => r.remaining)
          .sort(),
      ).toEqual(Array.from({ length: N }, (_, i) => i));
    }
    // The upstream saw only the operator's key, charged once per success.
    expect(await service.creditsRemaining("operator-key")).toBe(OPERATOR_CREDITS - 2 * N);
  });

  it("holds a user's metric restriction without calling upstream, and refunds a read the upstream refuses", async () => {
    const token = await issuer.token("onchain", PUBLIC_URL);
    const before = await service.creditsRemaining("operator-key");
    const refused = await call(token, series(1));
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/not entitled to mining\/DiffLast/);
    const ok = await call(token, {
      ...series(1),
      params: { name: "get_series", arguments: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-12-01" } },
    });
    expect(ok.isError).toBeFalsy();
    expect(ok.remaining).toBe(49);
    // A metric the operator's upstream key may not read (the upstream answers 403): nothing stays charged to the user.
    const upstreamRefused = await call(token, {
      ...series(1),
      params: { name: "get_series", arguments: { metric: "market/metcalfe_ratio", asset: "btc", startDate: "2025-12-01" } },
    });
    expect(upstreamRefused.isError).toBe(true);
    expect(upstreamRefused.text).toMatch(/market\/metcalfe_ratio/);
    const again = await call(token, {
      ...series(1),
      params: { name: "get_series", arguments: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-12-02" } },
    });
    expect(again.remaining).toBe(48);
    expect(await service.creditsRemaining("operator-key")).toBe(before! - 2);
  });
});
