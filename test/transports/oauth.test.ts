// `http --auth oauth` on a loopback port against a token issuer on another: RFC 9728 metadata, the
// 401/403 challenges of MCP 2026-07-28 for every kind of bad token (each logged once, none charged,
// no token in any log line or answer), and each token subject metered as its own account.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NOW } from "../../harness/mcp.js";
import { rpcAnswer } from "../../harness/rpc-answer.js";
import { signingKey, startTokenIssuer, type TokenIssuer } from "../../harness/token-issuer.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { addLogSink } from "../../src/log.js";
import { type RunningHttpServer, startHttpServer } from "../../src/transports/http.js";
import { oauthResourceServer } from "../../src/transports/oauth/setup.js";

const PUBLIC_URL = "https://mcp.example.test/mcp";
const METADATA_URL = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp";
const KEYS = {
  plans: { free: { credits: 100, rateLimit: { requests: 1000, windowSeconds: 60 } }, pro: { credits: 5000 } },
  keys: [{ key: "an-api-key", plan: "free" }],
  oauth: {
    defaultPlan: "free",
    subjects: [
      { sub: "alice", credits: 3 },
      { sub: "carol", plan: "pro", metrics: ["lifespan/Lth_mvrv"] },
    ],
  },
};

let issuer: TokenIssuer;
let backend: InProcessBackend;
let server: RunningHttpServer;
const lines: string[] = [];

beforeAll(async () => {
  issuer = await startTokenIssuer();
  const dir = mkdtempSync(join(tmpdir(), "cm-oauth-"));
  const keysFile = join(dir, "keys.json");
  writeFileSync(keysFile, JSON.stringify(KEYS));
  backend = await InProcessBackend.create({ apiKey: undefined, keysFile, stateDir: join(dir, "state"), now: () => NOW });
  const oauth = oauthResourceServer({ issuer: issuer.issuer, publicUrl: PUBLIC_URL, keysFile }, backend, { jwksCooldownMs: 0 });
  server = await startHttpServer({ backend, host: "127.0.0.1", port: 0, requireKey: false, oauth });
  addLogSink((_level, line) => lines.push(line));
});
afterAll(async () => {
  await server?.close();
  await backend?.close();
  await issuer?.close();
});

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const call = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name, arguments: args },
});
const SERIES = call("get_series", { metric: "mining/DiffLast", asset: "btc", startDate: "2025-12-01" });

async function post(body: unknown, token?: string, extra: Record<string, string> = {}, path = "/mcp") {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      ...HEADERS,
      "mcp-protocol-version": "2025-11-25",
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...extra,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, challenge: res.headers.get("www-authenticate"), retryAfter: res.headers.get("retry-after"), text };
}

/** The JSON-RPC answer of a response, JSON or one SSE event. */
function answer(text: string): {
  result: { isError?: boolean; content: { text: string }[]; structuredContent: { credits: { remaining: number } } };
} {
  return rpcAnswer(text);
}

/** Credits left on a token's account, read by a charged call (the simulated series costs 1). */
async function remaining(token: string): Promise<number> {
  const r = await post(SERIES, token);
  expect(r.status).toBe(200);
  const payload = answer(r.text);
  expect(payload.result.isError, payload.result.content[0]!.text).toBeFalsy();
  return payload.result.structuredContent.credits.remaining;
}

describe("protected resource metadata (RFC 9728)", () => {
  it("is served at the path-aware and the root well-known URLs, naming the issuer, the scope and header tokens", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toEqual({
        resource: PUBLIC_URL,
        authorization_servers: [issuer.issuer],
        scopes_supported: ["metrics:read"],
        bearer_methods_supported: ["header"],
        resource_name: "crypto-metrics-mcp",
      });
    }
  });
});

describe("requests without a valid token", () => {
  it("answers every MCP request without a token 401 with the discovery challenge: the handshake, server/discover and tool calls", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const discover = { jsonrpc: "2.0", id: 2, method: "server/discover", params: {} };
    for (const [body, version] of [
      [init, "2025-11-25"],
      [discover, "2026-07-28"],
      [SERIES, "2025-11-25"],
      [{ jsonrpc: "2.0", id: 3, method: "ping" }, "2025-11-25"],
    ] as const) {
      const r = await post(body, undefined, { "mcp-protocol-version": version });
      expect(r.status).toBe(401);
      expect(r.challenge).toBe(`Bearer resource_metadata="${METADATA_URL}", scope="metrics:read"`);
    }
  });

  it("accepts no API key, even one the keys file lists", async () => {
    const r = await post(SERIES, "an-api-key");
    expect(r.status).toBe(401);
    expect(r.challenge).toMatch(/^Bearer error="invalid_token", resource_metadata=/);
  });

  it("refuses each kind of bad token with the status and challenge the specification names, one log line each, nothing charged, no token shown", async () => {
    const before = await remaining(await issuer.token("dave", PUBLIC_URL));
    const now = Math.floor(Date.now() / 1000);
    const stranger = await signingKey("k1");
    const hs = await new SignJWT({ scope: "metrics:read" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(issuer.issuer)
      .setSubject("dave")
      .setAudience(PUBLIC_URL)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode("a-shared-secret-of-thirty-two-bytes!"));
    const cases: [string, string, number, string, RegExp][] = [
      ["expired", await issuer.token("dave", PUBLIC_URL, { exp: now - 120, iat: now - 3600 }), 401, "invalid_token", /expired token/],
      ["not yet valid", await issuer.token("dave", PUBLIC_URL, { nbf: now + 600 }), 401, "invalid_token", /not yet valid/],
      ["wrongly signed", await issuer.token("dave", PUBLIC_URL, {}, stranger), 401, "invalid_token", /bad signature/],
      [
        "wrong issuer",
        await issuer.token("dave", PUBLIC_URL, { iss: "https://evil.example.test" }),
        401,
        "invalid_token",
        /another issuer/,
      ],
      ["wrong audience", await issuer.token("dave", "https://other.example.test/mcp"), 401, "invalid_token", /another resource/],
      [
        "no audience claim of ours (audience list)",
        await issuer.token("dave", "x", { aud: ["https://a.test", "https://b.test"] }),
        401,
        "invalid_token",
        /another resource/,
      ],
      [
        "unscoped",
        await issuer.token("dave", PUBLIC_URL, { scope: "openid profile" }),
        403,
        "insufficient_scope",
        /without the metrics:read scope/,
      ],
      [
        "alg none",
        new UnsecuredJWT({ scope: "metrics:read" })
          .setIssuer(issuer.issuer)
          .setSubject("dave")
          .setAudience(PUBLIC_URL)
          .setExpirationTime(now + 600)
          .encode(),
        401,
        "invalid_token",
        /alg none/,
      ],
      ["HS256 (shared secret)", hs, 401, "invalid_token", /algorithm not allowed/],
      ["malformed JWT", "e25vdCBqc29u.e30.c2ln", 401, "invalid_token", /malformed token/],
      ["opaque", "an-opaque-token-0123456789", 401, "invalid_token", /opaque token, and the issuer offers no introspection/],
      [
        "unknown key id",
        await issuer.token("dave", PUBLIC_URL, {}, await signingKey("k-unknown")),
        401,
        "invalid_token",
        /key the issuer does not publish/,
      ],
    ];
    // Reasons logged by earlier tests are within the same window.
    const reasons = new Set(
      cases.map(([, , , , reason]) => reason.source).filter((source) => lines.some((l) => new RegExp(source).test(l))),
    );
    for (const [name, token, status, error, reason] of cases) {
      const from = lines.length;
      const r = await post(SERIES, token);
      expect(r.status, name).toBe(status);
      expect(r.challenge, name).toMatch(
        new RegExp(
          `^Bearer error="${error}", resource_metadata="${METADATA_URL.replace(/[./]/g, "\\$&")}", scope="metrics:read", error_description="[^"]+"$`,
        ),
      );
      expect(r.text, name).toMatch(/Nothing was charged/);
      const logged = lines.slice(from).filter((l) => l.includes("oauth: request refused"));
      // The log writes a warning repeated word for word once per window (a flood of one bad token is one line).
      expect(logged, name).toHaveLength(reasons.has(reason.source) ? 0 : 1);
      if (!reasons.has(reason.source)) expect(logged[0], name).toMatch(reason);
      reasons.add(reason.source);
      for (const text of [r.text, r.challenge!, ...lines.slice(from)]) expect(text.includes(token), name).toBe(false);
    }
    expect(await remaining(await issuer.token("dave", PUBLIC_URL))).toBe(before - 1);
  });

  it("refuses a token in the query string and a malformed Authorization header with 400 invalid_request", async () => {
    const token = await issuer.token("dave", PUBLIC_URL);
    const q = await post(SERIES, undefined, {}, `/mcp?access_token=${token}`);
    expect(q.status).toBe(400);
    expect(q.challenge).toMatch(/^Bearer error="invalid_request"/);
    const m = await post(SERIES, undefined, { authorization: `Basic ${token}`, "x-forwarded-for": "203.0.113.9" });
    expect(m.status).toBe(400);
    // Behind a proxy the log names the client it forwarded for, beside the proxy.
    expect(lines.at(-1)).toMatch(/reason="malformed Authorization header" from="127\.0\.0\.1 for 203\.0\.113\.9"/);
    expect(m.challenge).toMatch(/^Bearer error="invalid_request"/);
    expect(lines.join("\n").includes(token)).toBe(false);
  });

  it("answers 503 with Retry-After while the issuer's keys cannot be fetched, and verifies again once they can; nothing charged", async () => {
    const token = await issuer.token("erin", PUBLIC_URL, {}, await signingKey("k-new"));
    issuer.jwksStatus = 500;
    try {
      const r = await post(SERIES, token);
      expect(r.status).toBe(503);
      expect(r.retryAfter).toBe("5");
      expect(lines.at(-1)).toMatch(/oauth: request refused status=503 reason="cannot read the issuer's keys/);
    } finally {
      issuer.jwksStatus = undefined;
    }
  });

  it("follows a key rotation mid-run: a token of the new key is accepted, one of the retired key refused", async () => {
    const retired = issuer.published[0]!;
    const oldToken = await issuer.token("frank", PUBLIC_URL, {}, retired);
    expect(await remaining(oldToken)).toBe(99);
    const next = await signingKey("k2");
    issuer.published = [next];
    expect(await remaining(await issuer.token("frank", PUBLIC_URL, {}, next))).toBe(98);
    // A token of the retired key not seen before: the refreshed JWKS no longer has it.
    const late = await issuer.token("frank", PUBLIC_URL, { jti: "late" }, retired);
    expect((await post(SERIES, late)).status).toBe(401);
    issuer.published = [retired, next];
  });
});

describe("each token subject is an account", () => {
  it("meters each subject on its own: a listed subject's credits, the default plan for others, the listed plan's restriction", async () => {
    const alice = await issuer.token("alice", PUBLIC_URL);
    const bob = await issuer.token("bob", PUBLIC_URL);
    expect(await remaining(alice)).toBe(2);
    expect(await remaining(bob)).toBe(99);
    expect(await remaining(alice)).toBe(1);
    expect(await remaining(alice)).toBe(0);
    const out = await post(SERIES, alice);
    expect(out.status).toBe(200);
    expect(out.text).toMatch(/credits/i);
    expect(answer(out.text).result.isError).toBe(true);
    expect(await remaining(bob)).toBe(98);
    const carol = await issuer.token("carol", PUBLIC_URL);
    const refused = answer((await post(SERIES, carol)).text);
    expect(refused.result.isError).toBe(true);
    expect(refused.result.content[0]!.text).toMatch(/lifespan\/Lth_mvrv/);
  });
});

describe("a keys file that enrols listed subjects only", () => {
  it("refuses a verified subject it does not list with 403, naming no token and charging nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cm-oauth-listed-"));
    const keysFile = join(dir, "keys.json");
    writeFileSync(keysFile, JSON.stringify({ plans: { p: { credits: 5 } }, oauth: { subjects: [{ sub: "alice", plan: "p" }] } }));
    const listed = await InProcessBackend.create({ apiKey: undefined, keysFile, stateDir: join(dir, "state"), now: () => NOW });
    const oauth = oauthResourceServer({ issuer: issuer.issuer, publicUrl: PUBLIC_URL, keysFile }, listed);
    const only = await startHttpServer({ backend: listed, host: "127.0.0.1", port: 0, requireKey: false, oauth });
    try {
      const token = await issuer.token("mallory", PUBLIC_URL);
      const from = lines.length;
      const res = await fetch(`${only.url}/mcp`, {
        method: "POST",
        headers: { ...HEADERS, authorization: `Bearer ${token}` },
        body: JSON.stringify(SERIES),
      });
      expect(res.status).toBe(403);
      const text = await res.text();
      expect(text).toMatch(/your account is not enrolled on this server; ask its operator to add it\. Nothing was charged/);
      expect(lines.slice(from).join("\n")).toMatch(
        /oauth: request refused status=403 reason="subject not enrolled in the keys file" subject=mallory/,
      );
      expect(text.includes(token) || lines.join("\n").includes(token)).toBe(false);
      const ok = await fetch(`${only.url}/mcp`, {
        method: "POST",
        headers: { ...HEADERS, "mcp-protocol-version": "2025-11-25", authorization: `Bearer ${await issuer.token("alice", PUBLIC_URL)}` },
        body: JSON.stringify(SERIES),
      });
      expect(answer(await ok.text()).result.structuredContent.credits.remaining).toBe(4);
    } finally {
      await only.close();
      await listed.close();
    }
  });

  it("will not start on a keys file without an oauth section", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cm-oauth-nosection-"));
    const keysFile = join(dir, "keys.json");
    writeFileSync(keysFile, JSON.stringify({ keys: [{ key: "k" }] }));
    const plain = await InProcessBackend.create({ apiKey: undefined, keysFile, stateDir: join(dir, "state"), now: () => NOW });
    try {
      expect(() => oauthResourceServer({ issuer: issuer.issuer, publicUrl: PUBLIC_URL, keysFile }, plain)).toThrow(
        /has no "oauth" section, so no signed-in user has an account; add one, e\.g\. "oauth": \{"defaultPlan": "free"\}/,
      );
    } finally {
      await plain.close();
    }
  });
});

describe("an authorization server that cannot be reached", () => {
  it("answers 503 with Retry-After and logs why, charging nothing, until its metadata can be read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cm-oauth-down-"));
    const keysFile = join(dir, "keys.json");
    writeFileSync(keysFile, JSON.stringify(KEYS));
    const down = await InProcessBackend.create({ apiKey: undefined, keysFile, stateDir: join(dir, "state"), now: () => NOW });
    // A loopback port nothing listens on: the issuer's metadata cannot be fetched.
    const gone = await startTokenIssuer();
    const missing = gone.issuer;
    await gone.close();
    const oauth = oauthResourceServer({ issuer: missing, publicUrl: PUBLIC_URL, keysFile }, down);
    const only = await startHttpServer({ backend: down, host: "127.0.0.1", port: 0, requireKey: false, oauth });
    try {
      const from = lines.length;
      const res = await fetch(`${only.url}/mcp`, {
        method: "POST",
        headers: { ...HEADERS, authorization: `Bearer ${await issuer.token("dave", PUBLIC_URL)}` },
        body: JSON.stringify(SERIES),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.text()).toMatch(/cannot reach its authorization server to check the token right now; nothing was charged/);
      expect(lines.slice(from).join("\n")).toMatch(
        /oauth: request refused status=503 reason="cannot read the metadata of issuer http:\/\/127\.0\.0\.1:\d+: /,
      );
    } finally {
      await only.close();
      await down.close();
    }
  });
});
