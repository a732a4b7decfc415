// Pictures over a real stdio session: each chart: true call beside the same call without it,
// alternated in one session so both see the same machine; PNG sizes; what a client that renders
// MCP Apps views sees in tools/list and structuredContent beside a client that does not.
import { readFileSync } from "node:fs";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer";

import { CLI, type Sandbox } from "./proc.js";
import { human, latency, msSince } from "./stats.js";
import type { Row } from "./table.js";

const UI_CAPABILITIES = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };

const EIGHT = ["btc", "eth", "sol", "xrp", "bnb", "doge", "ada", "link"];
/** The answers whose views carried the most data: each default call, the 30m/30d heatmap, 1m × 1 day, an 8-asset compare. */
const VIEW_CASES = [
  { label: "heatmap btc (default)", tool: "get_liquidation_heatmap", args: { asset: "btc" } },
  { label: "heatmap eth 30m/30d", tool: "get_liquidation_heatmap", args: { asset: "eth", timeframe: "30m", lookback: "30d" } },
  { label: "compare price of 8 assets (default)", tool: "compare", args: { metric: "price", assets: EIGHT } },
  { label: "get_ohlcv price btc (default)", tool: "get_ohlcv", args: { metric: "price", asset: "btc" } },
  { label: "get_series lth_mvrv btc (default)", tool: "get_series", args: { metric: "lifespan/Lth_mvrv", asset: "btc" } },
  {
    label: "get_ohlcv volume_usd 1m × 1 day",
    tool: "get_ohlcv",
    args: { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", startDate: "2025-12-30", endDate: "2025-12-30" },
  },
] as const;

const CASES = [
  { label: "get_liquidation_heatmap btc 6h/2y", tool: "get_liquidation_heatmap", args: { asset: "btc" } },
  { label: "get_series lth_mvrv btc", tool: "get_series", args: { metric: "lifespan/Lth_mvrv", asset: "btc" } },
  { label: "get_ohlcv volume_usd btc 1h", tool: "get_ohlcv", args: { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h" } },
] as const;

/**
 * The server's CPU time so far (user + system, ms) from /proc: on a shared machine wall-clock
 * latency swings with other load, the CPU a call costs much less. NaN where /proc is absent.
 */
function cpuMs(pid: number | null): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** What the answers rows need of a client, in either SDK (the 2025-era v1 one, the 2026-07-28 v2 one). */
interface Caller {
  listTools(): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{
    content?: unknown;
    structuredContent?: unknown;
    _meta?: unknown;
  }>;
}

/** A 2026-07-28 session over stdio (the SDK v2 client pinned to that version): per-request capabilities. */
async function modernSession<T>(sandbox: Sandbox, ui: boolean, run: (client: Caller) => Promise<T>): Promise<T> {
  const { Client: ModernClient } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport: ModernStdio } = await import("@modelcontextprotocol/client/stdio");
  const client = new ModernClient(
    { name: "crypto-metrics-bench", version: "1.0.0" },
    { capabilities: ui ? UI_CAPABILITIES : {}, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new ModernStdio({ command: process.execPath, args: [CLI], env: sandbox.env as Record<string, string>, stderr: "pipe" }),
  );
  try {
    return await run(client as unknown as Caller);
  } finally {
    await client.close();
  }
}

async function session<T>(sandbox: Sandbox, ui: boolean, run: (client: Client, cpu: () => number) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: sandbox.env as Record<string, string>,
    stderr: "pipe",
  });
  const client = new Client({ name: "crypto-metrics-bench", version: "1.0.0" }, { capabilities: ui ? UI_CAPABILITIES : {} });
  await client.connect(transport);
  try {
    return await run(client, () => cpuMs(transport.pid));
  } finally {
    await client.close();
  }
}

export async function chartsSection(sandbox: Sandbox, rows: Row[], calls: number, warmup: number): Promise<unknown> {
  const figures = await session(sandbox, false, async (client, cpu) => {
    const out = [];
    for (const c of CASES) {
      const plain: number[] = [];
      const chart: number[] = [];
      let pngBytes = 0;
      let cpuPlain = 0;
      let cpuChart = 0;
      for (let i = 0; i < warmup + calls; i++) {
        // Alternate so a burst of load elsewhere on the machine hits both sides alike.
        let c0 = cpu();
        let t0 = process.hrtime.bigint();
        await client.callTool({ name: c.tool, arguments: c.args });
        const a = msSince(t0);
        let c1 = cpu();
        if (i >= warmup) cpuPlain += c1 - c0;
        c0 = c1;
        t0 = process.hrtime.bigint();
        const r = await client.callTool({ name: c.tool, arguments: { ...c.args, chart: true } });
        const b = msSince(t0);
        c1 = cpu();
        if (i >= warmup) cpuChart += c1 - c0;
        const image = (r.content as Array<{ type: string; data?: string }>).find((x) => x.type === "image");
        if (!image?.data) throw new Error(`${c.label}: chart: true returned no image`);
        pngBytes = Buffer.from(image.data, "base64").length;
        if (i >= warmup) {
          plain.push(a);
          chart.push(b);
        }
      }
      out.push({
        label: c.label,
        tool: c.tool,
        plain: latency(plain),
        chart: latency(chart),
        pngBytes,
        cpuPlainMs: cpuPlain / calls,
        cpuChartMs: cpuChart / calls,
      });
    }
    return out;
  });
  for (const f of figures) {
    const extra = f.chart.p50 - f.plain.p50;
    const png = `PNG ${human(f.pngBytes / 1024)} KB; server CPU per call ${human(f.cpuChartMs)} vs ${human(f.cpuPlainMs)} ms`;
    if (f.tool === "get_liquidation_heatmap") {
      rows.push({
        metric: `${f.label} with chart: true, p50`,
        unit: "ms",
        ours: f.chart.p50,
        oursDetail: `p95 ${human(f.chart.p95)}; ${png}`,
        baseline: f.plain.p50,
        baselineNote: "same call, no chart",
        baselineDetail: `p95 ${human(f.plain.p95)}`,
        target: { on: "ratio", op: "<=", value: 2 },
      });
    } else {
      rows.push({
        metric: `${f.label}: extra p50 for chart: true`,
        unit: "ms",
        ours: extra,
        oursDetail: `${human(f.chart.p50)} vs ${human(f.plain.p50)} ms, ${png}`,
        target: { on: "ours", op: "<=", value: 30 },
      });
    }
    rows.push({ metric: `${f.label}: PNG size`, unit: "bytes", ours: f.pngBytes, target: { on: "ours", op: "<=", value: 150 * 1024 } });
  }

  // A client that renders views: the model's fields must be the same as without the extension; the
  // view's data rides in _meta (inline when small, else a handle read through view_data).
  const listed = async (client: Client) => countTokens(JSON.stringify(await client.listTools()));
  const answers = async (client: Caller) => {
    const out: Array<{ label: string; text: number; structured: number; meta: number }> = [];
    for (const c of VIEW_CASES) {
      const r = await client.callTool({ name: c.tool, arguments: c.args });
      const text = (r.content as Array<{ type: string; text?: string }>)
        .filter((x) => x.type === "text")
        .map((x) => x.text)
        .join("\n");
      out.push({
        label: c.label,
        text: countTokens(text),
        structured: countTokens(JSON.stringify(r.structuredContent ?? null)),
        meta: r._meta ? countTokens(JSON.stringify(r._meta)) : 0,
      });
    }
    return out;
  };
  const plain = await session(sandbox, false, async (client) => ({ tokens: await listed(client), answers: await answers(client) }));
  const plainTokens = plain.tokens;
  const ui = await session(sandbox, true, async (client) => {
    const tokens = await listed(client);
    const got = await answers(client);
    // The largest view: the 30m/30d heatmap, its data read back through view_data.
    const heat = await client.callTool({ name: "get_liquidation_heatmap", arguments: { asset: "eth", timeframe: "30m", lookback: "30d" } });
    const handle = (heat._meta as Record<string, { handle: string }>)["io.github.crypto-metrics-mcp/view"]!.handle;
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 3 + calls; i++) {
      const t0 = process.hrtime.bigint();
      const r = await client.callTool({ name: "view_data", arguments: { handle } });
      if (i >= 3) samples.push(msSince(t0));
      bytes = (r.structuredContent as { total: number }).total;
    }
    return { tokens, answers: got, viewData: { bytes, latency: latency(samples) } };
  });
  // The same answers in the 2026-07-28 era, where the capabilities travel in each request.
  const modernPlain = await modernSession(sandbox, false, answers);
  const modernUi = await modernSession(sandbox, true, answers);
  rows.push({
    metric: "the full tools/list response, client rendering MCP Apps views",
    unit: "tokens",
    ours: ui.tokens,
    baseline: plainTokens,
    baselineNote: "client without the UI extension (unchanged by views)",
  });
  // Each answer's structuredContent against its text, in each era; the 2025 era also its _meta.
  const eras = [
    { era: "", withUi: ui.answers, without: plain.answers },
    { era: ", 2026-07-28", withUi: modernUi, without: modernPlain },
  ];
  for (const { era, withUi, without } of eras) {
    for (const [i, a] of withUi.entries()) {
      const b = without[i]!;
      rows.push({
        metric: `${a.label}, UI client${era}: structuredContent vs the text`,
        unit: "tokens",
        ours: a.structured,
        oursDetail: `without the extension ${human(b.structured)} (text ${human(b.text)}); _meta ${human(a.meta)} tokens`,
        baseline: a.text,
        baselineNote: "text content",
        target: { on: "ratio", op: "<=", value: 1.3 },
      });
      if (!era)
        rows.push({
          metric: `${a.label}, UI client: _meta (the view's data or its handle)`,
          unit: "tokens",
          ours: a.meta,
          target: { on: "ours", op: "<=", value: 8_000 },
        });
    }
  }
  rows.push({
    metric: "view_data for the largest view (heatmap eth 30m/30d), p50",
    unit: "ms",
    ours: ui.viewData.latency.p50,
    oursDetail: `${human(ui.viewData.bytes / 1024)} KB in one chunk; p95 ${human(ui.viewData.latency.p95)}`,
  });
  return { figures, plainTokens, ui, modern: { plain: modernPlain, ui: modernUi } };
}
