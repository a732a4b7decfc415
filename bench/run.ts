// `npm run bench`: every figure of DESIGN §9 in one run, side by side with baselines measured in
// the same run, printed as one table and recorded in bench/results.json. It measures and reports;
// it never fails on a missed target (that is what the ok? column is for).
import { existsSync, writeFileSync } from "node:fs";
import { MAX_RECORDS } from "../src/catalog/index.js";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { measureColdStart } from "./cold-start.js";
import { measureInChild } from "./generators.js";
import { BENCH_DIR, CLI, createSandbox, NOW, type Sandbox } from "./proc.js";
import { measureRest } from "./rest-load.js";
import { human } from "./stats.js";
import { judge, renderTable, type Row } from "./table.js";
import { ENCODING, measureStdio, TOOL_CASES } from "./tools-stdio.js";

const COLD_RUNS = 15;
const TOOL_CALLS = 50;
const TOOL_WARMUP = 3;
const REST_CONCURRENCY = [8, 32] as const;
const REST_SECONDS = 3.6;

const SECTIONS = ["cold", "stdio", "generators", "rest"] as const;
type Section = (typeof SECTIONS)[number];

/** `--only stdio,rest` runs a subset while working on one figure (results.json is then left alone). */
function selectedSections(argv: readonly string[]): Set<Section> {
  const i = argv.indexOf("--only");
  if (i < 0) return new Set(SECTIONS);
  const picked = (argv[i + 1] ?? "").split(",").filter(Boolean);
  const unknown = picked.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (unknown.length || picked.length === 0) {
    process.stderr.write(`bench: --only takes a comma-separated subset of ${SECTIONS.join(", ")}\n`);
    process.exit(2);
  }
  return new Set(picked as Section[]);
}

function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

async function coldSection(sandbox: Sandbox, rows: Row[]): Promise<unknown> {
  progress(`cold start, ${COLD_RUNS} runs each`);
  const cold = await measureColdStart(sandbox, COLD_RUNS);
  rows.push({
    metric: `cold start: spawn → initialize response (median of ${COLD_RUNS})`, unit: "ms",
    ours: cold.oursMedianMs, baseline: cold.minimalMedianMs, baselineNote: "minimal SDK server",
    target: { on: "ratio", op: "<=", value: 1.0, stretch: 0.7 },
  });
  return cold;
}

async function stdioSection(sandbox: Sandbox, rows: Row[]): Promise<unknown> {
  progress(`stdio session: ${TOOL_CASES.length} cases × ${TOOL_CALLS} calls`);
  const stdio = await measureStdio(sandbox, TOOL_CALLS, TOOL_WARMUP);
  rows.push({
    metric: `tools/list + instructions (${ENCODING})`, unit: "tokens",
    ours: stdio.toolsListTokens + stdio.instructionsTokens,
    oursDetail: `${human(stdio.toolsListBytes + stdio.instructionsBytes)} bytes`,
    target: { on: "ours", op: "<=", value: 1_200 },
  });
  for (const t of stdio.tools) {
    const maxTokens = TOOL_CASES.find((c) => c.id === t.id)?.maxTokens;
    const p50Target = t.id === "get_series" ? 3 : t.id === "heatmap_30m_30d" ? 80 : undefined;
    rows.push({
      metric: `${t.label}: latency p50`, unit: "ms", ours: t.latencyMs.p50,
      oursDetail: `min ${human(t.latencyMs.min)}, p95 ${human(t.latencyMs.p95)}`,
      ...(p50Target !== undefined && { target: { on: "ours" as const, op: "<=" as const, value: p50Target } }),
    });
    rows.push({
      metric: `${t.label}: response`, unit: "tokens", ours: t.responseTokens, oursDetail: `${human(t.responseBytes)} bytes`,
      ...(maxTokens !== undefined && { target: { on: "ours" as const, op: "<=" as const, value: maxTokens } }),
    });
  }
  const byId = new Map(stdio.tools.map((t) => [t.id, t]));
  rows.push({
    metric: "1m volume_usd response: 60 days vs 1 day", unit: "tokens",
    ours: byId.get("ohlcv_1m_60d")!.responseTokens, baseline: byId.get("ohlcv_1m_1d")!.responseTokens, baselineNote: "1-day series",
    target: { on: "ratio", op: "<=", value: 1.3 },
  });
  rows.push({ metric: "peak RSS of the stdio server after the tool run (VmHWM)", unit: "MB", ours: stdio.peakRssMb, target: { on: "ours", op: "<=", value: 120 } });
  return stdio;
}

async function generatorSection(rows: Row[]): Promise<unknown> {
  progress("generators and heatmap digests (in-process, in a fresh process)");
  const { generators, heatmaps } = await measureInChild();
  for (const g of generators) {
    // Records (an object and an ISO string per point) are what a response holds, so their target
    // stops at the response cap; a year of them is shown for the growth of the cost (GC-bound).
    const judged = g.output === "columns" || g.points <= MAX_RECORDS;
    rows.push({
      metric: `generator 1m volume_usd, ${g.range.replace(/ \(.*/, "")} (${human(g.points)} pts), ${g.output}`, unit: "points/s",
      ours: g.pointsPerSecond, oursDetail: `${human(g.ms)} ms`,
      ...(judged && { target: { on: "ours" as const, op: ">=" as const, value: 5e6 } }),
    });
  }
  for (const h of heatmaps) {
    rows.push({
      metric: `heatmap ${h.timeframe}/${h.lookback} build + digest (${human(h.columns)}×${h.rows} = ${human(h.cells)} cells)`, unit: "ms",
      ours: h.buildMs + h.digestMs, oursDetail: `build ${human(h.buildMs)} + digest ${human(h.digestMs)}`,
    });
  }
  return { generators, heatmaps };
}

async function restSection(sandbox: Sandbox, rows: Row[]): Promise<unknown> {
  progress(`REST face vs bare node:http, ${REST_SECONDS} s per case`);
  const rest = await measureRest(sandbox, REST_CONCURRENCY, REST_SECONDS * 1000, REST_CONCURRENCY[0]);
  const detail = (f: (typeof rest.figures)[number]) => `p50 ${human(f.latencyMs.p50)} ms, p99 ${human(f.latencyMs.p99)} ms`;
  const pair = (mode: "repeat" | "distinct", n: number) =>
    ["ours", "bare"].map((server) => rest.figures.find((f) => f.server === server && f.mode === mode && f.concurrency === n)!);
  for (const n of REST_CONCURRENCY) {
    const [ours, bare] = pair("repeat", n);
    rows.push({
      metric: `REST 365-point daily series, ${n} keep-alive clients`, unit: "req/s",
      ours: ours!.requestsPerSecond, oursDetail: detail(ours!),
      baseline: bare!.requestsPerSecond, baselineNote: "bare node:http", baselineDetail: detail(bare!),
      target: { on: "ratio", op: ">=", value: 0.6 },
    });
  }
  // The same load with a new 365-day window every request: what generation and serialization
  // cost when the body cache cannot help (no target: it shows the price of a miss).
  const [ours, bare] = pair("distinct", REST_CONCURRENCY[0]);
  rows.push({
    metric: `REST, ${REST_CONCURRENCY[0]} clients, a new window every request (cache misses)`, unit: "req/s",
    ours: ours!.requestsPerSecond, oursDetail: detail(ours!),
    baseline: bare!.requestsPerSecond, baselineNote: "bare node:http", baselineDetail: detail(bare!),
  });
  return rest;
}

if (!existsSync(CLI)) {
  process.stderr.write(`bench: ${CLI} is missing; run \`npm run build\` first (npm run bench does)\n`);
  process.exit(1);
}

const sections = selectedSections(process.argv.slice(2));
const started = Date.now();
const sandbox = createSandbox();
const rows: Row[] = [];
const details: Partial<Record<Section, unknown>> = {};
try {
  // Cold start first, while nothing else of ours has run; the in-process figures before the REST
  // load so the two server processes are gone when they run.
  if (sections.has("cold")) details.cold = await coldSection(sandbox, rows);
  if (sections.has("stdio")) details.stdio = await stdioSection(sandbox, rows);
  if (sections.has("generators")) details.generators = await generatorSection(rows);
  if (sections.has("rest")) details.rest = await restSection(sandbox, rows);
} finally {
  sandbox.dispose();
}

const judged = rows.map(judge);
const seconds = Math.round((Date.now() - started) / 1000);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
process.stdout.write(`\n${renderTable(judged)}\n\n${machine}; now pinned to ${NOW}; ${seconds} s\n`);
const missed = judged.filter((r) => r.ok === false).length;
const verdict = missed === 0 ? "all targets hold" : `${missed} target(s) missed`;
if (sections.size === SECTIONS.length) {
  const results = { generatedAt: new Date().toISOString(), machine, now: NOW, seconds, table: judged, ...details };
  writeFileSync(join(BENCH_DIR, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  progress(`wrote bench/results.json; ${verdict}`);
} else {
  progress(`partial run (${[...sections].join(", ")}): bench/results.json left as it was; ${verdict}`);
}
