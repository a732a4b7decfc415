// The sections measured under load: MCP over Streamable HTTP and the REST face, each against a minimal
// server driven by the same load generator.
import { measureHttp } from "./http-load.js";
import { CLIENT_BOUND, type LoadFigure } from "./load.js";
import { measureOAuth } from "./oauth-load.js";
import { pinLoadGenerator } from "./proc.js";
import { measureRest } from "./rest-load.js";
import { human } from "./stats.js";
import type { Row, Section } from "./table.js";

const LOAD_CONCURRENCY = [8, 32] as const;
const LOAD_SECONDS = 3.6;
/** MCP over HTTP: six rounds of a second per server and concurrency, each concurrency after a settling load. */
const HTTP_SECONDS = 6;

/** "p50 …, p99 … ms; client CPU …" and whether the load generator, not the server, set the pace. */
function loadDetail(f: LoadFigure): string {
  const bound = f.clientCpu >= CLIENT_BOUND ? ", CLIENT-BOUND" : "";
  return `p50 ${human(f.latencyMs.p50)} ms, p99 ${human(f.latencyMs.p99)} ms; client CPU ${Math.round(f.clientCpu * 100)} %${bound}`;
}

export const HTTP: Section = {
  name: "http",
  progress: `MCP over Streamable HTTP vs the minimal stateless SDK server, ${HTTP_SECONDS} s per case`,
  async run(sandbox) {
    const pin = pinLoadGenerator();
    const { cases, peakRssMb } = await measureHttp(sandbox, LOAD_CONCURRENCY, HTTP_SECONDS * 1000);
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
          // A charged series read: auth, rate window, charge, the series (generated once a day) and its digest.
          ...(c.id === "get_series" && { target: { on: "ratio" as const, op: ">=" as const, value: 0.8 } }),
        });
      }
    }
    rows.push({
      metric: "peak RSS of the HTTP server after these cases (VmHWM)",
      unit: "MB",
      ours: peakRssMb.ours,
      baseline: peakRssMb.minimal,
      baselineNote: "the minimal stateless SDK v2 server after the same cases",
    });
    return { rows, detail: { cases, peakRssMb } };
  },
};

/** MCP over HTTP with OAuth token verification vs API keys: one concurrency, rounds alternating between the servers. */
export const OAUTH: Section = {
  name: "oauth",
  progress: `MCP over HTTP with OAuth access tokens vs API keys, ${HTTP_SECONDS} s per case`,
  async run(sandbox) {
    const pin = pinLoadGenerator();
    const run = await measureOAuth(sandbox, LOAD_CONCURRENCY[0], HTTP_SECONDS * 1000);
    const figure = (name: string) => run.figures.find((f) => f.server === name)!;
    const keys = figure("keys");
    const baseline = {
      baseline: keys.requestsPerSecond,
      baselineNote: "the same server and call with an API key (--auth key)",
      baselineDetail: loadDetail(keys),
    };
    const rows: Row[] = [
      {
        metric: `MCP HTTP tools/call list_assets, ${run.concurrency} clients, --auth oauth: a JWT verified against the issuer's JWKS, reused as clients do (${pin.note})`,
        unit: "calls/s",
        ours: figure("token").requestsPerSecond,
        oursDetail: loadDetail(figure("token")),
        ...baseline,
        target: { on: "ratio", op: ">=", value: 0.9 },
      },
      {
        metric: `… the same, a token never seen before on every request (signature checked every time)`,
        unit: "calls/s",
        ours: figure("fresh").requestsPerSecond,
        oursDetail: loadDetail(figure("fresh")),
        ...baseline,
      },
    ];
    return { rows, detail: run };
  },
};

export const REST: Section = {
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
};
