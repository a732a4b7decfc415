// Access-token verification for the OAuth resource server. JWTs are verified with `jose` (signature
// against the issuer's JWKS, issuer, audience = our public URL per RFC 8707, expiry and not-before
// with a bounded clock skew, an allow-list of asymmetric algorithms); tokens that are not JWTs go to
// the issuer's RFC 7662 introspection endpoint when it has one and this server has credentials for
// it. A verdict says why a token is refused in two ways: for the operator's log and for the client;
// neither ever holds the token.
import { createHash } from "node:crypto";

import { createRemoteJWKSet, customFetch, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from "jose";

import { discoverIssuer, type IssuerMetadata, IssuerUnavailableError } from "./issuer.js";

export const SCOPE = "metrics:read";
/** Asymmetric algorithms only: a shared-secret (HS*) token could be forged by anyone holding the secret, `none` by anyone. */
export const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];
/** Clock skew tolerated on exp, nbf and iat. */
export const CLOCK_TOLERANCE_S = 30;

export type Verdict =
  | { ok: true; subject: string; scopes: string[]; expiresAt: number; clientId: string }
  | {
      ok: false;
      /** 401 invalid_token, 403 insufficient_scope, 503 when the issuer cannot be reached to decide. */
      status: 401 | 403 | 503;
      error: "invalid_token" | "insufficient_scope" | "temporarily_unavailable";
      /** For the operator's log: what was wrong, never the token. */
      reason: string;
      /** For the client: what was wrong and what to do. */
      description: string;
      subject?: string;
    };

export interface VerifierOptions {
  issuer: string;
  /** The canonical URL of /mcp: the audience tokens must carry. */
  audience: string;
  /** Client credentials for RFC 7662 introspection of opaque tokens (unset: opaque tokens are refused). */
  introspectionClient?: { id: string; secret: string } | undefined;
  fetch?: typeof fetch;
  /** Least time between two JWKS fetches triggered by an unknown key id (rotation), ms. */
  jwksCooldownMs?: number;
  /** How long a verified token is remembered (never past its expiry), ms. */
  cacheMs?: number;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const MAX_CACHED = 10_000;
/** Seconds before a new attempt to discover an issuer that could not be reached. */
const RETRY_DISCOVERY_MS = 5_000;

function refuse(reason: string, description: string, subject?: string): Verdict {
  return { ok: false, status: 401, error: "invalid_token", reason, description, ...(subject !== undefined && { subject }) };
}

function unavailable(reason: string): Verdict {
  return {
    ok: false,
    status: 503,
    error: "temporarily_unavailable",
    reason,
    description: "The server cannot reach its authorization server to check the token right now; nothing was charged. Retry shortly.",
  };
}

/** The scopes a token grants: `scope` (RFC 9068, space-separated) or `scp` (a list or a string, as Azure AD and Okta write it). */
function scopesOf(payload: JWTPayload | Record<string, unknown>): string[] {
  const raw = payload["scope"] ?? payload["scp"];
  if (typeof raw === "string") return raw.split(" ").filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === "string");
  return [];
}

/** Why jose refused a JWT, in words for each side; undefined when it was not the token's fault (the JWKS could not be read). */
function explain(err: unknown): { reason: string; description: string } | undefined {
  const code = (err as { code?: string } | undefined)?.code;
  if (err instanceof errors.JWTExpired) return { reason: "expired token", description: "The access token has expired; get a new one." };
  if (err instanceof errors.JWTClaimValidationFailed) {
    const claim = err.claim;
    if (claim === "aud")
      return {
        reason: "token for another resource (audience is not this server's public URL)",
        description: "The access token was issued for another resource; request one for this server's URL (resource parameter).",
      };
    if (claim === "iss")
      return { reason: "token from another issuer", description: "The access token comes from an issuer this server does not trust." };
    if (claim === "nbf")
      return { reason: "token not yet valid (nbf in the future)", description: "The access token is not valid yet; check the clocks." };
    if (claim === "iat")
      return {
        reason: "token issued in the future (iat)",
        description: "The access token claims to be issued in the future; check the clocks.",
      };
    return { reason: `token without a valid "${claim}" claim`, description: `The access token lacks a valid "${claim}" claim.` };
  }
  if (code === "ERR_JWS_SIGNATURE_VERIFICATION_FAILED")
    return { reason: "bad signature", description: "The access token's signature does not verify." };
  if (code === "ERR_JOSE_ALG_NOT_ALLOWED" || code === "ERR_JOSE_NOT_SUPPORTED")
    return {
      reason: "signature algorithm not allowed",
      description: `The access token is signed with an algorithm this server does not accept (${ALGORITHMS.join(", ")}).`,
    };
  if (code === "ERR_JWKS_NO_MATCHING_KEY" || code === "ERR_JWKS_MULTIPLE_MATCHING_KEYS")
    return {
      reason: "signed with a key the issuer does not publish",
      description: "The access token is signed with a key the issuer does not publish.",
    };
  if (code === "ERR_JWS_INVALID" || code === "ERR_JWT_INVALID")
    return { reason: "malformed token", description: "The access token is malformed." };
  return undefined;
}

export class TokenVerifier {
  private metadata: Promise<IssuerMetadata> | undefined;
  private failedAt = 0;
  private jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  private readonly cache = new Map<string, { verdict: Verdict & { ok: true }; until: number }>();
  private readonly fetch: typeof fetch;

  constructor(private readonly options: VerifierOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  /** The issuer's metadata, discovered once (a failed attempt is retried after a few seconds). */
  issuerMetadata(): Promise<IssuerMetadata> {
    if (!this.metadata || (this.failedAt && Date.now() - this.failedAt > RETRY_DISCOVERY_MS)) {
      this.failedAt = 0;
      this.metadata = discoverIssuer(this.options.issuer, this.fetch).catch((err: unknown) => {
        this.failedAt = Date.now();
        throw err;
      });
    }
    return this.metadata;
  }

  async verify(token: string): Promise<Verdict> {
    const id = createHash("sha256").update(token).digest("base64url");
    const cached = this.cache.get(id);
    if (cached && cached.until > Date.now()) return cached.verdict;
    if (cached) this.cache.delete(id);
    let meta: IssuerMetadata;
    try {
      meta = await this.issuerMetadata();
    } catch (err) {
      return unavailable(err instanceof IssuerUnavailableError ? err.message : `issuer discovery failed: ${(err as Error).message}`);
    }
    const verdict = JWT_SHAPE.test(token) ? await this.verifyJwt(token, meta) : await this.introspect(token, meta);
    if (verdict.ok) {
      const until = Math.min(verdict.expiresAt * 1000, Date.now() + (this.options.cacheMs ?? 60_000));
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(id, { verdict, until });
    }
    return verdict;
  }

  private granted(payload: Record<string, unknown>, subject: string, expiresAt: number): Verdict {
    const scopes = scopesOf(payload);
    if (!scopes.includes(SCOPE))
      return {
        ok: false,
        status: 403,
        error: "insufficient_scope",
        reason: `token without the ${SCOPE} scope`,
        description: `The access token does not grant the ${SCOPE} scope; authorize again asking for it.`,
        subject,
      };
    const client = payload["client_id"] ?? payload["azp"];
    return { ok: true, subject, scopes, expiresAt, clientId: typeof client === "string" ? client : "oauth" };
  }

  private async verifyJwt(token: string, meta: IssuerMetadata): Promise<Verdict> {
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      return refuse("malformed token", "The access token is malformed.");
    }
    if (alg === "none" || typeof alg !== "string")
      return refuse("unsigned token (alg none)", "The access token is not signed; unsigned tokens are never accepted.");
    if (!meta.jwks_uri) return refuse("a JWT, but the issuer publishes no jwks_uri", "The access token cannot be verified by this server.");
    this.jwks ??= createRemoteJWKSet(new URL(meta.jwks_uri), {
      cooldownDuration: this.options.jwksCooldownMs ?? 5_000,
      timeoutDuration: 5_000,
      [customFetch]: this.fetch,
    });
    try {
      const { payload } = await jwtVerify(token, this.jwks, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ["exp", "sub"],
      });
      return this.granted(payload, payload.sub!, payload.exp!);
    } catch (err) {
      const why = explain(err);
      if (why) return refuse(why.reason, why.description);
      return unavailable(`cannot read the issuer's keys (${meta.jwks_uri}): ${(err as Error).message}`);
    }
  }

  /** RFC 7662: the issuer says whether an opaque token is active, and for whom. */
  private async introspect(token: string, meta: IssuerMetadata): Promise<Verdict> {
    const client = this.options.introspectionClient;
    if (!meta.introspection_endpoint || !client)
      return refuse(
        meta.introspection_endpoint
          ? "opaque token, and no introspection credentials are configured"
          : "opaque token, and the issuer offers no introspection",
        "The access token is not a JWT this server can verify; ask the authorization server for JWT access tokens for this resource.",
      );
    let body: Record<string, unknown>;
    try {
      const res = await this.fetch(meta.introspection_endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString("base64")}`,
        },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
        signal: AbortSignal.timeout(5_000),
        redirect: "error",
      });
      if (!res.ok) return unavailable(`the introspection endpoint answered ${res.status}`);
      body = (await res.json()) as Record<string, unknown>;
    } catch (err) {
      return unavailable(`the introspection endpoint cannot be reached: ${(err as Error).message}`);
    }
    if (body["active"] !== true) return refuse("inactive token (introspection)", "The access token is not active; get a new one.");
    const now = Date.now() / 1000;
    if (body["iss"] !== undefined && body["iss"] !== this.options.issuer)
      return refuse("token from another issuer (introspection)", "The access token comes from an issuer this server does not trust.");
    const aud = body["aud"];
    const audiences = Array.isArray(aud) ? aud : aud === undefined ? [] : [aud];
    if (!audiences.includes(this.options.audience))
      return refuse(
        "token for another resource (introspection: audience is not this server's public URL)",
        "The access token was issued for another resource; request one for this server's URL (resource parameter).",
      );
    const exp = body["exp"];
    if (typeof exp !== "number" || exp + CLOCK_TOLERANCE_S < now)
      return refuse("expired token (introspection)", "The access token has expired; get a new one.");
    const sub = body["sub"];
    if (typeof sub !== "string" || !sub)
      return refuse('token without a "sub" (introspection)', 'The access token names no subject ("sub").');
    return this.granted(body, sub, exp);
  }
}
