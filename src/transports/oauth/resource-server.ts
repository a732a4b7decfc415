// `http --auth oauth`: the OAuth 2.1 resource server of MCP 2026-07-28. It publishes RFC 9728
// protected-resource metadata, answers every MCP request without a valid token 401 with a challenge
// naming that metadata and the scope (403 insufficient_scope for a token without it), and turns a
// verified token's subject into the account it is metered on. Tokens travel only in the
// Authorization header, are never logged, never forwarded, and never reach the service.
import type { IncomingMessage, ServerResponse } from "node:http";

import type { AuthInfo } from "@modelcontextprotocol/server";

import type { SubjectAccounts } from "../../backend/inprocess/oauth-subjects.js";
import { log } from "../../log.js";
import { SCOPE, type TokenVerifier, type Verdict } from "./verifier.js";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

export type Admission =
  | { ok: true; authInfo: AuthInfo; account: string }
  | { ok: false; status: number; challenge?: string; message: string; retryAfterS?: number };

export interface ResourceServerOptions {
  issuer: string;
  /** Canonical URL of /mcp (the resource identifier and the tokens' audience). */
  publicUrl: string;
  verifier: TokenVerifier;
  accounts: SubjectAccounts;
}

export class ResourceServer {
  readonly metadataUrl: string;
  private readonly metadataPaths: ReadonlySet<string>;
  private readonly document: string;

  constructor(private readonly options: ResourceServerOptions) {
    const url = new URL(options.publicUrl);
    const path = url.pathname.replace(/\/+$/, "");
    this.metadataUrl = `${url.origin}${WELL_KNOWN}${path}`;
    // The path-aware form of the public URL, ours (/mcp, when a proxy maps a prefix onto it), and the root form.
    this.metadataPaths = new Set([`${WELL_KNOWN}${path}`, `${WELL_KNOWN}/mcp`, WELL_KNOWN]);
    this.document = JSON.stringify({
      resource: options.publicUrl,
      authorization_servers: [options.issuer],
      scopes_supported: [SCOPE],
      bearer_methods_supported: ["header"],
      resource_name: "crypto-metrics-mcp",
    });
  }

  /** Serves the RFC 9728 document when the request asks for it (true), else leaves the request alone. */
  serveMetadata(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (!this.metadataPaths.has(path)) return false;
    // A public document: any origin may read it (browser-based clients fetch it cross-origin).
    res.setHeader("Access-Control-Allow-Origin", "*");
    if (req.method === "OPTIONS") {
      res.writeHead(204, { "Access-Control-Allow-Methods": "GET", "Access-Control-Allow-Headers": "mcp-protocol-version" }).end();
      return true;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "application/json" }).end(JSON.stringify({ error: "method_not_allowed" }));
      return true;
    }
    res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "public, max-age=3600" });
    res.end(req.method === "HEAD" ? undefined : this.document);
    return true;
  }

  /** `WWW-Authenticate` for a refusal: RFC 6750 with the RFC 9728 `resource_metadata` and the scope. */
  challenge(error?: string, description?: string): string {
    const parts = [`resource_metadata="${this.metadataUrl}"`, `scope="${SCOPE}"`];
    if (error) parts.unshift(`error="${error}"`);
    // A quoted-string holds no `"` or `\` here: the descriptions are ours.
    if (description) parts.push(`error_description="${description.replace(/["\\]/g, "'")}"`);
    return `Bearer ${parts.join(", ")}`;
  }

  /**
   * Decides a request's admission from its Authorization header and URL. Every refusal is logged
   * once, with the client's address and the reason, never the token.
   */
  async admit(req: IncomingMessage): Promise<Admission> {
    // Behind a proxy the peer is the proxy: the client it names is logged beside it (never trusted for anything else).
    const forwarded = req.headers["x-forwarded-for"];
    const from = typeof forwarded === "string" ? `${req.socket.remoteAddress} for ${forwarded.slice(0, 100)}` : req.socket.remoteAddress;
    const header = req.headers.authorization;
    // RFC 6750 §2.3 allows a query parameter; MCP forbids it (the URL lands in logs and histories).
    if (/[?&]access_token=/.test(req.url ?? "")) {
      log.warn("oauth: request refused", { status: 400, reason: "access token in the query string", from });
      return this.refusal(400, "invalid_request", "Access tokens are accepted only in the Authorization header, never in the URL.");
    }
    if (header === undefined) {
      log.info("oauth: request without a token answered 401 (clients then authorize)", { from });
      return {
        ok: false,
        status: 401,
        challenge: this.challenge(),
        message:
          "Unauthorized: this server needs an OAuth access token (Authorization: Bearer <token>); its metadata names the authorization server",
      };
    }
    const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!m) {
      log.warn("oauth: request refused", { status: 400, reason: "malformed Authorization header", from });
      return this.refusal(400, "invalid_request", "The Authorization header must be: Bearer <access token>.");
    }
    const verdict = await this.options.verifier.verify(m[1]!);
    if (!verdict.ok) return this.refused(verdict, from);
    const account = this.options.accounts.account(verdict.subject);
    if (!account) {
      log.warn("oauth: request refused", { status: 403, reason: "subject not enrolled in the keys file", subject: verdict.subject, from });
      return {
        ok: false,
        status: 403,
        message: "Forbidden: your account is not enrolled on this server; ask its operator to add it. Nothing was charged.",
      };
    }
    return {
      ok: true,
      account: account.record.label,
      authInfo: { token: account.credential, clientId: verdict.clientId, scopes: verdict.scopes, expiresAt: verdict.expiresAt },
    };
  }

  private refused(verdict: Verdict & { ok: false }, from: string | undefined): Admission {
    const level = verdict.status === 503 ? "error" : "warn";
    log[level]("oauth: request refused", { status: verdict.status, reason: verdict.reason, subject: verdict.subject, from });
    if (verdict.status === 503) return { ok: false, status: 503, message: `Service unavailable: ${verdict.description}`, retryAfterS: 5 };
    return this.refusal(verdict.status, verdict.error, verdict.description);
  }

  private refusal(status: number, error: string, description: string): Admission {
    const word = status === 400 ? "Bad request" : status === 403 ? "Forbidden" : "Unauthorized";
    return { ok: false, status, challenge: this.challenge(error, description), message: `${word}: ${description} Nothing was charged.` };
  }
}
