// One loadConfig(env, argv): defaults, then environment, then command-line flags. Errors name the
// flag or variable at fault and the fix; the API key is read but never printed. The flags' table and
// parser are `config/flags.ts`, the settings of `http` authentication `config/auth.ts`.
import { resolve } from "node:path";

import { parseDateInput } from "./catalog/dates.js";
import { authOf } from "./config/auth.js";
import { checkFlagsApply, parseArgs, type ParsedArgs } from "./config/flags.js";
import { type Config, ConfigError, DEFAULT_HOST, DEFAULT_PORTS, type Env, unexpanded } from "./config/shape.js";
import { isLogLevel, log, LOG_LEVELS, type LogLevel } from "./log.js";
import { defaultStateDir } from "./state-dir.js";
import { parseStoreSetting, StoreConfigError, type StoreSpec } from "./store-setting.js";
import { allowedHostName } from "./transports/host-check.js";

export { AUTH_MODES, COMMANDS, ConfigError, DEFAULT_HOST, DEFAULT_PORTS } from "./config/shape.js";
export type { AuthMode, CallSpec, Command, Config, Env } from "./config/shape.js";

function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`CRYPTO_METRICS_BASE_URL is not a URL; set it to the service's address, e.g. https://api.example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`CRYPTO_METRICS_BASE_URL must use http or https (got ${url.protocol.replace(":", "")})`);
  }
  if (url.username || url.password) {
    throw new ConfigError("CRYPTO_METRICS_BASE_URL must not carry credentials; put the key in CRYPTO_METRICS_API_KEY");
  }
  if (url.search || url.hash) {
    throw new ConfigError("CRYPTO_METRICS_BASE_URL must not carry a query string or fragment; give the base address only");
  }
  return url.href.replace(/\/+$/, "");
}

function parseNow(raw: string): number {
  const trimmed = raw.trim();
  if (/^\d{10,15}$/.test(trimmed)) return Number(trimmed);
  const parsed = parseDateInput(trimmed);
  if (!parsed) {
    throw new ConfigError(
      `CRYPTO_METRICS_NOW is not a valid instant; use an ISO 8601 date-time such as 2025-12-31T12:00:00Z (or epoch milliseconds)`,
    );
  }
  return parsed.ms;
}

function hasPassword(store: string): boolean {
  try {
    const url = new URL(store.trim());
    return /^postgres(ql)?:$/i.test(url.protocol) && (url.password !== "" || url.searchParams.has("password"));
  } catch {
    return false;
  }
}

function parsePort(raw: string, source: string): number {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`${source} must be a port number from 0 to 65535 (0 picks a free port); got "${raw}"`);
  }
  return Number(raw);
}

function parseLevel(raw: string, source: string): LogLevel {
  const level = raw.trim().toLowerCase();
  if (!isLogLevel(level)) throw new ConfigError(`${source} must be one of ${LOG_LEVELS.join(", ")}; got "${raw}"`);
  return level;
}

/** `--store` (else CRYPTO_METRICS_STORE); default: SQLite in `stateDir`. */
function storeOf(args: ParsedArgs, env: Env, stateDir: string): StoreSpec {
  const rawStore = args.values.store ?? env["CRYPTO_METRICS_STORE"];
  let store: StoreSpec;
  try {
    store = parseStoreSetting(unexpanded(rawStore), resolve(stateDir));
  } catch (err) {
    if (err instanceof StoreConfigError) throw new ConfigError(err.message);
    throw err;
  }
  if (args.values.store !== undefined && hasPassword(args.values.store)) {
    // Every local user can read a process's arguments (ps); the warning never repeats the password.
    log.warn(
      "--store carries a password, which every local user can read in the process list; put the URL in CRYPTO_METRICS_STORE instead, or the password in PGPASSWORD or ~/.pgpass",
    );
  }
  return store;
}

/** Reads the whole configuration; throws ConfigError with a message fit for the terminal. */
export function loadConfig(env: Env = process.env, argv: readonly string[] = process.argv.slice(2)): Config {
  const args = parseArgs(argv);
  const command = args.command ?? "stdio";
  const help = args.switches.has("help");
  const version = args.switches.has("version");
  checkFlagsApply(args, command);

  const apiKey = unexpanded(env["CRYPTO_METRICS_API_KEY"]) || undefined;
  const rawBase = unexpanded(env["CRYPTO_METRICS_BASE_URL"])?.trim();
  const rawNow = env["CRYPTO_METRICS_NOW"]?.trim();
  const fixedNowMs = rawNow ? parseNow(rawNow) : undefined;
  const keysFile = args.values["keys-file"] ?? (env["CRYPTO_METRICS_KEYS_FILE"]?.trim() || undefined);
  // An empty --state-dir (an unset shell variable) means unset, as an empty CRYPTO_METRICS_STATE_DIR does, not the working directory.
  const stateDir = args.values["state-dir"]?.trim() || env["CRYPTO_METRICS_STATE_DIR"]?.trim() || defaultStateDir(env);
  const store = storeOf(args, env, stateDir);
  const rawLevel = args.values["log-level"];
  const envLevel = env["CRYPTO_METRICS_LOG_LEVEL"]?.trim();
  const host = args.values.host ?? DEFAULT_HOST;
  if (!/^[A-Za-z0-9.:\-[\]%]+$/.test(host)) throw new ConfigError(`--host must be a host name or IP address; got "${host}"`);
  const auth = authOf(args, env, command, host);

  return {
    command,
    host: host.replace(/^\[(.*)\]$/, "$1"),
    port: args.values.port !== undefined ? parsePort(args.values.port, "--port") : DEFAULT_PORTS[command],
    requireKey: args.switches.has("require-key"),
    allowedHosts: command === "http" ? parseAllowedHosts(args.values["allowed-hosts"], env["CRYPTO_METRICS_ALLOWED_HOSTS"]) : [],
    ...auth,
    apiKey,
    baseUrl: rawBase ? parseBaseUrl(rawBase) : undefined,
    keysFile: keysFile ? resolve(keysFile) : undefined,
    stateDir: resolve(stateDir),
    store,
    now: fixedNowMs === undefined ? Date.now : () => fixedNowMs,
    fixedNowMs,
    logLevel:
      rawLevel !== undefined ? parseLevel(rawLevel, "--log-level") : envLevel ? parseLevel(envLevel, "CRYPTO_METRICS_LOG_LEVEL") : "info",
    call: args.call,
    help,
    version,
  };
}

/** `--allowed-hosts` (else CRYPTO_METRICS_ALLOWED_HOSTS, when not empty): comma-separated host names. */
function parseAllowedHosts(flag: string | undefined, env: string | undefined): string[] {
  const [raw, source] = flag !== undefined ? [flag, "--allowed-hosts"] : [env?.trim() || undefined, "CRYPTO_METRICS_ALLOWED_HOSTS"];
  if (raw === undefined) return [];
  const names: string[] = [];
  for (const entry of raw.split(",")) {
    const verdict = allowedHostName(entry);
    if ("problem" in verdict) {
      throw new ConfigError(
        `${source} must be host names separated by commas, as the proxy in front sends them in Host (e.g. ${source === "--allowed-hosts" ? "--allowed-hosts " : "CRYPTO_METRICS_ALLOWED_HOSTS="}mcp.example.com,mcp.example.org); got ${verdict.problem}`,
      );
    }
    if (!names.includes(verdict.name)) names.push(verdict.name);
  }
  return names;
}

/** A description of the configuration that is safe to log: the key only as present or absent. */
export function describeConfig(config: Config): string {
  return [
    `command=${config.command}`,
    config.command === "http" || config.command === "api" ? `listen=${config.host}:${config.port}` : "",
    config.allowedHosts.length ? `allowed_hosts=${config.allowedHosts.join(",")}` : "",
    config.command === "http" && config.auth !== "key" ? `auth=${config.auth}` : "",
    config.issuer ? `issuer=${config.issuer}` : "",
    config.publicUrl ? `public_url=${config.publicUrl}` : "",
    `backend=${config.baseUrl ? config.baseUrl : "inprocess"}`,
    `key=${config.apiKey ? "set" : "unset"}`,
    config.keysFile ? `keys_file=${config.keysFile}` : "",
    `state_dir=${config.stateDir}`,
    `store=${config.store.display}`,
    config.fixedNowMs !== undefined ? `now=${new Date(config.fixedNowMs).toISOString()}` : "",
  ]
    .filter(Boolean)
    .join(" ");
}
