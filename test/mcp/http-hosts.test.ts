// `http --allowed-hosts` behind a reverse proxy, over real loopback HTTP: the server process as
// started from the command line, a small proxy in front that forwards the public Host as nginx
// (`proxy_set_header Host $host`) and Caddy do, and a real MCP client talking through it.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { tempDir } from "../../harness/mcp.js";
import { spawnCli, type Spawned } from "../../harness/spawn.js";
import { ConfigError, loadConfig } from "../../src/config.js";

const PUBLIC = "mcp.example.com";
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: { ...JSON_HEADERS, ...headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(INIT);
  });
}

/** A reverse proxy on loopback that forwards every request to `upstream` with `Host: PUBLIC`. */
async function proxy(upstream: URL): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: PUBLIC, "x-forwarded-proto": "https", "x-forwarded-host": PUBLIC },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on("error", () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("http --allowed-hosts", () => {
  let cli: Spawned;
  let direct: string;
  let front: { url: string; server: Server };

  beforeAll(async () => {
    const dir = tempDir("cm-hosts-");
    cli = spawnCli(["http", "--port", "0", "--allowed-hosts", `${PUBLIC},[2001:db8::7]`, "--state-dir", dir], {
      CRYPTO_METRICS_LOG_LEVEL: "warn",
    });
    direct = (await cli.waitForStderr(/listening on (http:\/\/\S+)/))[1]!;
    front = await proxy(new URL(direct));
  }, 30_000);

  afterAll(async () => {
    cli.child.kill("SIGTERM");
    await cli.exited;
    await new Promise<void>((r) => front.server.close(() => r()));
  });

  it("serves a client through a proxy that forwards the public Host, calls included", async () => {
    const client = new Client({ name: "behind-proxy", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${front.url}/mcp`)));
    const r = (await client.callTool({ name: "get_metrics_variation", arguments: { asset: "btc" } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect((r.content[0] as { text: string }).text).toMatch(/^Metrics variation for btc/);
    await client.close();
  });

  it("accepts the allowed names in Host (any case, any port) and Origin, and still the loopback names", async () => {
    expect((await post(`${direct}/mcp`, { Host: PUBLIC })).status).toBe(200);
    expect((await post(`${direct}/mcp`, { Host: "MCP.Example.COM:443", Origin: `https://${PUBLIC}` })).status).toBe(200);
    expect((await post(`${direct}/mcp`, { Host: "[2001:db8::7]:8443" })).status).toBe(200);
    expect((await post(`${direct}/mcp`, { Host: `localhost:${new URL(direct).port}` })).status).toBe(200);
  });

  it("refuses every other name in Host or Origin with 403, pointing at the option", async () => {
    const host = await post(`${direct}/mcp`, { Host: "other.example.com" });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.message).toBe(
      "Forbidden: Host header not allowed (a name a reverse proxy forwards is allowed with --allowed-hosts)",
    );
    expect((await post(`${direct}/mcp`, { Host: `${PUBLIC}.evil.example` })).status).toBe(403);
    expect((await post(`${direct}/mcp`, { Host: `evil.${PUBLIC}` })).status).toBe(403);
    expect((await post(`${direct}/mcp`, { Host: PUBLIC, Origin: "https://evil.example" })).status).toBe(403);
  });

  it("without the option a forwarded public Host is refused, as before", async () => {
    const plain = spawnCli(["http", "--port", "0", "--state-dir", tempDir("cm-hosts-")], { CRYPTO_METRICS_LOG_LEVEL: "warn" });
    const url = (await plain.waitForStderr(/listening on (http:\/\/\S+)/))[1]!;
    expect((await post(`${url}/mcp`, { Host: PUBLIC })).status).toBe(403);
    plain.child.kill("SIGTERM");
    await plain.exited;
  }, 30_000);

  it("takes the names from CRYPTO_METRICS_ALLOWED_HOSTS too; the flag wins", () => {
    expect(loadConfig({ CRYPTO_METRICS_ALLOWED_HOSTS: " A.example.com , b.example.com ,a.example.com" }, ["http"]).allowedHosts).toEqual([
      "a.example.com",
      "b.example.com",
    ]);
    expect(
      loadConfig({ CRYPTO_METRICS_ALLOWED_HOSTS: "a.example.com" }, ["http", "--allowed-hosts", "c.example.com"]).allowedHosts,
    ).toEqual(["c.example.com"]);
    expect(loadConfig({ CRYPTO_METRICS_ALLOWED_HOSTS: "" }, ["http"]).allowedHosts).toEqual([]);
    // Other commands serve no Host-checked MCP endpoint: the variable does not concern them.
    expect(loadConfig({ CRYPTO_METRICS_ALLOWED_HOSTS: "a.example.com" }, ["stdio"]).allowedHosts).toEqual([]);
  });

  it.each([
    [
      ["http", "--allowed-hosts", "https://mcp.example.com"],
      /^--allowed-hosts must be host names separated by commas, .*; got "https:\/\/mcp\.example\.com" is a URL; give its host name alone$/,
    ],
    [["http", "--allowed-hosts", "mcp.example.com:443"], /got "mcp\.example\.com:443" has a port; give the name alone/],
    [["http", "--allowed-hosts", "*.example.com"], /got "\*\.example\.com" has a wildcard; list each name/],
    [["http", "--allowed-hosts", "a.example.com,,b.example.com"], /got an empty name$/],
    [["http", "--allowed-hosts", "bad_name.example"], /got "bad_name\.example" is not a host name$/],
    [["stdio", "--allowed-hosts", "a.example.com"], /^--allowed-hosts applies to the http command, not stdio$/],
    [["api", "--allowed-hosts", "a.example.com"], /^--allowed-hosts applies to the http command, not api$/],
  ])("refuses %j naming the flag and the fix", (argv, message) => {
    expect(() => loadConfig({}, argv)).toThrow(ConfigError);
    expect(() => loadConfig({}, argv)).toThrow(message);
  });

  it("exits 2 with one line naming the variable for a bad CRYPTO_METRICS_ALLOWED_HOSTS", async () => {
    const bad = spawnCli(["http", "--port", "0"], { CRYPTO_METRICS_ALLOWED_HOSTS: "mcp.example.com/mcp" });
    const { code } = await bad.exited;
    expect(code).toBe(2);
    expect(bad.stderrText()).toBe(
      'crypto-metrics-mcp: CRYPTO_METRICS_ALLOWED_HOSTS must be host names separated by commas, as the proxy in front sends them in Host (e.g. CRYPTO_METRICS_ALLOWED_HOSTS=mcp.example.com,mcp.example.org); got "mcp.example.com/mcp" has a path; give the host name alone\n(run with --help for usage)\n',
    );
  }, 30_000);
});
