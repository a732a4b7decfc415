// `npm run bench`: every figure in one run, side by side with baselines measured in the same run,
// printed as one table and recorded in bench/results.json. It measures and reports; it never fails
// on a missed target (that is what the ok? column is for). A section is a function returning rows,
// each row carrying its own in-run baseline: adding a figure is adding a row (or a section) below.
import { existsSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { MAX_RECORDS } from "../src/catalog/index.js";
import { chartsSection } from "./charts.js";
import { measureBatch } from "./batch.js";
import { measureColdStart } from "./cold-start.js";
import { measureInChild } from "./generators.js";
import { measureMetering } from "./metering.js";
import { measureHttp } from "./http-load.js";
import { CLIENT_BOUND, type LoadFigure } from "./load.js";
import { BENCH_DIR, CLEAN_ENV_NOTE, CLI, createSandbox, NOW, pinLoadGenerator, type Sandbox } from "./proc.js";
import { measureRest } from "./rest-load.js";
import { human } from "./stats.js";
import { judge, renderTable, type Row } from "./table.js";
import { COMPARE_ASSETS, ENCODING, measureMinimalStdio, measureStdio, TOOL_CASES } from "./tools-stdio.js";

const COLD_RUNS = 15;
const TOOL_CALLS = 50;
const TOOL_WARMUP = 3;
const LOAD_CONCURRENCY = [8, 32] as const;
const LOAD_SECONDS = 3.6;
const BATCH_CALLS = 200;
const BATCH_RUNS = 3;

interface Section {
  name: string;
  progress: string;
  run(sandbox: Sandbox): Promise<{ rows: Row[]; detail: unknown }>;
}

/** "p50 …, p99 … ms; client CPU …" and whether the load generator, not the server, set the pace. */
function loadDetail(f: LoadFigure): string {
  const bound = f.clientCpu >= CLIENT_BOUND ? ", CLIENT-BOUND" : "";
  return `p50 ${human(f.latencyMs.p50)} ms, p99 ${human(f.latencyMs.p99)} ms; client CPU ${Math.round(f.clientCpu * 100)} %${bound}`;
}

const SECTIONS: Section[] = [
  {
    name: "cold",
    progress: `start-up, ${COLD_RUNS} runs of each kind, interleaved`,
    async run(sandbox) {
      const c = await measureColdStart(sandbox, COLD_RUNS);
      const floors = `node -e 0: ${human(c.nodeE0.median)} ms`;
      const rows: Row[] = [
        {
          metric: `cold start: spawn → tools/list response (median of ${c.runs})`,
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
          metric: "cold start vs the floor: a raw JSON-RPC responder (no SDK, same tools/list bytes)",
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
          metric: `\`${c.callArgs.slice(0, 2).join(" ")}\` (lth_mvrv btc) end to end: spawn → exit (median of ${c.runs})`,
          unit: "ms",
          ours: c.callGetSeries.median,
          baseline: c.callNodeE0.median,
          baselineNote: "node -e 0",
          target: { on: "ratio", op: "<=", value: 2 },
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
      return { rows, detail: c };
    },
  },
  {
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
  },
  {
    name: "charts",
    progress: `charts: chart: true vs the same call, ${TOOL_CALLS} pairs each`,
    async run(sandbox) {
      const rows: Row[] = [];
      const detail = await chartsSection(sandbox, rows, TOOL_CALLS, TOOL_WARMUP);
      return { rows, detail };
    },
  },
  {
    name: "generators",
    progress: "generators and heatmap digests (in-process, a fresh process with the server's V8 flags)",
    async run() {
      const { generators, heatmaps } = await measureInChild();
      const rows: Row[] = [];
      // No verdicts: the floor is a lower bound for scale (a typed-array pass over as many values).
      for (const g of generators) {
        rows.push({
          metric: `generator 1m volume_usd, ${g.range.replace(/ \(.*/, "")} (${human(g.points)} pts), ${g.output}`,
          unit: "ms",
          ours: g.ms,
          oursDetail: `${human(g.pointsPerSecond)} points/s${g.output === "records" && g.points > MAX_RECORDS ? ", beyond the response cap" : ""}`,
          baseline: g.floorMs,
          baselineNote: "typed-array floor",
        });
      }
      for (const h of heatmaps) {
        rows.push({
          metric: `heatmap ${h.timeframe}/${h.lookback} build + digest (${human(h.columns)}×${h.rows} = ${human(h.cells)} cells)`,
          unit: "ms",
          ours: h.buildMs + h.digestMs,
          oursDetail: `build ${human(h.buildMs)} + digest ${human(h.digestMs)}`,
          baseline: h.floorMs,
          baselineNote: "typed-array floor",
        });
      }
      return { rows, detail: { generators, heatmaps } };
    },
  },
  {
    name: "metering",
    progress: "metering: a REST request through the service with and without a charge",
    async run(sandbox) {
      const metering = await measureMetering(sandbox.dir);
      const us = (l: { p50: number; p99: number }) => `p99 ${human(l.p99)} µs`;
      const rows: Row[] = [];
      for (const f of metering.figures) {
        const name = f.engine === "sqlite" ? "embedded SQLite store" : "PostgreSQL over loopback";
        rows.push({
          metric: `charge on the ${name}: added to a cached REST request, p50 (${human(f.n)} interleaved)`,
          unit: "µs",
          ours: f.metered.p50 - f.unmetered.p50,
          oursDetail: `${human(f.metered.p50)} µs metered vs ${human(f.unmetered.p50)} µs unmetered; charge() alone p50 ${human(f.charge.p50)} µs, ${us(f.charge)}`,
          target: { on: "ours", op: "<=", value: f.engine === "sqlite" ? 50 : 1_000 },
        });
      }
      if (metering.postgres !== "measured") process.stderr.write(`bench: PostgreSQL ${metering.postgres}\n`);
      return { rows, detail: metering };
    },
  },
  {
    name: "http",
    progress: `MCP over Streamable HTTP vs the minimal stateless SDK server, ${LOAD_SECONDS} s per case`,
    async run(sandbox) {
      const pin = pinLoadGenerator();
      const cases = await measureHttp(sandbox, LOAD_CONCURRENCY, LOAD_SECONDS * 1000);
      const rows: Row[] = [];
      for (const { case: c, figures, bytes } of cases) {
        for (const n of LOAD_CONCURRENCY) {
          const ours = figures.find((f) => f.server === "ours" && f.concurrency === n)!;
          const minimal = figures.find((f) => f.server === "minimal" && f.concurrency === n)!;
          const sized = figures.find((f) => f.server === "sized" && f.concurrency === n)!;
          rows.push({
            metric: `MCP HTTP tools/call ${c.label}, ${n} clients (${pin.note})`,
            unit: "calls/s",
            ours: ours.requestsPerSecond,
            oursDetail: loadDetail(ours),
            baseline: minimal.requestsPerSecond,
            baselineNote: "minimal stateless SDK v2 server, trivial tool, same era",
            baselineDetail: loadDetail(minimal),
            ...(c.id === "list_assets" && { target: { on: "ratio" as const, op: ">=" as const, value: 1 } }),
          });
          rows.push({
            metric: `… the same, against that server answering as many bytes (${human(bytes.ours)} B of ours; its own ${human(bytes.minimal)} B padded to ${human(bytes.sized)} B)`,
            unit: "calls/s",
            ours: ours.requestsPerSecond,
            baseline: sized.requestsPerSecond,
            baselineNote: "the same minimal server, answer padded to our size",
            baselineDetail: loadDetail(sized),
          });
        }
      }
      return { rows, detail: cases };
    },
  },
  {
    name: "rest",
    progress: `REST face vs bare node:http, ${LOAD_SECONDS} s per case`,
    async run(sandbox) {
      const pin = pinLoadGenerator();
      const rest = await measureRest(sandbox, LOAD_CONCURRENCY, LOAD_SECONDS * 1000, LOAD_CONCURRENCY[0]);
      const rows: Row[] = [];
      const pair = (figs: LoadFigure[], n: number) => ["ours", "bare"].map((s) => figs.find((f) => f.server === s && f.concurrency === n)!);
      for (const n of LOAD_CONCURRENCY) {
        const [ours, bare] = pair(rest.repeat, n);
        rows.push({
          metric: `REST 365-point daily series, ${n} keep-alive clients (${pin.note})`,
          unit: "req/s",
          ours: ours!.requestsPerSecond,
          oursDetail: loadDetail(ours!),
          baseline: bare!.requestsPerSecond,
          baselineNote: "bare node:http",
          baselineDetail: loadDetail(bare!),
          target: { on: "ratio", op: ">=", value: 0.6 },
        });
      }
      // A random 365-day window every request: what generation and serialization cost when the
      // body cache cannot help (no target: it shows the price of a miss).
      const [ours, bare] = pair(rest.distinct, LOAD_CONCURRENCY[0]);
      rows.push({
        metric: `REST, ${LOAD_CONCURRENCY[0]} clients, a random window every request (cache misses)`,
        unit: "req/s",
        ours: ours!.requestsPerSecond,
        oursDetail: loadDetail(ours!),
        baseline: bare!.requestsPerSecond,
        baselineNote: "bare node:http",
        baselineDetail: loadDetail(bare!),
      });
      return { rows, detail: rest };
    },
  },
  {
    name: "batch",
    progress: `call --batch of ${BATCH_CALLS} get_metrics_variation vs ${BATCH_CALLS} call processes in a loop`,
    async run(sandbox) {
      const b = await measureBatch(sandbox, BATCH_CALLS, BATCH_RUNS);
      const rows: Row[] = [
        {
          metric: `${BATCH_CALLS} get_metrics_variation calls over ${BATCH_CALLS} assets: one call --batch process`,
          unit: "ms",
          ours: b.batchMs,
          oursDetail: `median of ${BATCH_RUNS}; ${human(b.batchMs / BATCH_CALLS)} ms per call`,
          baseline: b.processesMs,
          baselineNote: `${BATCH_CALLS} call processes in a loop`,
          baselineDetail: `${human(b.perProcessMs)} ms per process`,
          target: { on: "ratio", op: "<=", value: 1 / 20 },
        },
      ];
      return { rows, detail: b };
    },
  },
];

/** `--only stdio,rest` runs a subset while working on one figure (results.json is then left alone). */
function selectedSections(argv: readonly string[]): Section[] {
  const i = argv.indexOf("--only");
  if (i < 0) return SECTIONS;
  const picked = (argv[i + 1] ?? "").split(",").filter(Boolean);
  const unknown = picked.filter((s) => !SECTIONS.some((x) => x.name === s));
  if (unknown.length || picked.length === 0) {
    process.stderr.write(`bench: --only takes a comma-separated subset of ${SECTIONS.map((s) => s.name).join(", ")}\n`);
    process.exit(2);
  }
  return SECTIONS.filter((s) => picked.includes(s.name));
}

if (!existsSync(CLI)) {
  process.stderr.write(`bench: ${CLI} is missing; run \`npm run build\` first (npm run bench does)\n`);
  process.exit(1);
}

const sections = selectedSections(process.argv.slice(2));
const started = Date.now();
const loadBefore = loadavg()[0]!;
const sandbox = createSandbox();
const rows: Row[] = [];
const details: Record<string, unknown> = {};
try {
  // Start-up first, while nothing else of ours has run and before the load sections pin CPUs.
  for (const section of sections) {
    process.stderr.write(`bench: ${section.progress}\n`);
    const { rows: r, detail } = await section.run(sandbox);
    rows.push(...r);
    details[section.name] = detail;
  }
} finally {
  sandbox.dispose();
}

const judged = rows.map(judge);
const seconds = Math.round((Date.now() - started) / 1000);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
const notes = [
  `${machine}; load average ${loadBefore.toFixed(1)} at the start: absolute times are noisy on a shared machine, the same-run ratios are the figures to read`,
  `${CLEAN_ENV_NOTE}; now pinned to ${NOW}; ${seconds} s`,
];
process.stdout.write(`\n${renderTable(judged)}\n\n${notes.join("\n")}\n`);
const missed = judged.filter((r) => r.ok === false).length;
const verdict = missed === 0 ? "all targets hold" : `${missed} target(s) missed`;
if (sections.length === SECTIONS.length) {
  const results = { generatedAt: new Date().toISOString(), machine, notes, now: NOW, seconds, table: judged, ...details };
  writeFileSync(join(BENCH_DIR, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  process.stderr.write(`bench: wrote bench/results.json; ${verdict}\n`);
} else {
  process.stderr.write(`bench: partial run (${sections.map((s) => s.name).join(", ")}): bench/results.json left as it was; ${verdict}\n`);
}
