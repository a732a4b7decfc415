// MCP over Streamable HTTP under load: tools/call from N concurrent clients against our `http`
// command and against the minimal stateless SDK server answering a trivial tool, same run, in the
// protocol era each case names (2025: stateless requests without an envelope; 2026-07-28: version
// and capabilities in every request's _meta, the Mcp-* headers the specification asks for).
import { join } from "node:path";

import { compare, type LoadFigure, type Target } from "./load.js";
import { BENCH_DIR, CLI, KEY, peakRssMb, type Sandbox, spawnListening, stop } from "./proc.js";

const ROUNDS = 6;
/** Load at each concurrency before its rounds, per target: a fresh server's JIT and heap settle first. */
const SETTLE_MS = 1_500;

export type Era = "2025" | "2026-07-28";

export interface HttpCase {
  id: string;
  label: string;
  tool: string;
  args: Record<string, unknown>;
  era: Era;
}

/** Ours: a catalog answer (no data generated, nothing charged) in both eras and a charged default series digest. */
export const HTTP_CASES: readonly HttpCase[] = [
  { id: "list_assets", label: "list_assets asset=btc, 2025 era", tool: "list_assets", args: { asset: "btc" }, era: "2025" },
  { id: "list_assets", label: "list_assets asset=btc, 2026-07-28", tool: "list_assets", args: { asset: "btc" }, era: "2026-07-28" },
  {
    id: "get_series",
    label: "get_series lth_mvrv btc, 2025 era",
    tool: "get_series",
    args: { metric: "lifespan/Lth_mvrv", asset: "btc" },
    era: "2025",
  },
];

function target(name: string, url: string, tool: string, args: Record<string, unknown>, era: Era): Target {
  const modern = era === "2026-07-28";
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": modern ? era : "2025-06-18",
    authorization: `Bearer ${KEY}`,
    ...(modern && { "mcp-method": "tools/call", "mcp-name": tool }),
    // Our asset argument is mirrored into a header for 2026-07-28 clients (x-mcp-header).
    ...(modern && typeof args.asset === "string" && name === "ours" && { "mcp-param-asset": args.asset }),
  };
  const meta = modern
    ? { _meta: { "io.modelcontextprotocol/protocolVersion": era, "io.modelcontextprotocol/clientCapabilities": {} } }
    : {};
  return {
    name,
    url,
    request: (i) => ({
      method: "POST",
      path: "/mcp",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: tool, arguments: args, ...meta } }),
    }),
    check(status, body) {
      const text = body.toString("utf8");
      if (status !== 200 || !text.includes('"result"') || text.includes('"isError":true')) {
        throw new Error(`${name}: status ${status}: ${text.slice(0, 300)}`);
      }
    },
  };
}

export interface HttpLoad {
  case: HttpCase;
  figures: LoadFigure[];
  /** Response body bytes of one call: ours, the minimal server's, and the padded minimal server's. */
  bytes: { ours: number; minimal: number; sized: number };
}

/** The body of one call to `t`, as the load generator would receive it. */
async function bodyBytes(t: Target): Promise<number> {
  const req = t.request(0);
  const res = await fetch(`${t.url}${req.path}`, {
    method: req.method,
    headers: req.headers,
    ...(req.body !== undefined && { body: req.body }),
  });
  const body = Buffer.from(await res.arrayBuffer());
  t.check(res.status, body);
  return body.length;
}

/**
 * Each case against the minimal server as it is and against the same server padding its answer to
 * the size of ours (`sized`): the first measures the whole difference, the second what remains
 * once both write as many bytes.
 */
export interface HttpRun {
  cases: HttpLoad[];
  /** Peak RSS (VmHWM, MB) of our server and of the minimal one once every case has run. */
  peakRssMb: { ours: number; minimal: number };
}

export async function measureHttp(sandbox: Sandbox, concurrencies: readonly number[], durationMs: number): Promise<HttpRun> {
  const ours = await spawnListening([CLI, "http", "--port", "0"], sandbox.env);
  let minimal: Awaited<ReturnType<typeof spawnListening>> | undefined;
  try {
    minimal = await spawnListening([join(BENCH_DIR, "minimal-http-server.mjs")], sandbox.env);
    const out: HttpLoad[] = [];
    for (const c of HTTP_CASES) {
      const targets = [target("ours", ours.url, c.tool, c.args, c.era), target("minimal", minimal.url, "echo", { text: "hello" }, c.era)];
      const bytes = { ours: await bodyBytes(targets[0]!), minimal: await bodyBytes(targets[1]!), sized: 0 };
      const padded = await spawnListening(
        [join(BENCH_DIR, "minimal-http-server.mjs"), "--pad", String(Math.max(0, bytes.ours - bytes.minimal))],
        sandbox.env,
      );
      try {
        targets.push(target("sized", padded.url, "echo", { text: "hello" }, c.era));
        bytes.sized = await bodyBytes(targets[2]!);
        const figures: LoadFigure[] = [];
        for (const n of concurrencies) {
          await compare(targets, n, SETTLE_MS, 1); // not counted: JIT, heap, sockets
          figures.push(...(await compare(targets, n, durationMs, ROUNDS)));
        }
        out.push({ case: c, figures, bytes });
      } finally {
        await stop(padded.child);
      }
    }
    return { cases: out, peakRssMb: { ours: peakRssMb(ours.child.pid!), minimal: peakRssMb(minimal.child.pid!) } };
  } finally {
    await stop(ours.child);
    if (minimal) await stop(minimal.child);
  }
}
