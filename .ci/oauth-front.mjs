// For the conformance suites against `http --auth oauth` (the suites send no credentials): a token
// issuer on loopback (RFC 8414 metadata and a JWKS), the server started with --auth oauth trusting
// it, and in front of the server a proxy that adds one valid access token to every request and
// passes everything else (Host included) through. Usage: node .ci/oauth-front.mjs NODE; prints
// `listening on http://127.0.0.1:PORT` (the proxy) once all three run; stops them on SIGTERM.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { exportJWK, generateKeyPair, SignJWT } from "jose";

const node = process.argv[2] ?? process.execPath;
const PUBLIC_URL = "http://localhost/mcp";

const listen = (server) =>
  new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`)));

const { privateKey, publicKey } = await generateKeyPair("ES256");
const jwk = { ...(await exportJWK(publicKey)), kid: "ci", alg: "ES256", use: "sig" };
let issuer = "";
const issuerServer = createServer((req, res) => {
  if (req.url === "/.well-known/oauth-authorization-server") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
  } else if (req.url === "/jwks") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  } else res.writeHead(404).end();
});
issuer = await listen(issuerServer);
const token = await new SignJWT({ scope: "metrics:read" })
  .setProtectedHeader({ alg: "ES256", kid: "ci" })
  .setIssuer(issuer)
  .setSubject("conformance")
  .setAudience(PUBLIC_URL)
  .setIssuedAt()
  .setExpirationTime("2h")
  .sign(privateKey);

const state = mkdtempSync(join(tmpdir(), "cm-conformance-oauth-"));
const server = spawn(node, ["dist/cli.js", "http", "--port", "0", "--auth", "oauth", "--issuer", issuer, "--public-url", PUBLIC_URL], {
  env: { ...process.env, CRYPTO_METRICS_STATE_DIR: state, CRYPTO_METRICS_NOW: "2025-12-28T12:00:00Z" },
  stdio: ["ignore", "inherit", "pipe"],
});
const target = await new Promise((resolve, reject) => {
  let err = "";
  server.stderr.on("data", (chunk) => {
    err += chunk;
    const m = /listening on (http:\/\/\S+)/.exec(err);
    if (m) resolve(new URL(m[1]));
  });
  server.once("exit", (code) => reject(new Error(`the server exited (${code}): ${err}`)));
});

const proxy = createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on("error", () => res.writeHead(502).end());
  req.pipe(upstream);
});
process.stderr.write(`listening on ${await listen(proxy)}\n`);

const stop = () => {
  server.kill("SIGTERM");
  proxy.close();
  issuerServer.close();
  rmSync(state, { recursive: true, force: true });
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
