// One loadConfig(env, argv): defaults, then environment, then command-line flags. Errors name the
// flag or variable at fault and the fix; the API key is read but never printed.
import { resolve } from "node:path";
import { parseDateInput } from "./catalog/dates.js";
import { parseStoreSetting, StoreConfigError, type StoreSpec } from "./store-setting.js";
import { isLogLevel, log, LOG_LEVELS, type LogLevel } from "./log.js";
import { allowedHostName, isLoopback } from "./transports/host-check.js";
import { defaultStateDir } from "./state-dir.js";

export const COMMANDS = ["stdio", "http", "api", "call"] as const;
export const AUTH_MODES = ["key", "oauth", "none"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];
export type Command = (typeof COMMANDS)[number];

export const DEFAULT_PORTS: Record<Command, number> = { stdio: 0, http: 3000, api: 8080, call: 0 };
export const DEFAULT_HOST = "127.0.0.1";

export interface CallSpec {
  /**
   * Everything after `call` but the configuration flags (--keys-file, --state-dir, --store,
   * --log-level), as given: the tool name, its arguments and the call's own options. Reading them
   * needs the tool's schema (which flags are booleans or arrays), so the call command parses them.
   */
  argv: string[];
}

export interface Config {
  command: Command;
  host: string;
  port: number;
  /** `http` only: refuse MCP requests without `Authorization: Bearer`. */
  requireKey: boolean;
  /** `http` only: public host names accepted in Host and Origin besides the bound address's (a reverse proxy's). */
  allowedHosts: readonly string[];
  /**
   * `http` only (--auth / CRYPTO_METRICS_AUTH): `key` (API keys, the default), `oauth` (an OAuth 2.1
   * resource server: every request carries an access token from `issuer` whose audience is `publicUrl`),
   * or `none` (no authentication, loopback only).
   */
  auth: AuthMode;
  /** `--auth oauth`: the authorization server's issuer identifier, exactly as its tokens' `iss`. */
  issuer: string | undefined;
  /** `--auth oauth`: the canonical public URL of /mcp, the tokens' audience (RFC 8707). */
  publicUrl: string | undefined;
  /**
   * `--auth oauth`: this server's client credentials at the issuer's RFC 7662 introspection endpoint
   * (CRYPTO_METRICS_OAUTH_CLIENT_ID and CRYPTO_METRICS_OAUTH_CLIENT_SECRET), for opaque access tokens.
   */
  introspectionClient: { id: string; secret: string } | undefined;
  /** CRYPTO_METRICS_API_KEY: the upstream key with a base URL, else the local default key. */
  apiKey: string | undefined;
  /** CRYPTO_METRICS_BASE_URL without a trailing slash: use the real service over HTTP. */
  baseUrl: string | undefined;
  keysFile: string | undefined;
  stateDir: string;
  /** Where credits and rate windows are kept (--store / CRYPTO_METRICS_STORE); default: SQLite in stateDir. */
  store: StoreSpec;
  /** Wall clock for data ("now" of the service); pinned when CRYPTO_METRICS_NOW is set. */
  now: () => number;
  /** The pinned instant, when there is one. */
  fixedNowMs: number | undefined;
  logLevel: LogLevel;
  call: CallSpec | undefined;
  help: boolean;
  version: boolean;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export type Env = Readonly<Record<string, string | undefined>>;

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

const VALUE_FLAGS = [
  "host",
  "port",
  "allowed-hosts",
  "auth",
  "issuer",
  "public-url",
  "keys-file",
  "state-dir",
  "store",
  "log-level",
] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];
const SWITCHES = ["require-key", "allow-anonymous", "help", "version"] as const;
type Switch = (typeof SWITCHES)[number];
const NETWORK_COMMANDS: readonly Command[] = ["http", "api"];

interface ParsedArgs {
  command: Command | undefined;
  values: Partial<Record<ValueFlag, string>>;
  switches: Set<Switch>;
  call: CallSpec | undefined;
}

function splitFlag(token: string): [name: string, inline: string | undefined] {
  const eq = token.indexOf("=");
  return eq === -1 ? [token.slice(2), undefined] : [token.slice(2, eq), token.slice(eq + 1)];
}

function parseArgs(argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { command: undefined, values: {}, switches: new Set(), call: undefined };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (out.call && !isConfigFlag(token)) {
      out.call.argv.push(token);
      continue;
    }
    if (token === "-h") {
      out.switches.add("help");
      continue;
    }
    if (token === "-v") {
      out.switches.add("version");
      continue;
    }
    if (!token.startsWith("--")) {
      if (out.command !== undefined) throw new ConfigError(`unexpected argument "${token}"; run with --help for usage`);
      if (!(COMMANDS as readonly string[]).includes(token)) {
        throw new ConfigError(`unknown command "${token}"; use one of ${COMMANDS.join(", ")} (default stdio)`);
      }
      out.command = token as Command;
      if (out.command === "call") out.call = { argv: [] };
      continue;
    }
    const [name, inline] = splitFlag(token);
    if ((SWITCHES as readonly string[]).includes(name)) {
      if (inline !== undefined) throw new ConfigError(`--${name} takes no value`);
      out.switches.add(name as Switch);
    } else if ((VALUE_FLAGS as readonly string[]).includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith("--"))) {
        throw new ConfigError(`--${name} needs a value, e.g. --${name} ${name === "port" ? "8080" : "…"}`);
      }
      out.values[name as ValueFlag] = value;
    } else {
      throw new ConfigError(`unknown flag --${name}; accepted: ${[...VALUE_FLAGS, ...SWITCHES].map((f) => `--${f}`).join(", ")}`);
    }
  }
  return out;
}

/** The flags of the configuration that `call` takes anywhere among its own tokens. */
const CALL_CONFIG_FLAGS: readonly ValueFlag[] = ["keys-file", "state-dir", "store", "log-level"];

function isConfigFlag(token: string): boolean {
  return token.startsWith("--") && (CALL_CONFIG_FLAGS as readonly string[]).includes(splitFlag(token)[0]);
}

/** Refuses flags given to a command they do not apply to, and flags that contradict each other. */
function checkFlagsApply(args: ParsedArgs, command: Command): void {
  for (const flag of ["host", "port"] as const) {
    if (args.values[flag] !== undefined && !NETWORK_COMMANDS.includes(command)) {
      throw new ConfigError(`--${flag} applies to the http and api commands, not ${command}`);
    }
  }
  for (const flag of ["require-key", "allow-anonymous"] as const) {
    if (args.switches.has(flag) && command !== "http") throw new ConfigError(`--${flag} applies to the http command, not ${command}`);
  }
  if (args.switches.has("require-key") && args.switches.has("allow-anonymous")) {
    throw new ConfigError("--require-key and --allow-anonymous contradict each other; give one");
  }
  for (const flag of ["allowed-hosts", "auth", "issuer", "public-url"] as const) {
    if (args.values[flag] !== undefined && command !== "http")
      throw new ConfigError(`--${flag} applies to the http command, not ${command}`);
  }
}

/** A Claude Desktop bundle may pass an optional setting left empty as its literal placeholder. */
function unexpanded(v: string | undefined): string | undefined {
  return v !== undefined && /^\$\{user_config\.[A-Za-z0-9_]+\}$/.test(v.trim()) ? undefined : v;
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

/** How `http` authenticates its callers (every other command: by key), for a server bound to `host`. */
function authOf(
  args: ParsedArgs,
  env: Env,
  command: Command,
  host: string,
): Pick<Config, "auth" | "issuer" | "publicUrl" | "introspectionClient"> {
  const auth =
    command === "http"
      ? parseAuth(args, env, host.replace(/^\[(.*)\]$/, "$1"))
      : { auth: "key" as const, issuer: undefined, publicUrl: undefined, introspectionClient: undefined };
  // Beyond loopback, a request without a key would be served (and metered) with this server's own key.
  if (
    command === "http" &&
    auth.auth === "key" &&
    !isLoopback(host.replace(/^\[(.*)\]$/, "$1")) &&
    !args.switches.has("require-key") &&
    !args.switches.has("allow-anonymous")
  ) {
    throw new ConfigError(
      `http --host ${host} listens beyond loopback, where any caller without a key would be served with this server's own key; add --require-key (each caller sends Authorization: Bearer <key>), or --allow-anonymous to accept that`,
    );
  }
  return auth;
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

/** `--auth` (else CRYPTO_METRICS_AUTH), with `--issuer` and `--public-url` (else their variables) for `oauth`. */
function parseAuth(args: ParsedArgs, env: Env, host: string): Pick<Config, "auth" | "issuer" | "publicUrl" | "introspectionClient"> {
  const flag = args.values.auth;
  const raw = (flag ?? (env["CRYPTO_METRICS_AUTH"]?.trim() || "key")).trim().toLowerCase();
  const source = flag !== undefined ? "--auth" : "CRYPTO_METRICS_AUTH";
  if (!(AUTH_MODES as readonly string[]).includes(raw))
    throw new ConfigError(`${source} must be one of ${AUTH_MODES.join(", ")}; got "${raw.slice(0, 40)}"`);
  const auth = raw as AuthMode;
  for (const name of ["require-key", "allow-anonymous"] as const) {
    if (auth !== "key" && args.switches.has(name))
      throw new ConfigError(
        `--${name} applies to --auth key; with --auth ${auth} ${auth === "oauth" ? "every request needs an access token already" : "no request is authenticated"}`,
      );
  }
  if (auth === "none" && !isLoopback(host))
    throw new ConfigError(
      `--auth none serves anyone who can connect, so it is allowed on loopback only; --host ${host} is not. Use --auth oauth or --auth key beyond loopback`,
    );
  const issuerRaw = args.values.issuer ?? (env["CRYPTO_METRICS_OAUTH_ISSUER"]?.trim() || undefined);
  const publicRaw = args.values["public-url"] ?? (env["CRYPTO_METRICS_PUBLIC_URL"]?.trim() || undefined);
  if (auth !== "oauth") {
    if (args.values.issuer !== undefined || args.values["public-url"] !== undefined)
      throw new ConfigError(`--issuer and --public-url apply to --auth oauth; add --auth oauth or leave them out`);
    return { auth, issuer: undefined, publicUrl: undefined, introspectionClient: undefined };
  }
  if (issuerRaw === undefined)
    throw new ConfigError(
      "--auth oauth needs --issuer URL (or CRYPTO_METRICS_OAUTH_ISSUER): the authorization server's issuer identifier, exactly as its tokens carry it in iss (e.g. https://auth.example.com/realms/team)",
    );
  if (publicRaw === undefined)
    throw new ConfigError(
      "--auth oauth needs --public-url URL (or CRYPTO_METRICS_PUBLIC_URL): the address clients use for /mcp, e.g. https://mcp.example.com/mcp; tokens must name it as their audience",
    );
  oauthUrl(issuerRaw, args.values.issuer !== undefined ? "--issuer" : "CRYPTO_METRICS_OAUTH_ISSUER", "https://auth.example.com");
  const publicUrl = oauthUrl(
    publicRaw,
    args.values["public-url"] !== undefined ? "--public-url" : "CRYPTO_METRICS_PUBLIC_URL",
    "https://mcp.example.com/mcp",
  );
  const clientId = env["CRYPTO_METRICS_OAUTH_CLIENT_ID"]?.trim() || undefined;
  const clientSecret = env["CRYPTO_METRICS_OAUTH_CLIENT_SECRET"]?.trim() || undefined;
  if ((clientId === undefined) !== (clientSecret === undefined))
    throw new ConfigError(
      "CRYPTO_METRICS_OAUTH_CLIENT_ID and CRYPTO_METRICS_OAUTH_CLIENT_SECRET go together (this server's credentials at the issuer's introspection endpoint); set both or neither",
    );
  // The issuer is compared with the tokens' iss as written; the resource is canonical (RFC 8707: no trailing slash).
  return {
    auth,
    issuer: issuerRaw.trim(),
    publicUrl: publicUrl.href.replace(/\/+$/, ""),
    introspectionClient: clientId && clientSecret ? { id: clientId, secret: clientSecret } : undefined,
  };
}

/** An https URL (http only for a loopback host) without credentials, query or fragment. */
function oauthUrl(raw: string, source: string, example: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${source} is not a URL; give an absolute https URL such as ${example}`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(host)))
    throw new ConfigError(
      `${source} must use https (plain http is accepted for a loopback host only); got ${url.protocol.replace(":", "")}://${url.host}`,
    );
  if (url.username || url.password) throw new ConfigError(`${source} must not carry credentials`);
  if (url.search || url.hash || raw.includes("#"))
    throw new ConfigError(`${source} must not carry a query string or fragment; give ${example}`);
  return url;
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
    NETWORK_COMMANDS.includes(config.command) ? `listen=${config.host}:${config.port}` : "",
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
