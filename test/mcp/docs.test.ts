// manifest.json and the README's tool table are generated from the tools; they must match what
// tools/list actually serves, and the manifest must keep the MCPB contract.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, type Fixture } from "../../harness/mcp.js";
import { buildManifest, manifestTools, README_END, README_START, toolTable } from "../../scripts/generate-docs.js";
import { loadConfig } from "../../src/config.js";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (name: string) => readFileSync(join(ROOT, name), "utf8");

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

describe("generated docs", () => {
  it("manifest.json lists exactly the tools tools/list serves (run npm run docs after a change)", async () => {
    const { tools } = await f.client.listTools();
    const manifest = JSON.parse(read("manifest.json")) as { tools: unknown };
    expect(manifest.tools).toEqual(manifestTools(tools as Parameters<typeof manifestTools>[0]));
  });

  it("the README's tool table matches tools/list (run npm run docs after a change)", async () => {
    const { tools } = await f.client.listTools();
    const readme = read("README.md");
    const table = readme.slice(readme.indexOf(README_START) + README_START.length, readme.indexOf(README_END)).trim();
    expect(table).toBe(toolTable(tools as Parameters<typeof toolTable>[0]));
  });

  it("manifest.json is the whole generated manifest, in MCPB 0.3 form", () => {
    const pkg = JSON.parse(read("package.json")) as Parameters<typeof buildManifest>[0];
    const manifest = JSON.parse(read("manifest.json")) as Record<string, unknown>;
    expect(manifest).toEqual(JSON.parse(JSON.stringify(buildManifest(pkg, manifest.tools as Parameters<typeof buildManifest>[1]))));
    expect(manifest).toMatchObject({
      manifest_version: "0.3",
      name: "crypto-metrics-mcp",
      version: pkg.version,
      server: {
        type: "node",
        entry_point: "dist/cli.js",
        mcp_config: {
          command: "node",
          args: ["${__dirname}/dist/cli.js"],
          env: {
            CRYPTO_METRICS_API_KEY: "${user_config.api_key}",
            CRYPTO_METRICS_BASE_URL: "${user_config.base_url}",
            CRYPTO_METRICS_STORE: "${user_config.store}",
          },
        },
      },
      user_config: {
        api_key: { type: "string", sensitive: true, required: false },
        base_url: { type: "string", required: false },
        // A postgres:// URL may carry the database password.
        store: { type: "string", sensitive: true, required: false },
      },
      compatibility: { runtimes: { node: ">=22.13.0" } },
    });
  });

  it("feeds each user_config setting to one variable server.json declares, secret in both or in neither", () => {
    const manifest = JSON.parse(read("manifest.json")) as {
      server: { mcp_config: { env: Record<string, string> } };
      user_config: Record<string, { sensitive?: boolean }>;
    };
    const declared = (
      JSON.parse(read("server.json")) as { packages: Array<{ environmentVariables: Array<{ name: string; isSecret: boolean }> }> }
    ).packages[0]!.environmentVariables;
    const fed = Object.entries(manifest.server.mcp_config.env).map(([name, value]) => ({
      name,
      setting: /^\$\{user_config\.([a-z_]+)\}$/.exec(value)?.[1],
    }));
    // Every setting is passed on, and only through its placeholder.
    expect(fed.map((f) => f.setting).sort()).toEqual(Object.keys(manifest.user_config).sort());
    for (const { name, setting } of fed) {
      const variable = declared.find((v) => v.name === name);
      expect(variable, `${name} is not in server.json`).toBeDefined();
      expect(manifest.user_config[setting!]!.sensitive ?? false, `${setting} vs ${name}`).toBe(variable!.isSecret);
    }
  });

  it("treats a bundle setting passed as its unexpanded placeholder as unset", () => {
    const env = {
      CRYPTO_METRICS_API_KEY: "${user_config.api_key}",
      CRYPTO_METRICS_BASE_URL: "${user_config.base_url}",
      CRYPTO_METRICS_STORE: "${user_config.store}",
      CRYPTO_METRICS_STATE_DIR: "/tmp/x",
    };
    const config = loadConfig(env, []);
    expect(config.apiKey).toBeUndefined();
    expect(config.baseUrl).toBeUndefined();
    // The embedded store in the state directory, as with the setting left empty.
    expect(config.store).toEqual(loadConfig({ CRYPTO_METRICS_STORE: "", CRYPTO_METRICS_STATE_DIR: "/tmp/x" }, []).store);
    expect(config.store.kind).toBe("sqlite");
    expect(
      loadConfig({ CRYPTO_METRICS_API_KEY: "", CRYPTO_METRICS_BASE_URL: "", CRYPTO_METRICS_STATE_DIR: "/tmp/x" }, []).baseUrl,
    ).toBeUndefined();
  });
});
