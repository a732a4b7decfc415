// Over a real stdio session (SDK Client + StdioClientTransport → node dist/cli.js): tools/list and
// instructions size, per-tool latency and response tokens, and the server's peak RSS afterwards.
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer";

import { BENCH_DIR, cleanEnv, CLI, peakRssMb, type Sandbox } from "./proc.js";
import { type Latency, latency, msSince, round } from "./stats.js";

/** gpt-tokenizer's default encoding (GPT-4o family). */
export const ENCODING = "o200k_base";

export interface ToolCase {
  id: string;
  label: string;
  tool: string;
  args: Record<string, unknown>;
  /** Token budget of the text content, when one applies. */
  maxTokens?: number;
}

/** The eight assets the compare rows line up. */
export const COMPARE_ASSETS = ["btc", "eth", "sol", "xrp", "bnb", "doge", "ada", "link"];

export const TOOL_CASES: readonly ToolCase[] = [
  { id: "list_assets", label: "list_assets (default)", tool: "list_assets", args: {}, maxTokens: 1_500 },
  {
    id: "get_series",
    label: "get_series lth_mvrv btc (default)",
    tool: "get_series",
    args: { metric: "lifespan/Lth_mvrv", asset: "btc" },
    maxTokens: 1_500,
  },
  {
    id: "get_ohlcv",
    label: "get_ohlcv volume_usd btc (default)",
    tool: "get_ohlcv",
    args: { metric: "derivatives/Volume_usd", asset: "btc" },
    maxTokens: 1_500,
  },
  {
    id: "get_metrics_variation",
    label: "get_metrics_variation btc",
    tool: "get_metrics_variation",
    args: { asset: "btc" },
    maxTokens: 1_500,
  },
  {
    id: "get_liquidation_heatmap",
    label: "get_liquidation_heatmap btc (default 6h/2y)",
    tool: "get_liquidation_heatmap",
    args: { asset: "btc" },
    maxTokens: 2_000,
  },
  {
    id: "ohlcv_1m_1d",
    label: "get_ohlcv volume_usd 1m × 1 day (1,440 pts)",
    tool: "get_ohlcv",
    args: { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", startDate: "2025-12-30", endDate: "2025-12-30" },
  },
  {
    id: "ohlcv_1m_60d",
    label: "get_ohlcv volume_usd 1m × 60 days (86,400 pts)",
    tool: "get_ohlcv",
    args: { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", startDate: "2025-11-01", endDate: "2025-12-30" },
  },
  {
    id: "heatmap_30m_30d",
    label: "get_liquidation_heatmap btc 30m/30d",
    tool: "get_liquidation_heatmap",
    args: { asset: "btc", timeframe: "30m", lookback: "30d" },
    maxTokens: 2_000,
  },
  {
    id: "price_1y",
    label: "get_ohlcv price btc, 1 year daily",
    tool: "get_ohlcv",
    args: { metric: "price", asset: "btc", startDate: "2025-01-01", endDate: "2025-12-30" },
    maxTokens: 1_500,
  },
  {
    id: "compare_8",
    label: "compare price of 8 assets, 1 year daily",
    tool: "compare",
    args: { metric: "price", assets: COMPARE_ASSETS, startDate: "2025-01-01", endDate: "2025-12-30" },
    maxTokens: 1_500,
  },
  {
    id: "compare_8_default",
    label: "compare price of 8 assets (default range)",
    tool: "compare",
    args: { metric: "price", assets: COMPARE_ASSETS },
    maxTokens: 1_500,
  },
  {
    id: "heatmap_6h_2y",
    label: "get_liquidation_heatmap btc 6h/2y",
    tool: "get_liquidation_heatmap",
    args: { asset: "btc", timeframe: "6h", lookback: "2y" },
    maxTokens: 2_000,
  },
];

export interface ToolFigure {
  id: string;
  label: string;
  tool: string;
  args: Record<string, unknown>;
  calls: number;
  latencyMs: Latency;
  responseBytes: number;
  responseTokens: number;
  /** JSON.stringify(structuredContent): what hosts that forward it give the model instead of the text. */
  structuredBytes: number;
  structuredTokens: number;
}

export interface StdioRun {
  encoding: string;
  /** What hosts give the model of tools/list: each tool's name, description and input schema. */
  toolsListBytes: number;
  toolsListTokens: number;
  /** The whole tools/list response, output schemas, titles and annotations included. */
  fullListBytes: number;
  fullListTokens: number;
  instructionsBytes: number;
  instructionsTokens: number;
  tools: ToolFigure[];
  peakRssMb: number;
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return content
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n");
}

/** The part of tools/list hosts put in the model's context: names, descriptions, input schemas. */
export function modelListing(tools: ReadonlyArray<{ name: string; description?: string; inputSchema: unknown }>): { tools: unknown[] } {
  return { tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) };
}

export async function measureStdio(sandbox: Sandbox, calls: number, warmup: number): Promise<StdioRun> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: sandbox.env as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => (stderr = (stderr + c.toString("utf8")).slice(-4_000)));
  const client = new Client({ name: "crypto-metrics-bench", version: "1.0.0" });
  try {
    await client.connect(transport);
    const list = await client.listTools();
    const listJson = JSON.stringify(modelListing(list.tools));
    const fullJson = JSON.stringify(list);
    const instructions = client.getInstructions() ?? "";
    const tools: ToolFigure[] = [];
    for (const c of TOOL_CASES) {
      let text = "";
      let structured = "";
      const samples: number[] = [];
      for (let i = 0; i < warmup + calls; i++) {
        const t0 = process.hrtime.bigint();
        const result = await client.callTool({ name: c.tool, arguments: c.args });
        const ms = msSince(t0);
        if (result.isError) throw new Error(`${c.label} failed: ${textOf(result).slice(0, 500)}`);
        if (i >= warmup) samples.push(ms);
        text = textOf(result);
        structured = JSON.stringify(result.structuredContent ?? null);
      }
      tools.push({
        id: c.id,
        label: c.label,
        tool: c.tool,
        args: c.args,
        calls,
        latencyMs: latency(samples),
        responseBytes: Buffer.byteLength(text),
        responseTokens: countTokens(text),
        structuredBytes: Buffer.byteLength(structured),
        structuredTokens: countTokens(structured),
      });
    }
    const pid = transport.pid;
    return {
      encoding: ENCODING,
      toolsListBytes: Buffer.byteLength(listJson),
      toolsListTokens: countTokens(listJson),
      fullListBytes: Buffer.byteLength(fullJson),
      fullListTokens: countTokens(fullJson),
      instructionsBytes: Buffer.byteLength(instructions),
      instructionsTokens: countTokens(instructions),
      tools,
      peakRssMb: round(pid === null ? NaN : peakRssMb(pid)),
    };
  } catch (err) {
    throw new Error(`${err instanceof Error ? err.message : String(err)}\nserver stderr: ${stderr}`, { cause: err });
  } finally {
    await client.close();
  }
}

export interface MinimalStdioRun {
  latencyMs: Latency;
  peakRssMb: number;
}

/** The minimal SDK server over the same kind of session: a trivial tool's round trip and its peak RSS. */
export async function measureMinimalStdio(sandbox: Sandbox, calls: number): Promise<MinimalStdioRun> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(BENCH_DIR, "minimal-server.mjs")],
    env: cleanEnv() as Record<string, string>,
    stderr: "pipe",
    cwd: sandbox.dir,
  });
  const client = new Client({ name: "crypto-metrics-bench", version: "1.0.0" });
  try {
    await client.connect(transport);
    const samples: number[] = [];
    for (let i = 0; i < calls + 3; i++) {
      const t0 = process.hrtime.bigint();
      await client.callTool({ name: "echo", arguments: { text: "hello" } });
      if (i >= 3) samples.push(msSince(t0));
    }
    const pid = transport.pid;
    return { latencyMs: latency(samples), peakRssMb: round(pid === null ? NaN : peakRssMb(pid)) };
  } finally {
    await client.close();
  }
}
