// server.json (MCP Registry, schema 2025-12-11) is generated from package.json by `npm run docs`:
// it must not drift, and it must keep the registry's rules.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { ROOT } from "../../harness/spawn.js";
import { buildServerJson, SERVER_SCHEMA } from "../../scripts/server-json.js";

const read = (name: string) => JSON.parse(readFileSync(join(ROOT, name), "utf8")) as Record<string, any>;

describe("server.json", () => {
  const pkg = read("package.json");
  const server = read("server.json");

  it("is what npm run docs generates from package.json", () => {
    expect(server).toEqual(JSON.parse(JSON.stringify(buildServerJson(pkg as Parameters<typeof buildServerJson>[0]))));
  });

  it("keeps the registry's rules: reverse-DNS name = mcpName, short description, exact version", () => {
    expect(server.$schema).toBe(SERVER_SCHEMA);
    expect(server.name).toBe(pkg.mcpName);
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(server.name.split("/")[0]).toMatch(/^(io\.github\.[\w-]+|[a-z0-9-]+(\.[a-z0-9-]+)+)$/);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.version).toBe(pkg.version);
    expect(server.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
  });

  it("names the npm package at the same version, over stdio", () => {
    expect(server.packages).toHaveLength(1);
    expect(server.packages[0]).toMatchObject({
      registryType: "npm",
      identifier: pkg.name,
      version: pkg.version,
      transport: { type: "stdio" },
    });
  });

  it("lists exactly the variables the program reads, secret where they carry credentials", () => {
    // The configuration is read in src/config.ts and its parts in src/config/.
    const parts = readdirSync(join(ROOT, "src/config")).map((f) => join("src/config", f));
    const config = ["src/config.ts", ...parts].map((f) => readFileSync(join(ROOT, f), "utf8")).join("\n");
    // The package entry runs over stdio: a variable only the http command reads is not one of its settings.
    const httpOnly = [
      "CRYPTO_METRICS_ALLOWED_HOSTS",
      "CRYPTO_METRICS_AUTH",
      "CRYPTO_METRICS_OAUTH_ISSUER",
      "CRYPTO_METRICS_PUBLIC_URL",
      "CRYPTO_METRICS_OAUTH_CLIENT_ID",
      "CRYPTO_METRICS_OAUTH_CLIENT_SECRET",
    ];
    const read = new Set(config.match(/CRYPTO_METRICS_[A-Z_]+/g));
    for (const name of httpOnly) expect(read.delete(name), name).toBe(true);
    const vars = server.packages[0].environmentVariables as { name: string; isSecret: boolean; isRequired: boolean; description: string }[];
    expect(new Set(vars.map((v) => v.name))).toEqual(read);
    // The key, and the store URL (a PostgreSQL URL may hold a password).
    expect(vars.filter((v) => v.isSecret).map((v) => v.name)).toEqual(["CRYPTO_METRICS_API_KEY", "CRYPTO_METRICS_STORE"]);
    for (const v of vars) {
      expect(v.isRequired, v.name).toBe(false);
      expect(v.description.length, v.name).toBeGreaterThan(10);
    }
  });
});
