// A real authorization server on a loopback port: oidc-provider with PKCE, dynamic client
// registration, client ID metadata documents advertised, resource indicators (JWT access tokens
// whose audience is the resource asked for), RFC 9207 `iss` and introspection. Sign-in and consent
// are automatic: the user is the one the browser stand-in names in `x-test-user`, so an MCP client's
// authorization-code flow runs headlessly (authorize() below follows its redirects).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

import { exportJWK, generateKeyPair } from "jose";
import Provider, { errors } from "oidc-provider";

import { listen } from "../src/listen.js";

export const SCOPE = "metrics:read";

export interface OidcIssuer {
  issuer: string;
  provider: Provider;
  /** Registers a confidential client allowed to introspect (for a resource server's opaque tokens). */
  introspector: { id: string; secret: string };
  close(): Promise<void>;
}

/**
 * `resources`: the resource URLs (our /mcp public URLs) tokens may be issued for, as JWTs; those in
 * `opaque` get opaque access tokens instead (their resource servers introspect them).
 */
export async function startOidcIssuer(resources: readonly string[], opaque: readonly string[] = []): Promise<OidcIssuer> {
  // The provider needs its issuer URL, which is known once the server listens.
  const made: { provider?: Provider } = {};
  const server: Server = createServer((req, res) => {
    if ((req.url ?? "").startsWith("/interaction/")) void interact(made.provider!, req, res);
    else made.provider!.callback()(req, res);
  });
  const { url: issuer } = await listen(server, "127.0.0.1", 0);
  // RS256 signs ID tokens (the default every client accepts), ES256 the access tokens.
  const keys = [];
  for (const alg of ["RS256", "ES256"]) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true });
    keys.push({ ...(await exportJWK(privateKey)), kid: `${alg.toLowerCase()}-1`, alg, use: "sig" });
  }
  const introspector = { id: "metrics-resource-server", secret: "introspection-secret-of-the-test-issuer" };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: introspector.id,
        client_secret: introspector.secret,
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
    ],
    jwks: { keys },
    scopes: ["openid", "offline_access", SCOPE],
    pkce: { required: () => true },
    cookies: { keys: ["cookie-key-of-the-test-issuer"] },
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      introspection: { enabled: true },
      clientIdMetadataDocument: { enabled: true, ack: "draft-02" },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (opaque.includes(resource)) return { scope: SCOPE, audience: resource, accessTokenTTL: 3600, accessTokenFormat: "opaque" };
          if (!resources.includes(resource)) throw new errors.InvalidTarget();
          return { scope: SCOPE, audience: resource, accessTokenTTL: 3600, accessTokenFormat: "jwt", jwt: { sign: { alg: "ES256" } } };
        },
      },
    },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, AccessToken: 3600, RefreshToken: 86400 },
  });
  made.provider = provider;
  return {
    issuer,
    provider,
    introspector,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Signs in the user named by `x-test-user` and consents to every scope and resource asked. */
async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    const { prompt, params, session } = details;
    if (prompt.name === "login") {
      const user = req.headers["x-test-user"];
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: typeof user === "string" ? user : "anonymous" } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = details.grantId
      ? (await provider.Grant.find(details.grantId))!
      : new provider.Grant({ accountId: session!.accountId, clientId: params["client_id"] as string });
    const missing = prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes.join(" "));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" }).end(`interaction failed: ${(err as Error).message}`);
  }
}

/**
 * The browser's part of an authorization-code flow, headless: follows the authorization server's
 * redirects (keeping its cookies) as `user` until it sends the browser to `redirectUri`, and returns
 * that callback's query (code, state, iss).
 */
export async function authorize(authorizationUrl: URL, redirectUri: string, user: string): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl.href;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(redirectUri)) return new URL(url).searchParams;
    const res = await fetch(url, {
      redirect: "manual",
      headers: { "x-test-user": user, cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location)
      throw new Error(`authorization stopped at ${res.status}: ${(await res.text()).slice(0, 300)}`);
    url = new URL(location, url).href;
  }
  throw new Error("authorization did not reach the redirect URI in 20 hops");
}
