// Regenerates manifest.json (MCPB 0.3, tools from the tool definitions), server.json (MCP Registry,
// from package.json) and the README's tool table between <!-- tools:start --> and <!-- tools:end -->.
// `--check` exits 1 when any has drifted.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ASSET_SETS, ENDPOINTS } from "../src/catalog/index.js";
import { BUILTIN_SQLITE_NODE } from "../src/min-node.js";
import { allTools } from "../src/tools/index.js";
import { toolListing, type ListedTool } from "../src/tools/listing.js";
import { buildServerJson } from "./server-json.js";

const ROOT = join(import.meta.dirname, "..");
export const README_START = "<!-- tools:start -->";
export const README_END = "<!-- tools:end -->";

interface PackageJson {
  name: string;
  mcpName: string;
  version: string;
  description: string;
  license: string;
  engines: { node: string };
}

type ToolLike = Pick<ListedTool, "name" | "description"> & { title?: string; inputSchema: Record<string, unknown> };

export function manifestTools(tools: readonly ToolLike[]): Array<{ name: string; description: string }> {
  return tools.map((t) => ({ name: t.name, description: t.description }));
}

export function buildManifest(pkg: PackageJson, tools: readonly ToolLike[]): Record<string, unknown> {
  return {
    manifest_version: "0.3",
    name: pkg.name,
    display_name: "Crypto Metrics",
    version: pkg.version,
    description: pkg.description,
    long_description:
      `${tools.length} tools over ${ENDPOINTS.length} crypto market and on-chain endpoints (derivatives and spot volume and trades, ` +
      `${ENDPOINTS.filter((e) => e.kind === "series").length} daily on-chain and market series, per-asset metrics variation, liquidation heatmaps) ` +
      `for ${ASSET_SETS.A.members!.length} assets. Long series and heatmap matrices come back as compact digests. ` +
      "Works out of the box with a built-in deterministic data service; set the service URL and API key to use the real API.",
    author: { name: "crypto-metrics-mcp contributors" },
    license: pkg.license,
    keywords: ["crypto", "bitcoin", "on-chain", "derivatives", "liquidations", "market data"],
    icon: "icon.png",
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
    tools: manifestTools(tools),
    tools_generated: false,
    user_config: {
      api_key: {
        type: "string",
        title: "API key",
        description: "Key for the real service (sent as X-Api-Key). Leave empty to use the built-in service with its local key.",
        sensitive: true,
        required: false,
        default: "",
      },
      base_url: {
        type: "string",
        title: "Service base URL",
        description: "Address of the real service, e.g. https://api.example.com. Leave empty for the built-in deterministic service.",
        required: false,
        default: "",
      },
      // Secret because a postgres:// URL may carry the database password; a sqlite: path loses nothing by it.
      store: {
        type: "string",
        title: "Metering store",
        description:
          "Where the built-in service keeps credits and rate windows: a postgres://USER:PASSWORD@HOST/DATABASE URL shared by several servers, " +
          "or sqlite:/path/to/file.sqlite. Leave empty for the embedded file in the state directory.",
        sensitive: true,
        required: false,
        default: "",
      },
    },
    compatibility: {
      platforms: ["darwin", "win32", "linux"],
      // The bundle carries no native SQLite driver: it needs node:sqlite without a flag (scripts/pack.ts checks).
      runtimes: { node: `>=${BUILTIN_SQLITE_NODE.join(".")}.0` },
    },
  };
}

function argumentList(tool: ToolLike): string {
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const names = Object.keys(schema.properties ?? {});
  return names.length ? names.map((n) => `\`${n}${required.has(n) ? "" : "?"}\``).join(", ") : "none";
}

/** The README table: one row per tool, its arguments (`?` = optional) and its description. */
export function toolTable(tools: readonly ToolLike[]): string {
  const rows = tools.map((t) => `| \`${t.name}\` | ${t.title ?? ""} | ${argumentList(t)} | ${t.description.replace(/\|/g, "\\|")} |`);
  return ["| Tool | Title | Arguments (`?` optional) | Description |", "|---|---|---|---|", ...rows].join("\n");
}

export function spliceReadme(readme: string, table: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start === -1 || end === -1 || end < start)
    throw new Error(`README.md needs ${README_START} … ${README_END} markers around the tool table`);
  return `${readme.slice(0, start + README_START.length)}\n${table}\n${readme.slice(end)}`;
}

function main(): void {
  const check = process.argv.includes("--check");
  const tools = allTools.map((tool) => toolListing(tool, false));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;
  const files = [
    { path: join(ROOT, "manifest.json"), next: `${JSON.stringify(buildManifest(pkg, tools), null, 2)}\n` },
    { path: join(ROOT, "server.json"), next: `${JSON.stringify(buildServerJson(pkg), null, 2)}\n` },
    { path: join(ROOT, "README.md"), next: spliceReadme(readFileSync(join(ROOT, "README.md"), "utf8"), toolTable(tools)) },
  ];
  let drift = false;
  for (const { path, next } of files) {
    let current = "";
    try {
      current = readFileSync(path, "utf8");
    } catch {
      // A missing file is drift too.
    }
    if (current === next) continue;
    drift = true;
    if (check) process.stderr.write(`${path} is out of date: run npm run docs\n`);
    else writeFileSync(path, next);
  }
  if (check && drift) process.exit(1);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
