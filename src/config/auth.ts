// How `http` authenticates its callers: API keys (the default), OAuth 2.1 access tokens from one issuer, or
// none on loopback. Read from --auth, --issuer and --public-url, else their CRYPTO_METRICS_* variables.
import { isLoopback } from "../transports/host-check.js";
import type { ParsedArgs } from "./flags.js";
import { AUTH_MODES, type AuthMode, type AuthSettings, type Command, ConfigError, type Env } from "./shape.js";

/** How `http` authenticates its callers (every other command: by key), for a server bound to `host`. */
export function authOf(args: ParsedArgs, env: Env, command: Command, host: string): AuthSettings {
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

/** `--auth` (else CRYPTO_METRICS_AUTH), with `--issuer` and `--public-url` (else their variables) for `oauth`. */
function parseAuth(args: ParsedArgs, env: Env, host: string): AuthSettings {
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
