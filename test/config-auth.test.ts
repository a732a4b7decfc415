// `http --auth key|oauth|none` with --issuer and --public-url (or their variables): what is accepted,
// and each refusal naming the flag and the fix.
import { describe, expect, it } from "vitest";

import { ConfigError, describeConfig, loadConfig } from "../src/config.js";

const HOME = { HOME: "/home/ana" };
const OAUTH = [
  "http",
  "--auth",
  "oauth",
  "--issuer",
  "https://auth.example.com/realms/team",
  "--public-url",
  "https://mcp.example.com/mcp/",
];

describe("--auth", () => {
  it("defaults to API keys, as before", () => {
    const c = loadConfig(HOME, ["http"]);
    expect(c).toMatchObject({ auth: "key", issuer: undefined, publicUrl: undefined, requireKey: false });
  });

  it("takes oauth with an issuer kept as written and a canonical public URL, from flags or the environment", () => {
    expect(loadConfig(HOME, [...OAUTH, "--host", "0.0.0.0"])).toMatchObject({
      auth: "oauth",
      issuer: "https://auth.example.com/realms/team",
      publicUrl: "https://mcp.example.com/mcp",
      host: "0.0.0.0",
    });
    const env = {
      ...HOME,
      CRYPTO_METRICS_AUTH: "oauth",
      CRYPTO_METRICS_OAUTH_ISSUER: "https://tenant.eu.auth0.com/",
      CRYPTO_METRICS_PUBLIC_URL: "https://MCP.example.com/mcp",
    };
    const c = loadConfig(env, ["http"]);
    expect(c).toMatchObject({ auth: "oauth", issuer: "https://tenant.eu.auth0.com/", publicUrl: "https://mcp.example.com/mcp" });
    expect(describeConfig(c)).toContain("auth=oauth issuer=https://tenant.eu.auth0.com/ public_url=https://mcp.example.com/mcp");
    // The environment's mode is the http command's only.
    expect(loadConfig(env, ["stdio"]).auth).toBe("key");
  });

  it("accepts plain http for loopback issuers and public URLs only", () => {
    expect(
      loadConfig(HOME, ["http", "--auth", "oauth", "--issuer", "http://127.0.0.1:9000", "--public-url", "http://localhost:3000/mcp"])
        .publicUrl,
    ).toBe("http://localhost:3000/mcp");
  });

  const bad: [string, string[], Record<string, string>, RegExp][] = [
    ["an unknown mode", ["http", "--auth", "jwt"], {}, /--auth must be one of key, oauth, none; got "jwt"/],
    [
      "oauth without an issuer",
      ["http", "--auth", "oauth", "--public-url", "https://m.example.com/mcp"],
      {},
      /--auth oauth needs --issuer URL \(or CRYPTO_METRICS_OAUTH_ISSUER\)/,
    ],
    [
      "oauth without a public URL",
      ["http", "--auth", "oauth", "--issuer", "https://a.example.com"],
      {},
      /--auth oauth needs --public-url URL \(or CRYPTO_METRICS_PUBLIC_URL\)/,
    ],
    [
      "a non-HTTPS public URL off loopback",
      ["http", "--auth", "oauth", "--issuer", "https://a.example.com", "--public-url", "http://mcp.example.com/mcp"],
      {},
      /--public-url must use https \(plain http is accepted for a loopback host only\); got http:\/\/mcp.example.com/,
    ],
    [
      "a non-HTTPS issuer off loopback",
      ["http", "--auth", "oauth", "--issuer", "http://a.example.com", "--public-url", "https://m.example.com/mcp"],
      {},
      /--issuer must use https/,
    ],
    [
      "a public URL with a query",
      ["http", "--auth", "oauth", "--issuer", "https://a.example.com", "--public-url", "https://m.example.com/mcp?x=1"],
      {},
      /--public-url must not carry a query string or fragment/,
    ],
    [
      "an issuer that is not a URL",
      ["http", "--auth", "oauth", "--public-url", "https://m.example.com/mcp"],
      { CRYPTO_METRICS_OAUTH_ISSUER: "auth.example.com" },
      /CRYPTO_METRICS_OAUTH_ISSUER is not a URL/,
    ],
    [
      "none beyond loopback",
      ["http", "--auth", "none", "--host", "0.0.0.0"],
      {},
      /--auth none serves anyone who can connect, so it is allowed on loopback only/,
    ],
    ["--require-key with oauth", [...OAUTH, "--require-key"], {}, /--require-key applies to --auth key/],
    ["--issuer without oauth", ["http", "--issuer", "https://a.example.com"], {}, /--issuer and --public-url apply to --auth oauth/],
    ["--auth on another command", ["api", "--auth", "oauth"], {}, /--auth applies to the http command, not api/],
  ];
  for (const [name, argv, env, message] of bad) {
    it(`refuses ${name}`, () => {
      expect(() => loadConfig({ ...HOME, ...env }, argv)).toThrow(ConfigError);
      expect(() => loadConfig({ ...HOME, ...env }, argv)).toThrow(message);
    });
  }
});
