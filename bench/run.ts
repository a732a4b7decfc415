// `npm run bench`: every figure in one run, side by side with baselines measured in the same run,
// printed as one table and recorded in bench/results.json. It measures and reports; it never fails
// on a missed target (that is what the ok? column is for). A section is a function returning rows,
// each row carrying its own in-run baseline: adding a figure is adding a row (or a section) below or
// in stdio-sections.ts and load-sections.ts.
import { existsSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";

import { MAX_RECORDS } from "../src/catalog/index.js";
import { SIZES } from "./answer-sizes.js";
import { measureBatch } from "./batch.js";
import { measureInChild } from "./generators.js";
import { HTTP, OAUTH, REST } from "./load-sections.js";
import { measureMetering } from "./metering.js";
import { BENCH_DIR, CLEAN_ENV_NOTE, CLI, createSandbox, NOW } from "./proc.js";
import { measureRank } from "./rank.js";
import { human } from "./stats.js";
import { CHARTS, COLD, STDIO } from "./stdio-sections.js";
import { judge, renderTable, type Row, type Section } from "./table.js";

const BATCH_CALLS = 200;
const BATCH_RUNS = 3;

const SECTIONS: Section[] = [
  COLD,
  STDIO,
  CHARTS,
  SIZES,
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
    name: "rank",
    progress: "rank_assets over 50 assets vs the same 50 reads as separate calls (in-process, warm)",
    run: (sandbox) => measureRank(sandbox),
  },
  HTTP,
  OAUTH,
  REST,
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
