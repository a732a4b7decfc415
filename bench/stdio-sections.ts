// The sections measured over stdio: start-up against minimal servers, a session's latency and token
// sizes per tool, and the cost of a chart on the same calls.
import { chartsSection } from "./charts.js";
import { measureColdStart } from "./cold-start.js";
import { measureSdkListing } from "./sdk-list.js";
import { human } from "./stats.js";
import type { Row, Section } from "./table.js";
import { COMPARE_ASSETS, ENCODING, measureMinimalStdio, measureStdio, TOOL_CASES } from "./tools-stdio.js";

const COLD_RUNS = 15;
const SDK_LIST_RUNS = 12;
const TOOL_CALLS = 50;
const TOOL_WARMUP = 3;

export const COLD: Section = {
  name: "cold",
  progress: `start-up, ${COLD_RUNS} runs of each kind, interleaved`,
  async run(sandbox) {
    const c = await measureColdStart(sandbox, COLD_RUNS);
    const floors = `node -e 0: ${human(c.nodeE0.median)} ms`;
    const node = `Node ${process.versions.node}`;
    const rows: Row[] = [
      {
        metric: `cold start on ${node}: spawn → tools/list response (median of ${c.runs})`,
        unit: "ms",
        ours: c.ours.median,
        oursDetail: floors,
        baseline: c.minimal.median,
        baselineNote: "minimal SDK v2 server",
        target: { on: "ratio", op: "<=", value: 0.5 },
      },
      {
        metric: `cold start, a 2026-07-28 client: spawn → tools/list response, no initialize (median of ${c.runs})`,
        unit: "ms",
        ours: c.oursModern.median,
        baseline: c.minimalModern.median,
        baselineNote: "minimal SDK v2 server",
        target: { on: "ratio", op: "<=", value: 0.5 },
      },
      {
        metric: `cold start on ${node} vs the floor: a bare Node process answering the same lines (no SDK, same tools/list bytes)`,
        unit: "ms",
        ours: c.ours.median,
        baseline: c.raw.median,
        baselineNote: "raw responder",
      },
      {
        metric: "peak RSS at the tools/list response (VmHWM)",
        unit: "MB",
        ours: c.oursRssMb,
        baseline: c.minimalRssMb,
        baselineNote: "minimal SDK v2 server",
        target: { on: "ratio", op: "<=", value: 1 },
      },
      {
        metric: `\`${c.callArgs.slice(0, 2).join(" ")}\` (lth_mvrv btc) on ${node}, end to end: spawn → exit (median of ${c.runs})`,
        unit: "ms",
        ours: c.callGetSeries.median,
        baseline: c.callNodeE0.median,
        baselineNote: "node -e 0",
      },
      {
        metric: "the floor of such a call with this stack: zod-validated arguments, one SQLite charge (bench/call-floor.ts)",
        unit: "ms",
        ours: c.callFloor.median,
        baseline: c.callNodeE0.median,
        baselineNote: "node -e 0",
      },
      {
        metric: "`call get_series` beyond that floor",
        unit: "ms",
        ours: c.callGetSeries.median,
        baseline: c.callFloor.median,
        baselineNote: "the floor above",
      },
    ];
    for (const r of c.runtimes) {
      const on = `Node ${r.version}`;
      rows.push(
        {
          metric: `cold start on ${on}: spawn → tools/list vs a bare Node process answering the same lines (median of ${c.runs})`,
          unit: "ms",
          ours: r.ours.median,
          baseline: r.raw.median,
          baselineNote: "bare Node responder",
          target: { on: "ratio", op: "<=", value: 1.5 },
        },
        {
          metric: `cold start on ${on}: spawn → tools/list vs the minimal SDK server`,
          unit: "ms",
          ours: r.ours.median,
          baseline: r.minimal.median,
          baselineNote: "minimal SDK v2 server",
          target: { on: "ratio", op: "<=", value: 0.35 },
        },
        {
          metric: `\`${c.callArgs.slice(0, 2).join(" ")}\` (lth_mvrv btc) on ${on}, end to end: spawn → exit`,
          unit: "ms",
          ours: r.call.median,
          baseline: r.nodeE0.median,
          baselineNote: "node -e 0",
          ...(r.version.startsWith("24.") && { target: { on: "ratio" as const, op: "<=" as const, value: 3 } }),
        },
        {
          metric: `the floor of such a call on ${on}: zod-validated arguments, one node:sqlite charge (bench/call-floor.ts)`,
          unit: "ms",
          ours: r.callFloor.median,
          baseline: r.nodeE0.median,
          baselineNote: "node -e 0",
        },
      );
    }
    if (c.runtimes.length === 0)
      process.stderr.write(
        "bench: no Node 22/24 runtime (run .ci/run once, or set CRYPTO_METRICS_TEST_RUNTIMES): their start-up rows are left out\n",
      );
    const l = await measureSdkListing(sandbox, SDK_LIST_RUNS);
    rows.push({
      metric: `an SDK (v1) client's listTools() on a fresh connection: added over the same answer taken as plain JSON (median of ${l.runs})`,
      unit: "ms",
      ours: l.sdkMs - l.rawMs,
      oursDetail: `${human(l.sdkMs)} ms listTools() (result parsed, ${human(l.outputSchemaBytes)} bytes of output schemas compiled) vs ${human(l.rawMs)} ms plain`,
      target: { on: "ours", op: "<=", value: 10 },
    });
    rows.push(
      {
        metric:
          "… of which the SDK's own part: listTools() with a validator that compiles nothing, over the same answer taken as plain JSON",
        unit: "ms",
        ours: l.sdkNoCompileMs - l.rawMs,
        oursDetail: `${human(l.sdkNoCompileMs)} ms (result parsed, each tool cached) vs ${human(l.rawMs)} ms plain`,
      },
      {
        metric: "… and Ajv compiling our output schemas: listTools() over the same call compiling nothing",
        unit: "ms",
        ours: l.sdkMs - l.sdkNoCompileMs,
        oursDetail: `${human(l.sdkMs)} ms vs ${human(l.sdkNoCompileMs)} ms, ${human(l.outputSchemaBytes)} bytes of output schemas`,
      },
      {
        metric:
          "an SDK v2 client's listTools() on a fresh connection (it compiles a tool's output schema at its first call): added over the same answer taken as plain JSON",
        unit: "ms",
        ours: l.sdkV2Ms - l.rawMs,
        oursDetail: `${human(l.sdkV2Ms)} ms listTools() vs ${human(l.rawMs)} ms plain`,
      },
    );
    return { rows, detail: { ...c, sdkListing: l } };
  },
};

export const STDIO: Section = {
  name: "stdio",
  progress: `stdio session: ${TOOL_CASES.length} cases × ${TOOL_CALLS} calls`,
  async run(sandbox) {
    const stdio = await measureStdio(sandbox, TOOL_CALLS, TOOL_WARMUP);
    const minimal = await measureMinimalStdio(sandbox, TOOL_CALLS);
    const rows: Row[] = [
      {
        metric: `tools/list + instructions as hosts give them to the model: names, descriptions, input schemas (${ENCODING})`,
        unit: "tokens",
        ours: stdio.toolsListTokens + stdio.instructionsTokens,
        oursDetail: `${human(stdio.toolsListBytes + stdio.instructionsBytes)} bytes`,
        target: { on: "ours", op: "<=", value: 1_300 },
      },
      {
        metric: "the full tools/list response (output schemas, titles, annotations) + instructions",
        unit: "tokens",
        ours: stdio.fullListTokens + stdio.instructionsTokens,
        oursDetail: `${human(stdio.fullListBytes + stdio.instructionsBytes)} bytes`,
      },
    ];
    for (const t of stdio.tools) {
      const maxTokens = TOOL_CASES.find((c) => c.id === t.id)?.maxTokens;
      const p50Target = t.id === "get_series" ? 3 : t.id === "heatmap_30m_30d" ? 80 : t.id === "compare_8" ? 15 : undefined;
      rows.push({
        metric: `${t.label}: latency p50`,
        unit: "ms",
        ours: t.latencyMs.p50,
        oursDetail: `min ${human(t.latencyMs.min)}, p95 ${human(t.latencyMs.p95)}`,
        // The SDK's own round trip for a trivial tool over the same kind of stdio session.
        baseline: minimal.latencyMs.p50,
        baselineNote: "minimal SDK server, trivial tool",
        ...(p50Target !== undefined && { target: { on: "ours" as const, op: "<=" as const, value: p50Target } }),
      });
      rows.push({
        metric: `${t.label}: response`,
        unit: "tokens",
        ours: t.responseTokens,
        oursDetail: `${human(t.responseBytes)} bytes`,
        ...(maxTokens !== undefined && { target: { on: "ours" as const, op: "<=" as const, value: maxTokens } }),
      });
      // Hosts that forward JSON.stringify(structuredContent) give the model this instead of the text.
      rows.push({
        metric: `${t.label}: structuredContent vs the text`,
        unit: "tokens",
        ours: t.structuredTokens,
        oursDetail: `${human(t.structuredBytes)} bytes`,
        baseline: t.responseTokens,
        baselineNote: "text content",
        target: { on: "ratio", op: "<=", value: 1.3 },
      });
    }
    const byId = new Map(stdio.tools.map((t) => [t.id, t]));
    rows.push({
      metric: "1m volume_usd response: 60 days vs 1 day",
      unit: "tokens",
      ours: byId.get("ohlcv_1m_60d")!.responseTokens,
      baseline: byId.get("ohlcv_1m_1d")!.responseTokens,
      baselineNote: "1-day series",
      target: { on: "ratio", op: "<=", value: 1.3 },
    });
    // compare against what it replaces: one price call per asset, eight of them in a row.
    const price = byId.get("price_1y")!.latencyMs.p50;
    rows.push({
      metric: `compare vs ${COMPARE_ASSETS.length} separate price calls (1 year daily): latency p50`,
      unit: "ms",
      ours: byId.get("compare_8")!.latencyMs.p50,
      baseline: COMPARE_ASSETS.length * price,
      baselineNote: `${COMPARE_ASSETS.length} × get_ohlcv price p50`,
      baselineDetail: `${human(price)} ms each`,
      target: { on: "ours", op: "<=", value: 15 },
    });
    rows.push({
      metric: "peak RSS of the stdio server after the tool run (VmHWM)",
      unit: "MB",
      ours: stdio.peakRssMb,
      baseline: minimal.peakRssMb,
      baselineNote: `minimal SDK server after ${TOOL_CALLS} calls`,
      target: { on: "ours", op: "<=", value: 120 },
    });
    return { rows, detail: { stdio, minimal } };
  },
};

export const CHARTS: Section = {
  name: "charts",
  progress: `charts: chart: true vs the same call, ${TOOL_CALLS} pairs each`,
  async run(sandbox) {
    const rows: Row[] = [];
    const detail = await chartsSection(sandbox, rows, TOOL_CALLS, TOOL_WARMUP);
    return { rows, detail };
  },
};
