#!/usr/bin/env node
// Command-line entry: parses the configuration once and dispatches to stdio (default), http, api or call.
import { sqliteDriverProblem } from "./backend/inprocess/metering/sqlite-driver.js";
import { StoreConfigError, StoreUnavailableError } from "./backend/inprocess/metering/store.js";
import { errorJson, wantsJson } from "./call/json-mode.js";
import { type Config, ConfigError, describeConfig, loadConfig } from "./config.js";
import { commonFlagsUsage } from "./config/flags.js";
import { log, setLogLevel } from "./log.js";
import { stopOnSignals } from "./process-end.js";
import { storeDirProblem } from "./state-dir.js";

const USAGE = `crypto-metrics-mcp — crypto market and on-chain metrics for AI assistants (MCP)

Usage:
  crypto-metrics-mcp [stdio]                                   MCP over stdio (default)
  crypto-metrics-mcp http [--host 127.0.0.1] [--port 3000] [--require-key | --allow-anonymous] [--allowed-hosts NAME,…]
                                                               MCP over Streamable HTTP at /mcp
  crypto-metrics-mcp http --auth oauth --issuer URL --public-url URL [--allowed-hosts NAME,…]
                                                               the same, as an OAuth 2.1 resource server
                                                               (--auth key: API keys, the default; none: loopback only)
  crypto-metrics-mcp api [--host 127.0.0.1] [--port 8080]      the REST API of the in-process service
  crypto-metrics-mcp call TOOL [--name value ...] [--format text|json|csv]
                                                               one tool call, result on stdout
  crypto-metrics-mcp call --batch FILE|-                       many calls: JSON Lines in and out
  crypto-metrics-mcp call --help                               tools, batches, exit codes

Flags: ${commonFlagsUsage()}
  --store postgres://USER@HOST:5432/DB shares credits and rate windows between machines
  (default: an SQLite file in the state directory, shared by the processes of this machine)
Environment: CRYPTO_METRICS_API_KEY, CRYPTO_METRICS_BASE_URL, CRYPTO_METRICS_KEYS_FILE,
  CRYPTO_METRICS_STATE_DIR, CRYPTO_METRICS_STORE, CRYPTO_METRICS_NOW, CRYPTO_METRICS_LOG_LEVEL,
  CRYPTO_METRICS_ALLOWED_HOSTS (http: host names a reverse proxy forwards),
  CRYPTO_METRICS_AUTH, CRYPTO_METRICS_OAUTH_ISSUER, CRYPTO_METRICS_PUBLIC_URL (http: --auth, --issuer, --public-url),
  CRYPTO_METRICS_OAUTH_CLIENT_ID, CRYPTO_METRICS_OAUTH_CLIENT_SECRET (http --auth oauth: introspection of opaque tokens)
`;

/** `code` names the failure for `call --format json` and `call --batch`, which answer errors in JSON. */
function fail(message: string, exit: number, code = exit === 2 ? "config" : "internal"): never {
  if (wantsJson(process.argv.slice(2))) process.stderr.write(errorJson({ code, message, exit_code: exit }));
  else process.stderr.write(`crypto-metrics-mcp: ${message}\n`);
  process.exit(exit);
}

function version(): string {
  try {
    return (
      JSON.parse(process.getBuiltinModule("node:fs").readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
        version: string;
      }
    ).version;
  } catch {
    return "unknown";
  }
}

/** A failure to listen, in words, for api and http alike; undefined for anything else. */
function listenProblem(err: unknown, config: Config): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE") return `port ${config.port} on ${config.host} is in use; choose another with --port (0 picks a free one)`;
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") return `cannot listen on ${config.host}; give a local address with --host`;
  return undefined;
}

/**
 * The module of a command that hosts the server (http, api). The .mcpb bundle leaves them out: a
 * desktop host starts stdio (scripts/pack.ts, HOSTING_ONLY), so there it is refused in words.
 */
async function hostingModule<T>(command: "http" | "api", load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if ((err as NodeJS.ErrnoException | undefined)?.code !== "ERR_MODULE_NOT_FOUND") throw err;
    fail(
      `the ${command} command is not part of this installation: the .mcpb bundle for desktop hosts serves stdio and call only. ` +
        "To host the server, install the npm package (npm install -g crypto-metrics-mcp); if this is the npm package, reinstall it",
      2,
    );
  }
}

async function runApi(config: Config): Promise<void> {
  if (config.baseUrl) log.info("the api command serves the in-process service; CRYPTO_METRICS_BASE_URL is not used");
  const { createInProcessService } = await import("./backend/inprocess/backend.js");
  const { startRestServer, BODY_CACHE_BYTES } = await hostingModule("api", () => import("./backend/rest.js"));
  const service = await createInProcessService({ ...config, bodyCacheBytes: BODY_CACHE_BYTES });
  let rest;
  try {
    rest = await startRestServer(service, { host: config.host, port: config.port });
  } catch (err) {
    await service.close();
    const problem = listenProblem(err, config);
    if (problem) fail(problem, 1);
    throw err;
  }
  const server = rest;
  stopOnSignals(async (signal) => {
    log.info("shutting down", { signal });
    await server.close();
    await service.close();
  });
  process.stderr.write(`listening on ${server.url}\n`);
}

/**
 * Keeps a stdio server's heap near its live size. By default V8 doubles the young generation up to
 * 2 × 16 MB and lets the old one reach about 4× its live size between full GCs: a burst of heatmap
 * calls took the stdio server to ~180 MB resident for ~15 MB of live data. Both flags are read at
 * each GC, so they take effect after start-up (the clients that launch `node dist/cli.js` pass no
 * node flags). `npm run bench`: peak RSS 177 → 110 MB over 450 tool calls, heatmap latency +20 %,
 * everything else unchanged. A desktop host starts one stdio server per client, which answers one
 * model at a time: there memory is what counts. The `http` server answers many clients at once,
 * and with a young generation this small their requests' objects outlive it: a full GC every
 * ~0.2 s under load. It keeps V8's defaults: ~10 % more calls/s, p99 at 8 clients 14 ms instead of
 * 23, for ~55 MB more resident under sustained load, as much as the SDK's minimal server holds
 * (`npm run bench`, http section).
 */
function boundHeapGrowth(): void {
  // Fetched here, not imported: node:v8 is not loaded by Node at start, and `call` has no use for it.
  const { setFlagsFromString } = process.getBuiltinModule("node:v8");
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--heap-growing-percent=50");
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env, process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError) fail(`${err.message}\n(run with --help for usage)`, 2);
    throw err;
  }
  // Help and version are asked for explicitly, outside any protocol session.
  if (config.help) return void process.stdout.write(USAGE); // stdout-ok
  if (config.version) return void process.stdout.write(`${version()}\n`); // stdout-ok
  const storeProblem = storeDirProblem(config);
  if (storeProblem) fail(storeProblem, 2);
  setLogLevel(config.logLevel);
  if (config.command !== "call") {
    // stdout may carry JSON-RPC: a stray console.log from any dependency goes to stderr instead.
    console.log = console.info = console.debug = console.error;
  }
  if (config.command === "stdio") boundHeapGrowth();
  // The embedded service meters in SQLite: a runtime without a driver stops here, not at the first call.
  const { store } = config;
  if ((config.command === "api" || !config.baseUrl) && store.kind === "sqlite") {
    const problem = sqliteDriverProblem();
    if (problem) fail(`the metering store ${store.path} cannot be opened: ${problem}`, 2);
  }
  log.debug("starting", { config: describeConfig(config) });
  switch (config.command) {
    case "api":
      return runApi(config);
    // Each command loads only its own modules (and the bundle keeps them in separate chunks):
    // a stdio start never pays for node:http servers, the REST face or the HTTP transport.
    case "stdio":
      return (await import("./transports/stdio.js")).runStdio(config);
    case "http":
      return (await hostingModule("http", () => import("./transports/http.js"))).runHttp(config).catch((err: unknown) => {
        const problem = listenProblem(err, config);
        if (problem) fail(problem, 1);
        throw err;
      });
    case "call":
      return (await import("./call/command.js")).runCall(config);
  }
}

main().catch((err: unknown) => {
  // By name, not instanceof: importing keys.ts here would load the catalog and zod before the handshake.
  if (err instanceof Error && err.name === "KeysFileError") fail(err.message, 2);
  if (err instanceof StoreConfigError) fail(err.message, 2);
  if (err instanceof StoreUnavailableError) fail(err.message, 1);
  // A chunk of dist/ missing (a partial copy or unpacking): the same line as dist/cli.js gives.
  if ((err as NodeJS.ErrnoException | undefined)?.code === "ERR_MODULE_NOT_FOUND") {
    fail(
      `the installation is damaged (${(err as Error).message.split("\n")[0]}); reinstall it (npm install -g crypto-metrics-mcp, or the .mcpb bundle again)`,
      1,
    );
  }
  // Written whatever the log level: a program that stops owes the reason, even under --log-level silent.
  fail(err instanceof Error ? err.message : String(err), 1);
});
