// A 50-asset rank_assets call against the same 50 reads made as separate get_series (or get_ohlcv)
// calls, both through one MCP client in this process on the embedded service, warm, same key and clock.
import { join } from "node:path";

import { mcpRig } from "../harness/mcp.js";
import { InProcessBackend } from "../src/backend/inprocess/backend.js";
import { KEY, NOW, type Sandbox } from "./proc.js";
import { median } from "./stats.js";
import type { Row } from "./table.js";

const RUNS = 15;
const WARM = 3;

interface RankOut {
  from: string;
  asOf: string;
  rows: Array<[number, string, number, number]>;
  excluded?: Array<{ assets: string[] }>;
  reads: number;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARM; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function measureRank(sandbox: Sandbox): Promise<{ rows: Row[]; detail: unknown }> {
  const nowMs = Date.parse(NOW);
  const backend = await InProcessBackend.create({
    apiKey: KEY,
    keysFile: sandbox.keysFile,
    stateDir: join(sandbox.dir, "rank-state"),
    now: () => nowMs,
  });
  const rig = await mcpRig(backend, { configuredKey: KEY, now: () => nowMs });
  const rows: Row[] = [];
  const detail: Record<string, unknown> = {};
  const cases = [
    {
      name: "market/metcalfe_ratio 30d change",
      args: { metric: "market/metcalfe_ratio", window: "30d" },
      tool: "get_series",
      extra: {},
      stepMs: 86_400_000,
    },
    { name: "price 24h change (the default)", args: {}, tool: "get_ohlcv", extra: { metric: "price", timeframe: "1h" }, stepMs: 3_600_000 },
  ];
  try {
    for (const c of cases) {
      const first = await rig.call("rank_assets", { ...c.args, limit: 25 });
      if (first.isError) throw new Error(`rank_assets ${JSON.stringify(c.args)} failed`);
      const out = first.structuredContent as unknown as RankOut;
      const left = new Set((out.excluded ?? []).flatMap((e) => e.assets));
      const assets = out.rows.map((r) => r[1]).concat([...left]);
      // The separate reads ask the range the rank reads: from a bucket before the window to now.
      const startDate = new Date(Date.parse(out.from) - 3 * c.stepMs).toISOString();
      const metric = (c.args as { metric?: string }).metric ?? "price";
      const rankMs = await timed(() => rig.call("rank_assets", c.args));
      const separateMs = await timed(async () => {
        for (const asset of assets) await rig.call(c.tool, { metric, asset, startDate, ...c.extra });
      });
      detail[c.name] = { rankMs, separateMs, reads: out.reads };
      rows.push({
        metric: `rank_assets over 50 assets, ${c.name}: one call, warm (median of ${RUNS})`,
        unit: "ms",
        ours: rankMs,
        oursDetail: `${out.reads} reads`,
        baseline: separateMs,
        baselineNote: `the same ${out.reads} reads as ${c.tool} calls in one process`,
        target: { on: "ours", op: "<=", value: 150 },
      });
      rows.push({
        metric: `rank_assets over 50 assets, ${c.name}: against the separate reads`,
        unit: "ms",
        ours: rankMs,
        baseline: separateMs,
        baselineNote: `${out.reads} ${c.tool} calls`,
        target: { on: "ratio", op: "<=", value: 1 },
      });
    }
  } finally {
    await rig.close();
    await backend.close();
  }
  return { rows, detail };
}
