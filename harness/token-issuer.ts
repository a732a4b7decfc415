// A small authorization server's public face on a loopback port, for tests and the bench: RFC 8414
// metadata and a JWKS it can rotate or break, and JWT access tokens signed with its keys (or with
// anything a test needs to prove refused: other keys, `alg: none`, wrong claims).
import { createServer, type Server } from "node:http";

import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";

import { listen } from "../src/listen.js";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function signingKey(kid: string, alg = "ES256"): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

export interface TokenIssuer {
  issuer: string;
  /** The keys the JWKS publishes; replace them to rotate. */
  published: SigningKey[];
  /** Answer the JWKS with this status instead (unset: 200). */
  jwksStatus: number | undefined;
  /** JWKS fetches so far. */
  jwksFetches: number;
  /** A JWT access token for `sub`, valid for an hour for `audience` with scope metrics:read unless `claims` say otherwise. */
  token(sub: string, audience: string, claims?: JWTPayload, key?: SigningKey): Promise<string>;
  close(): Promise<void>;
}

export async function startTokenIssuer(): Promise<TokenIssuer> {
  const first = await signingKey("k1");
  let base = "";
  const state: TokenIssuer = {
    issuer: "",
    published: [first],
    jwksStatus: undefined,
    jwksFetches: 0,
    async token(sub, audience, claims = {}, key = state.published[0]!) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ scope: "metrics:read", client_id: "test-client", ...claims })
        .setProtectedHeader({ alg: key.jwk.alg!, kid: key.kid, typ: "at+jwt" })
        .setIssuer(typeof claims.iss === "string" ? claims.iss : state.issuer)
        .setSubject(sub)
        .setAudience(claims.aud ?? audience)
        .setIssuedAt(claims.iat ?? now)
        .setExpirationTime(claims.exp ?? now + 3600)
        .sign(key.privateKey);
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/.well-known/oauth-authorization-server") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          issuer: state.issuer,
          jwks_uri: `${base}/jwks`,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
        }),
      );
    } else if (path === "/jwks") {
      state.jwksFetches++;
      res.writeHead(state.jwksStatus ?? 200, { "content-type": "application/json" });
      res.end(state.jwksStatus ? "{}" : JSON.stringify({ keys: state.published.map((k) => k.jwk) }));
    } else {
      res.writeHead(404).end();
    }
  });
  base = (await listen(server, "127.0.0.1", 0)).url;
  state.issuer = base;
  return state;
}
