// `npm run demo`: builds if needed, starts `node dist/cli.js` over stdio as Claude Desktop would,
// and drives a short scripted session through every tool, printing what the model reads.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

import { newestMtime } from "../harness/cli.js";

const ROOT = join(import.meta.dirname, "..");
const ENTRY = join(ROOT, "dist", "cli.js");
const NOW = "2025-12-28T12:00:00Z";
/** Where the charts the session asks for (`chart: true`) are written as PNG files. */
const CHARTS = join(ROOT, "demo-output");

const STEPS: Array<{ why: string; tool: string; args: Record<string, unknown> }> = [
  { why: "Which assets does the CVDD price floor cover?", tool: "list_assets", args: { metric: "lifespan/Cvdd" } },
  {
    why: "ETH held on exchanges this year",
    tool: "get_series",
    args: { metric: "exchange_flow/exchange_reserve", asset: "eth", startDate: "2025-01-01" },
  },
  {
    why: "BTC derivatives volume (all market types), hourly, last 7 days",
    tool: "get_ohlcv",
    args: { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h", startDate: "2025-12-21" },
  },
  { why: "Everything tracked for SOL at a glance", tool: "get_metrics_variation", args: { asset: "sol" } },
  {
    why: "Where would BTC longs and shorts be liquidated? (with a chart)",
    tool: "get_liquidation_heatmap",
    args: { asset: "btc", timeframe: "1h", chart: true },
  },
  {
    why: "BTC's price this quarter: candles, range, largest moves (with a chart)",
    tool: "get_ohlcv",
    args: { metric: "price", asset: "btc", startDate: "2025-10-01", chart: true },
  },
  {
    why: "Four majors side by side this year (with a chart)",
    tool: "compare",
    args: { metric: "price", assets: ["btc", "eth", "sol", "xrp"], startDate: "2025-01-01", chart: true },
  },
  {
    why: "A name instead of a ticker: the error says which ticker",
    tool: "get_series",
    args: { metric: "lifespan/Cvdd", asset: "dogecoin" },
  },
];

function buildIfNeeded(): void {
  if (existsSync(ENTRY) && statSync(ENTRY).mtimeMs >= newestMtime(join(ROOT, "src"))) return;
  process.stderr.write("building dist/ (npm run build) …\n");
  // The package's own build script, whatever it does; npm sets npm_execpath when it runs this script.
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, "run", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] })
    : spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], shell: process.platform === "win32" });
  if (result.status !== 0) throw new Error("the build failed; see the output above");
}

async function main(): Promise<void> {
  buildIfNeeded();
  const stateDir = mkdtempSync(join(tmpdir(), "crypto-metrics-demo-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ENTRY],
    env: { PATH: process.env.PATH ?? "", CRYPTO_METRICS_NOW: NOW, CRYPTO_METRICS_STATE_DIR: stateDir, CRYPTO_METRICS_LOG_LEVEL: "warn" },
    stderr: "inherit",
  });
  const client = new Client({ name: "crypto-metrics-demo", version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const out = (text: string) => process.stdout.write(`${text}\n`);
    out(`Connected over stdio to ${client.getServerVersion()?.name} ${client.getServerVersion()?.version} (data pinned at ${NOW}).`);
    out(`Tools: ${tools.map((t) => t.name).join(", ")}\n`);
    for (const step of STEPS) {
      const result = (await client.callTool({ name: step.tool, arguments: step.args })) as CallToolResult;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      out(`━━ ${step.why}`);
      out(`▶ ${step.tool} ${JSON.stringify(step.args)}${result.isError ? "  → isError" : ""}`);
      out(`${text}`);
      for (const block of result.content) {
        if (block.type !== "image") continue;
        mkdirSync(CHARTS, { recursive: true });
        const who = Array.isArray(step.args.assets) ? step.args.assets.join("_") : String(step.args.asset);
        const file = join(CHARTS, `${step.tool}-${who}${step.args.metric ? `-${String(step.args.metric).replace(/\W+/g, "_")}` : ""}.png`);
        writeFileSync(file, Buffer.from(block.data, "base64"));
        out(`[chart: ${block.mimeType}, ${Math.round(Buffer.from(block.data, "base64").length / 1024)} KB, written to ${file}]`);
      }
      out("");
    }
  } finally {
    await client.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
