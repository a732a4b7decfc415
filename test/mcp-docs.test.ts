// manifest.json and the README's tool table are generated from the tools; they must match what
// tools/list actually serves, and the manifest must keep the MCPB contract.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { buildManifest, manifestTools, README_END, README_START, toolTable } from "../scripts/generate-docs.js";
import { connect, type Fixture } from "./mcp-fixture.js";

const ROOT = join(import.meta.dirname, "..");
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
          env: { CRYPTO_METRICS_API_KEY: "${user_config.api_key}", CRYPTO_METRICS_BASE_URL: "${user_config.base_url}" },
        },
      },
      user_config: { api_key: { type: "string", sensitive: true, required: false }, base_url: { type: "string", required: false } },
      compatibility: { runtimes: { node: ">=20.18.0" } },
    });
  });

  it("treats a bundle setting passed as its unexpanded placeholder as unset", () => {
    const config = loadConfig({ CRYPTO_METRICS_API_KEY: "${user_config.api_key}", CRYPTO_METRICS_BASE_URL: "${user_config.base_url}", CRYPTO_METRICS_STATE_DIR: "/tmp/x" }, []);
    expect(config.apiKey).toBeUndefined();
    expect(config.baseUrl).toBeUndefined();
    expect(loadConfig({ CRYPTO_METRICS_API_KEY: "", CRYPTO_METRICS_BASE_URL: "", CRYPTO_METRICS_STATE_DIR: "/tmp/x" }, []).baseUrl).toBeUndefined();
  });
});
