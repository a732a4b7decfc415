// Records what the server answers, one sha256 per answer, so a change meant to keep behaviour can
// show every answer byte-identical: tools/list, calls of every tool (good and bad arguments, four
// keys), resource and prompt reads through a real MCP client, and REST bodies with their status and
// service headers from the REST face over loopback. The clock is pinned; calls run one at a time.
// Run: npx tsx scripts/record-answers.ts record <file.json>
//      npx tsx scripts/record-answers.ts compare <file.json>   (exit 1 and the differing answers)
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

import { createInProcessService, InProcessBackend } from "../src/backend/inprocess/backend.js";
import { BODY_CACHE_BYTES } from "../src/backend/rest.js";
import { ENDPOINTS, HEATMAP_ID } from "../src/catalog/index.js";
import { createServer } from "../src/server.js";
import { recordRest } from "./record-rest-answers.js";

const NOW = Date.parse("2025-12-31T12:00:00Z");
const RATE_CLOCK = 1_000_000;
const [mode, file] = process.argv.slice(2);
if ((mode !== "record" && mode !== "compare") || !file) {
  process.stderr.write("usage: tsx scripts/record-answers.ts record|compare <file.json>\n");
  process.exit(2);
}

const KEYS = {
  plans: { wide: { credits: 1_000_000, rateLimit: { requests: 100_000, windowSeconds: 60 } } },
  keys: [
    { key: "record-wide", plan: "wide" },
    { key: "record-onchain", plan: "wide", metrics: ["lifespan/Lth_mvrv", "market/metcalfe_ratio"] },
    { key: "record-tiny", credits: 3, rateLimit: { requests: 100_000, windowSeconds: 60 } },
    { key: "record-slow", credits: 1_000, rateLimit: { requests: 2, windowSeconds: 60 } },
  ],
};

const answers: Record<string, string> = {};
const counts = { calls: 0, resources: 0, prompts: 0, rest: 0 };
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
/** Records an answer; a repeat of the same request (a balance running down) is numbered. */
function put(kind: keyof typeof counts, request: string, text: string): void {
  let name = request;
  for (let n = 2; name in answers; n++) name = `${request} #${n}`;
  answers[name] = sha(text);
  counts[kind]++;
}

const stateDir = mkdtempSync(join(tmpdir(), "cm-record-"));
const keysFile = join(stateDir, "keys.json");
writeFileSync(keysFile, JSON.stringify(KEYS));
const service = await createInProcessService({
  apiKey: "record-wide",
  keysFile,
  stateDir: join(stateDir, "mcp"),
  now: () => NOW,
  rateClock: () => RATE_CLOCK,
});

async function connect(key: string): Promise<{ client: Client; close(): Promise<void> }> {
  const server = createServer({ backend: new InProcessBackend(service, key), config: { apiKey: key, now: () => NOW } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "record-answers", version: "1.0.0" }, { capabilities: {} });
  await Promise.all([client.connect(clientSide), server.connect(serverSide)]);
  return { client, close: async () => (await client.close(), await server.close()) };
}

/** The answer as JSON text, or the protocol error's code and message. */
async function answer(run: () => Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await run());
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    return JSON.stringify({ protocolError: { code: e.code, message: e.message } });
  }
}

// ---- MCP: the wide key ----
const wide = await connect("record-wide");
put("calls", "tools/list", await answer(() => wide.client.listTools()));
const call = async (label: string, name: string, args: Record<string, unknown>, who = wide) =>
  put("calls", `${label} ${name} ${JSON.stringify(args)}`, await answer(() => who.client.callTool({ name, arguments: args })));

const seriesIds = ENDPOINTS.filter((e) => e.kind === "series").map((e) => e.id);
const ohlcvIds = ENDPOINTS.filter((e) => e.kind === "ohlcv").map((e) => e.id);

// list_assets
for (const args of [
  {},
  { metric: "lifespan/Lth_mvrv" },
  { metric: HEATMAP_ID },
  { asset: "btc" },
  { asset: "eth" },
  { asset: "usdt" },
  { search: "bit" },
  { search: "sol" },
  { metric: "lifespan/lth_mvrv" },
  { asset: "bitcoin" },
  { metric: "nope/nothing" },
  { asset: "btc", metric: "market/metcalfe_ratio" },
  { search: "" },
])
  await call("wide", "list_assets", args);
// get_series: every series, default range, then a spread of arguments and errors
for (const metric of seriesIds) await call("wide", "get_series", { metric, asset: "btc" });
for (const metric of seriesIds.slice(0, 6))
  await call("wide", "get_series", { metric, asset: "eth", startDate: "2024-01-01", endDate: "2024-06-30", max_points: 30 });
for (const args of [
  { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2020-01-01", max_points: 500 },
  { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-12-01T00:00:00Z", endDate: "2025-12-31" },
  { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2030-01-01" },
  { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-13-01" },
  { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-06-01", endDate: "2025-01-01" },
  { metric: "lifespan/Lth_mvrv", asset: "doge" },
  { metric: "lifespan/Lth_mvrv", asset: "btcc" },
  { metric: "lifespan/Lth_mvrv", asset: "btc", max_points: 0 },
  { metric: "lifespan/Lth_mvrv", asset: "btc", max_points: 5001 },
  { metric: "lifespan/lth_mvrv", asset: "btc" },
  { metric: "lifespan/Lth_mvrv" },
  { metric: "lifespan/Lth_mvrv", asset: "btc", bogus: 1 },
  { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "1990-01-01", endDate: "2009-01-01" },
])
  await call("wide", "get_series", args);
// get_ohlcv
for (const metric of [...ohlcvIds, "price"]) {
  await call("wide", "get_ohlcv", { metric, asset: "btc" });
  await call("wide", "get_ohlcv", { metric, asset: "eth", timeframe: "1h", startDate: "2025-12-20", endDate: "2025-12-22" });
  await call("wide", "get_ohlcv", { metric, asset: "sol", timeframe: "4h", startDate: "2025-11-01", max_points: 40 });
}
for (const args of [
  { metric: "derivatives/Volume_usd", asset: "btc", exchange: "binance" },
  { metric: "derivatives/Volume_usd", asset: "btc", exchange: "nowhere" },
  { metric: "derivatives/Volume_usd", asset: "btc", market_type: "spot" },
  { metric: "derivatives/Volume_usd", asset: "btc", symbol: "BTCUSDT", exchange: "binance" },
  { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", startDate: "2025-12-31T00:00:00Z" },
  { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "2d" },
  { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", startDate: "2020-01-01" },
  { metric: "price", asset: "btc", timeframe: "1w" },
  { metric: "price", asset: "btc", timeframe: "1d", startDate: "2017-01-01" },
  { metric: "price", asset: "btc", timeframe: "15m", startDate: "2025-12-31" },
  { metric: "price", asset: "zzzz" },
  { metric: "lifespan/Lth_mvrv", asset: "btc" },
  { metric: "spot/Trades", asset: "usdt" },
])
  await call("wide", "get_ohlcv", args);
// get_metrics_variation
for (const asset of ["btc", "eth", "sol", "usdt", "xrp", "nope", "", "BTC"]) await call("wide", "get_metrics_variation", { asset });
// get_liquidation_heatmap
for (const args of [
  { asset: "btc" },
  { asset: "eth", timeframe: "1h" },
  { asset: "btc", timeframe: "1d", lookback: "6y" },
  { asset: "btc", timeframe: "4h", top_k: 3, include_matrix: true },
  { asset: "sol", scope: "exchange", exchange: "binance" },
  { asset: "btc", timeframe: "1m", lookback: "12h" },
  { asset: "btc", timeframe: "1m", lookback: "6y" },
  { asset: "btc", scope: "exchange" },
  { asset: "btc", exchange: "nowhere", scope: "exchange" },
  { asset: "btc", timeframe: "7m" },
  { asset: "btc", top_k: 0 },
  { asset: "qqq" },
  { asset: "btc", include_matrix: true, timeframe: "15m" },
])
  await call("wide", "get_liquidation_heatmap", args);
// compare
for (const args of [
  { metric: "price", assets: ["btc", "eth", "sol"] },
  { metric: "lifespan/Lth_mvrv", assets: ["btc", "eth"] },
  { metric: "derivatives/Volume_usd", assets: ["btc", "eth", "sol", "xrp"], timeframe: "1d" },
  { asset: "btc", metrics: ["price", "lifespan/Lth_mvrv"] },
  { asset: "eth", metrics: ["derivatives/Volume_usd", "spot/Trades", "price"] },
  { metric: "price", assets: ["btc"] },
  { metric: "price", assets: ["btc", "btc"] },
  { metric: HEATMAP_ID, assets: ["btc", "eth"] },
  { metric: "price", assets: ["btc", "eth"], asset: "btc" },
  { asset: "btc", metrics: ["a", "b", "c", "d", "e"] },
  { metric: "pricee", assets: ["btc", "eth"] },
  {},
])
  await call("wide", "compare", args);
await call("wide", "no_such_tool", {});
for (const args of [
  { metric: "lifespan/Lth_mvrv", asset: "btc", chart: true },
  { metric: "price", asset: "btc", chart: true },
])
  await call("wide", args.metric === "price" ? "get_ohlcv" : "get_series", args);

// Resources and prompts
put("resources", "resources/list", await answer(() => wide.client.listResources()));
put("resources", "resources/templates/list", await answer(() => wide.client.listResourceTemplates()));
const listed = (await wide.client.listResources()).resources.map((r) => r.uri);
const uris = [
  ...listed,
  "crypto-metrics://series/btc/lifespan/Lth_mvrv",
  "crypto-metrics://series/btc/lifespan/Lth_mvrv?startDate=2025-01-01&endDate=2025-03-01",
  "crypto-metrics://series/eth/derivatives/Volume_usd?timeframe=1h&startDate=2025-12-30",
  "crypto-metrics://series/btc/nope/nothing",
  "crypto-metrics://series/zzz/lifespan/Lth_mvrv",
  "crypto-metrics://heatmap/btc",
  "crypto-metrics://heatmap/btc?timeframe=1h&lookback=24h",
  "crypto-metrics://heatmap/btc?timeframe=1m&lookback=6y",
  "crypto-metrics://variation/btc",
  "crypto-metrics://variation/nope",
  "crypto-metrics://elsewhere",
];
for (const uri of uris) put("resources", `read ${uri}`, await answer(() => wide.client.readResource({ uri })));
put("prompts", "prompts/list", await answer(() => wide.client.listPrompts()));
for (const [name, args] of [
  ["asset_brief", { asset: "btc" }],
  ["asset_brief", { asset: "usdt" }],
  ["asset_brief", { asset: "nope" }],
  ["liquidation_risk_brief", { asset: "btc" }],
  ["liquidation_risk_brief", { asset: "eth", timeframe: "4h" }],
  ["nope", {}],
] as const)
  put("prompts", `prompt ${name} ${JSON.stringify(args)}`, await answer(() => wide.client.getPrompt({ name, arguments: args })));
await wide.close();

// ---- MCP: the restricted, the tiny and the slow key ----
for (const key of ["record-onchain", "record-tiny", "record-slow", "record-unknown"]) {
  const who = await connect(key);
  await call(key, "list_assets", {}, who);
  await call(key, "get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" }, who);
  await call(key, "get_ohlcv", { metric: "price", asset: "btc" }, who);
  await call(key, "get_liquidation_heatmap", { asset: "btc" }, who);
  await call(key, "get_metrics_variation", { asset: "btc" }, who);
  await call(key, "compare", { metric: "market/metcalfe_ratio", assets: ["btc", "eth"] }, who);
  await who.close();
}
await service.close();

// ---- REST face ----
const restService = await createInProcessService({
  apiKey: "record-wide",
  keysFile,
  stateDir: join(stateDir, "rest"),
  now: () => NOW,
  rateClock: () => RATE_CLOCK,
  bodyCacheBytes: BODY_CACHE_BYTES,
});
await recordRest(restService, (request, text) => put("rest", request, text));
await restService.close();
rmSync(stateDir, { recursive: true, force: true });

const total = Object.keys(answers).length;
const summary = `${total} answers: ${counts.calls} tool calls and tools/list, ${counts.resources} resource answers, ${counts.prompts} prompt answers, ${counts.rest} REST bodies`;
if (mode === "record") {
  writeFileSync(file, JSON.stringify({ now: new Date(NOW).toISOString(), counts, answers }, null, 1) + "\n");
  process.stdout.write(`recorded ${summary} in ${file}\n`);
} else {
  const before = (JSON.parse(readFileSync(file, "utf8")) as { answers: Record<string, string> }).answers;
  const names = [...new Set([...Object.keys(before), ...Object.keys(answers)])];
  const differ = names.filter((name) => before[name] !== answers[name]);
  const same = names.length - differ.length;
  for (const name of differ)
    process.stdout.write(`${before[name] === undefined ? "new" : answers[name] === undefined ? "gone" : "differs"}: ${name}\n`);
  process.stdout.write(`${same} of ${names.length} answers identical (${summary})\n`);
  process.exitCode = differ.length ? 1 : 0;
}
