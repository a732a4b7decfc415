// MCP over Streamable HTTP under load: tools/call from N concurrent clients against our `http`
// command and against the minimal stateless SDK server answering a trivial tool, same run.
import { join } from "node:path";
import { compare, type LoadFigure, type Target } from "./load.js";
import { BENCH_DIR, CLI, KEY, spawnListening, stop, type Sandbox } from "./proc.js";

const ROUNDS = 4;

export interface HttpCase {
  id: string;
  label: string;
  tool: string;
  args: Record<string, unknown>;
}

/** Ours: a catalog answer (no data generated, nothing charged) and a charged default series digest. */
export const HTTP_CASES: readonly HttpCase[] = [
  { id: "list_assets", label: "list_assets asset=btc", tool: "list_assets", args: { asset: "btc" } },
  { id: "get_series", label: "get_series lth_mvrv btc", tool: "get_series", args: { metric: "lifespan/Lth_mvrv", asset: "btc" } },
];

function target(name: string, url: string, tool: string, args: Record<string, unknown>): Target {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
    authorization: `Bearer ${KEY}`,
  };
  return {
    name,
    url,
    request: (i) => ({
      method: "POST",
      path: "/mcp",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: tool, arguments: args } }),
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
}

export async function measureHttp(sandbox: Sandbox, concurrencies: readonly number[], durationMs: number): Promise<HttpLoad[]> {
  const ours = await spawnListening([CLI, "http", "--port", "0"], sandbox.env);
  let minimal: Awaited<ReturnType<typeof spawnListening>> | undefined;
  try {
    minimal = await spawnListening([join(BENCH_DIR, "minimal-http-server.mjs")], sandbox.env);
    const baseline = target("minimal", minimal.url, "echo", { text: "hello" });
    const out: HttpLoad[] = [];
    for (const c of HTTP_CASES) {
      const targets = [target("ours", ours.url, c.tool, c.args), baseline];
      await compare(targets, 4, 600, 2); // warm-up: JIT, sockets
      const figures: LoadFigure[] = [];
      for (const n of concurrencies) figures.push(...(await compare(targets, n, durationMs, ROUNDS)));
      out.push({ case: c, figures });
    }
    return out;
  } finally {
    await stop(ours.child);
    if (minimal) await stop(minimal.child);
  }
}
