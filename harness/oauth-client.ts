// An MCP client that signs in the way hosts do: the SDK v2 client's own OAuth support (resource
// metadata discovery, authorization server discovery, dynamic registration, PKCE, the resource
// parameter, RFC 9207 iss) with the browser's part done headlessly by authorize().
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";

import { authorize } from "./oidc-issuer.js";

const REDIRECT_URI = "http://127.0.0.1:1/callback";

/** The client's memory of one sign-in: its registration, PKCE verifier and tokens. */
export class HeadlessOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = "";
  private discovery: OAuthDiscoveryState | undefined;

  get redirectUrl(): string {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "crypto-metrics-mcp test client",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    } as OAuthClientMetadata;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** Kept with the verifier, so the SDK can check the code comes back from the server it went to (SEP-2352). */
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  /** The access token the client holds (tests use it to call through other paths). */
  get accessToken(): string | undefined {
    return this.saved?.access_token;
  }
}

/**
 * Connects to `mcpUrl` as `user`: the first connection is refused 401, the SDK runs discovery and
 * registration and asks for the authorization redirect, authorize() plays the browser, the SDK
 * exchanges the code; the second connection carries the token.
 */
export async function signIn(
  mcpUrl: string,
  user: string,
  era: "modern" | "legacy" = "modern",
): Promise<{ client: Client; provider: HeadlessOAuthProvider }> {
  // Modern: the client probes with server/discover and speaks 2026-07-28; legacy: initialize, 2025-11-25.
  const options = { versionNegotiation: { mode: era === "modern" ? ("auto" as const) : ("legacy" as const) } };
  const provider = new HeadlessOAuthProvider();
  const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  try {
    await new Client({ name: "oauth-test", version: "1" }, options).connect(first);
    throw new Error("the server accepted a connection without a token");
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
  }
  if (!provider.authorizationUrl) throw new Error("the client was not sent to authorize");
  const callback = await authorize(provider.authorizationUrl, REDIRECT_URI, user);
  const error = callback.get("error");
  if (error) throw new Error(`authorization failed: ${error} ${callback.get("error_description") ?? ""}`);
  await first.finishAuth(callback);
  const client = new Client({ name: "oauth-test", version: "1" }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  return { client, provider };
}
