// What a configuration is: the commands, their defaults, the settings every command reads, and the error a
// wrong setting raises. `config.ts` reads them; `config/flags.ts` and `config/auth.ts` read their parts.
import type { LogLevel } from "../log.js";
import type { StoreSpec } from "../store-setting.js";

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

/** The settings of `http` authentication, read by `config/auth.ts`. */
export type AuthSettings = Pick<Config, "auth" | "issuer" | "publicUrl" | "introspectionClient">;

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export type Env = Readonly<Record<string, string | undefined>>;

/** A Claude Desktop bundle may pass an optional setting left empty as its literal placeholder. */
export function unexpanded(v: string | undefined): string | undefined {
  return v !== undefined && /^\$\{user_config\.[A-Za-z0-9_]+\}$/.test(v.trim()) ? undefined : v;
}
