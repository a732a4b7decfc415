// Regenerates manifest.json (MCPB 0.3, tools from the tool definitions), server.json (MCP Registry,
// from package.json) and every generated block of README.md and docs/*.md: the text between
// <!-- generated:NAME --> and <!-- /generated:NAME --> (the tool table, the help texts, the bench's
// figures from bench/results.json, the bundle's files from docs/bundle.json). `--check` exits 1 when
// any has drifted; test/scripts/docs-drift.test.ts fails on the same.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

import { type JudgedRow, renderTable } from "../bench/table.js";
import { callHelp } from "../src/call/help.js";
import { ASSET_SETS, ENDPOINTS } from "../src/catalog/index.js";
import { BUILTIN_SQLITE_NODE } from "../src/min-node.js";
import { allTools } from "../src/tools/index.js";
import { type ListedTool, toolListing } from "../src/tools/listing.js";
import { bundledDistFiles } from "./pack.js";
import { buildServerJson } from "./server-json.js";

const ROOT = join(import.meta.dirname, "..");
export const README_START = "<!-- generated:tools -->";
export const README_END = "<!-- /generated:tools -->";

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

/** The files whose blocks are generated: the README and every page of docs/. */
export function docFiles(): string[] {
  return [
    "README.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => `docs/${f}`),
  ];
}

const BLOCK = /<!-- generated:([a-z0-9-]+) -->([\s\S]*?)<!-- \/generated:\1 -->/g;

/** The names of the generated blocks a text holds, in order. */
export function blockNames(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((m) => m[1]!);
}

/**
 * The text with each generated block's content replaced by `contents[name]`; a block on one line
 * stays inline, one on its own lines keeps its content on lines of its own. An unknown name is an error.
 */
export function spliceBlocks(text: string, contents: Record<string, string>): string {
  return text.replace(BLOCK, (whole, name: string, inner: string) => {
    const next = contents[name];
    if (next === undefined) throw new Error(`no generator for the block ${name}: see scripts/generate-docs.ts`);
    const inline = !inner.includes("\n");
    return `<!-- generated:${name} -->${inline ? next : `\n${next}\n`}<!-- /generated:${name} -->`;
  });
}

interface BenchResults {
  machine: string;
  notes: string[];
  table: JudgedRow[];
}

/**
 * Bundle figures recorded by `npm run docs` from the last build: what the .mcpb holds but its
 * package.json and the README (whose size the README cannot state).
 */
export interface BundleRecord {
  files: Array<{ name: string; bytes: number }>;
  views: { files: number; bytes: number; gzipBytes: number };
}

const kb = (bytes: number) => `${(bytes / 1024).toLocaleString("en-US", { maximumFractionDigits: 1 })} KB`;
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const fig = (n: number) => (n >= 100 ? int(n) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

function row(results: BenchResults, start: string): JudgedRow {
  const found = results.table.find((r) => r.metric.startsWith(start));
  if (!found) throw new Error(`bench/results.json has no row starting "${start}": run npm run bench`);
  return found;
}

/** Every generated block's content, by name, from the code, bench/results.json and docs/bundle.json. */
export function blockContents(root = ROOT): Record<string, string> {
  const tools = allTools.map((tool) => toolListing(tool, false));
  const results = JSON.parse(readFileSync(join(root, "bench", "results.json"), "utf8")) as BenchResults;
  const bundle = JSON.parse(readFileSync(join(root, "docs", "bundle.json"), "utf8")) as BundleRecord;
  const usage = execFileSync(process.execPath, ["--import", "tsx", join(root, "src", "cli.ts"), "--help"], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
  });
  const byKind = (test: (name: string) => boolean) => bundle.files.filter((f) => test(f.name));
  const sum = (files: Array<{ bytes: number }>) => files.reduce((s, f) => s + f.bytes, 0);
  const js = byKind((n) => n.endsWith(".js"));
  const wasm = byKind((n) => n.endsWith(".wasm"));
  const fonts = byKind((n) => n.endsWith(".otf"));
  const html = byKind((n) => n.endsWith(".html"));
  const listed = (r: JudgedRow) => `${int(r.ours)} ${r.unit}`;
  const startRows = results.table.filter((r) => /^cold start on Node [\d.]+: spawn → tools\/list vs a bare Node/.test(r.metric));
  const minimalRows = results.table.filter((r) => /^cold start on Node [\d.]+: spawn → tools\/list vs the minimal SDK/.test(r.metric));
  const callRows = results.table.filter((r) => /^`call get_series` \(lth_mvrv btc\) on Node/.test(r.metric));
  const nodeOf = (r: JudgedRow) => /Node ([\d.]+)/.exec(r.metric)![1]!;
  const batch = row(results, "200 get_metrics_variation calls");
  const sdk = row(results, "an SDK (v1) client's listTools()");
  return {
    tools: toolTable(tools),
    usage: `\`\`\`text\n$ crypto-metrics-mcp --help\n${usage.trimEnd()}\n\`\`\``,
    "call-help": `\`\`\`text\n$ crypto-metrics-mcp call --help\n${callHelp().trimEnd()}\n\`\`\``,
    "bundle-files": `${bundle.files.length + 2} files (with its own package.json and this README): JavaScript ${kb(sum(js))}, views ${kb(sum(html))}, \`resvg.wasm\` ${kb(sum(wasm))}, fonts ${kb(sum(fonts))}, unpacked`,
    "bundle-list": ["| file | bytes |", "|---|---|", ...bundle.files.map((f) => `| \`${f.name}\` | ${int(f.bytes)} |`)].join("\n"),
    views: `${bundle.views.files} files, ${kb(bundle.views.bytes)} (${kb(bundle.views.gzipBytes)} gzipped)`,
    "listing-tokens": `${listed(row(results, "tools/list + instructions as hosts give them"))} measured`,
    "full-listing-tokens": listed(row(results, "the full tools/list response")),
    "batch-figures": `${int(batch.ours)} ms as one \`call --batch\`, against ${int(batch.baseline!)} ms as ${batch.metric.match(/^(\d+)/)![1]} \`call\` processes (${fig(batch.baseline! / batch.ours)}× more)`,
    "bench-summary": [
      ...startRows.map(
        (r) =>
          `- Start on Node ${nodeOf(r)} (spawn → \`tools/list\` answered): ${fig(r.ours)} ms, ${fig(r.ratio!)}× a bare Node process answering the same lines${(() => {
            const m = minimalRows.find((x) => nodeOf(x) === nodeOf(r));
            return m ? `, ${fig(m.ratio!)}× the minimal SDK server` : "";
          })()}.`,
      ),
      ...callRows.map(
        (r) => `- One \`call get_series\` on Node ${nodeOf(r)}, spawn to exit: ${fig(r.ours)} ms, ${fig(r.ratio!)}× \`node -e 0\`.`,
      ),
      `- An SDK client's \`tools/list\`: ${fig(sdk.ours)} ms over the same answer taken as plain JSON.`,
      `- ${batch.metric.match(/^(\d+)/)![1]} calls as one \`call --batch\`: ${fig(batch.ratio!)}× the time of as many \`call\` processes.`,
    ].join("\n"),
    "bench-table": renderTable(results.table),
    "bench-notes": results.notes.map((n) => `- ${n}`).join("\n"),
  };
}

/** What `npm run docs` records of the built bundle: dist/ as the .mcpb holds it, and the views. */
export function recordBundle(root = ROOT, dist = join(root, "dist")): BundleRecord | undefined {
  if (!existsSync(join(dist, "cli.js"))) return undefined;
  const files = bundledDistFiles(dist).map((f) => ({ name: `dist/${f}`, bytes: statSync(join(dist, f)).size }));
  const others = ["manifest.json", "LICENSE", "assets/icon.png"].map((f) => ({
    name: f === "assets/icon.png" ? "icon.png" : f,
    bytes: statSync(join(root, f)).size,
  }));
  const html = files.filter((f) => f.name.endsWith(".html"));
  const gzipBytes = html.reduce((s, f) => s + gzipSync(readFileSync(join(dist, f.name.slice("dist/".length))), { level: 9 }).length, 0);
  return {
    files: [...others, ...files],
    views: { files: html.length, bytes: html.reduce((s, f) => s + f.bytes, 0), gzipBytes },
  };
}

function main(): void {
  const check = process.argv.includes("--check");
  const tools = allTools.map((tool) => toolListing(tool, false));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;
  const files: Array<{ path: string; next: string }> = [];
  // The bundle's figures are taken from the last build (npm run build); without one they stay as recorded.
  const bundle = check ? undefined : recordBundle();
  if (bundle) writeFileSync(join(ROOT, "docs", "bundle.json"), `${JSON.stringify(bundle, null, 2)}\n`);
  const contents = blockContents();
  files.push(
    { path: join(ROOT, "manifest.json"), next: `${JSON.stringify(buildManifest(pkg, tools), null, 2)}\n` },
    { path: join(ROOT, "server.json"), next: `${JSON.stringify(buildServerJson(pkg), null, 2)}\n` },
    ...docFiles().map((f) => ({ path: join(ROOT, f), next: spliceBlocks(readFileSync(join(ROOT, f), "utf8"), contents) })),
  );
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
