// The whole authorization-code flow against a real authorization server (oidc-provider on loopback):
// the SDK v2 client discovers our RFC 9728 metadata from the 401, registers itself, signs in with
// PKCE and the resource parameter, and then calls every tool with the JWT access token it got;
// each user is metered on their own account. Opaque tokens go through introspection.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NOW } from "../../harness/mcp.js";
import { signIn } from "../../harness/oauth-client.js";
import { type OidcIssuer, startOidcIssuer } from "../../harness/oidc-issuer.js";
import { freePort } from "../../harness/ports.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { type RunningHttpServer, startHttpServer } from "../../src/transports/http.js";
import { oauthResourceServer } from "../../src/transports/oauth/setup.js";

const ONE_CALL_PER_TOOL: [string, Record<string, unknown>][] = [
  ["list_assets", { metric: "lifespan/Lth_mvrv" }],
  ["get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-11-01" }],
  ["get_ohlcv", { metric: "price", asset: "eth", timeframe: "1d", startDate: "2025-12-01" }],
  ["get_metrics_variation", { asset: "btc" }],
  ["get_liquidation_heatmap", { asset: "btc", timeframe: "1h" }],
  ["compare", { metric: "price", assets: ["btc", "eth"], startDate: "2025-12-01" }],
  ["rank_assets", { metric: "price", by: "change", window: "7d", order: "desc", limit: 3, assets: ["btc", "eth", "sol"] }],
];

let issuer: OidcIssuer;
let backend: InProcessBackend;
let opaqueBackend: InProcessBackend;
let server: RunningHttpServer;
let opaqueServer: RunningHttpServer;
let mcpUrl: string;
/** A second resource server, for which the issuer hands out opaque tokens (verified by introspection). */
let opaqueUrl: string;

beforeAll(async () => {
  // The public URL (the tokens' audience) must be known before the server starts.
  const port = await freePort();
  mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const opaquePort = await freePort();
  opaqueUrl = `http://127.0.0.1:${opaquePort}/mcp`;
  issuer = await startOidcIssuer([mcpUrl], [opaqueUrl]);
  const dir = mkdtempSync(join(tmpdir(), "cm-oauth-flow-"));
  const keysFile = join(dir, "keys.json");
  writeFileSync(
    keysFile,
    JSON.stringify({
      plans: { team: { credits: 500, rateLimit: { requests: 1000, windowSeconds: 60 } } },
      oauth: { defaultPlan: "team", subjects: [{ sub: "ana", credits: 40 }] },
    }),
  );
  backend = await InProcessBackend.create({ apiKey: undefined, keysFile, stateDir: join(dir, "state"), now: () => NOW });
  const oauth = oauthResourceServer(
    { issuer: issuer.issuer, publicUrl: mcpUrl, keysFile, introspectionClient: issuer.introspector },
    backend,
  );
  server = await startHttpServer({ backend, host: "127.0.0.1", port, requireKey: false, oauth });
  opaqueBackend = await InProcessBackend.create({ apiKey: undefined, keysFile, stateDir: join(dir, "state-opaque"), now: () => NOW });
  const introspecting = oauthResourceServer(
    { issuer: issuer.issuer, publicUrl: opaqueUrl, keysFile, introspectionClient: issuer.introspector },
    opaqueBackend,
  );
  opaqueServer = await startHttpServer({
    backend: opaqueBackend,
    host: "127.0.0.1",
    port: opaquePort,
    requireKey: false,
    oauth: introspecting,
  });
});
afterAll(async () => {
  await opaqueServer?.close();
  await opaqueBackend?.close();
  await server?.close();
  await backend?.close();
  await issuer?.close();
});

const creditsLeft = (r: CallToolResult) => (r.structuredContent as { credits?: { remaining: number } } | undefined)?.credits?.remaining;

describe("the authorization-code flow with the SDK v2 client", () => {
  it("signs in, then calls every tool; each user sees their own credits", async () => {
    const { client: ana, provider } = await signIn(mcpUrl, "ana");
    const token = provider.accessToken!;
    const [, payload] = token.split(".");
    expect(JSON.parse(Buffer.from(payload!, "base64url").toString())).toMatchObject({
      sub: "ana",
      aud: mcpUrl,
      iss: issuer.issuer,
      scope: "metrics:read",
    });
    // The first sign-in speaks the 2026-07-28 era (stateless, server/discover), the second 2025-11-25.
    expect(ana.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const tools = (await ana.listTools()).tools.map((t) => t.name);
    expect(tools.sort()).toEqual(ONE_CALL_PER_TOOL.map(([name]) => name).sort());
    let left = 40;
    for (const [name, args] of ONE_CALL_PER_TOOL) {
      const r = (await ana.callTool({ name, arguments: args })) as CallToolResult;
      expect(r.isError, `${name}: ${JSON.stringify(r.content).slice(0, 300)}`).toBeFalsy();
      const after = creditsLeft(r);
      if (after !== undefined) {
        expect(after, name).toBeLessThan(left);
        left = after;
      }
    }
    expect(left).toBeLessThan(40);
    const { client: ben } = await signIn(mcpUrl, "ben", "legacy");
    expect(ben.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const r = (await ben.callTool({
      name: "get_series",
      arguments: { metric: "mining/DiffLast", asset: "btc", startDate: "2025-12-01" },
    })) as CallToolResult;
    expect(creditsLeft(r)).toBe(499);
    await ana.close();
    await ben.close();
  });

  it("verifies the issuer's opaque access tokens through its introspection endpoint", async () => {
    const { client, provider } = await signIn(opaqueUrl, "ana");
    expect(provider.accessToken!.split(".")).toHaveLength(1);
    const r = (await client.callTool({
      name: "get_series",
      arguments: { metric: "mining/DiffLast", asset: "btc", startDate: "2025-12-01" },
    })) as CallToolResult;
    expect(r.isError, JSON.stringify(r.content).slice(0, 300)).toBeFalsy();
    // Ana's plan from the keys file (this server keeps its own store: a fresh 40 credits).
    expect(creditsLeft(r)).toBe(39);
    await client.close();
  });

  it("asks the issuer's introspection endpoint about an opaque token, and refuses one it says is inactive", async () => {
    const res = await fetch(`${mcpUrl}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: "Bearer notAJwtButOpaque_0123456789",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
  });
});
