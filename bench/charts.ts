// Pictures over a real stdio session: each chart: true call beside the same call without it,
// alternated in one session so both see the same machine; PNG sizes; what a client that renders
// MCP Apps views sees in tools/list and structuredContent beside a client that does not.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer";
import { readFileSync } from "node:fs";
import { CLI, type Sandbox } from "./proc.js";
import { human, latency, msSince } from "./stats.js";
import type { Row } from "./table.js";

const UI_CAPABILITIES = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };

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

  // A client that renders views: _meta.ui on three tools, and the view data in structuredContent.
  const listed = async (client: Client) => countTokens(JSON.stringify(await client.listTools()));
  const plainTokens = await session(sandbox, false, listed);
  const ui = await session(sandbox, true, async (client) => {
    const tokens = await listed(client);
    const r = await client.callTool({ name: "get_liquidation_heatmap", arguments: { asset: "btc" } });
    return { tokens, viewBytes: Buffer.byteLength(JSON.stringify((r.structuredContent as { view?: unknown }).view ?? null)) };
  });
  rows.push({
    metric: "the full tools/list response, client rendering MCP Apps views",
    unit: "tokens",
    ours: ui.tokens,
    baseline: plainTokens,
    baselineNote: "client without the UI extension (unchanged by views)",
  });
  rows.push({ metric: "heatmap 6h/2y structuredContent.view (UI clients only; not model context)", unit: "bytes", ours: ui.viewBytes });
  return { figures, plainTokens, ui };
}
