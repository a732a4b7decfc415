// The authorization server's metadata, found the ways MCP clients find it: RFC 8414 (path inserted
// after /.well-known/), then OpenID Connect discovery (inserted, then appended). The document must
// name the configured issuer exactly; anything else is a misconfiguration, not a server to trust.

export interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
  [field: string]: unknown;
}

export class IssuerUnavailableError extends Error {
  override readonly name = "IssuerUnavailableError";
}

/** The discovery URLs of an issuer identifier, in the order tried. */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  const urls = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  return [...new Set(urls)];
}

/** Fetches the issuer's metadata; throws IssuerUnavailableError saying what each URL answered. */
export async function discoverIssuer(issuer: string, fetchImpl: typeof fetch = fetch, timeoutMs = 5_000): Promise<IssuerMetadata> {
  const problems: string[] = [];
  for (const url of discoveryUrls(issuer)) {
    try {
      const res = await fetchImpl(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
      if (!res.ok) {
        problems.push(`${url} answered ${res.status}`);
        await res.body?.cancel();
        continue;
      }
      const doc = (await res.json()) as unknown;
      if (typeof doc !== "object" || doc === null || typeof (doc as IssuerMetadata).issuer !== "string") {
        problems.push(`${url} is not authorization server metadata`);
        continue;
      }
      const meta = doc as IssuerMetadata;
      if (meta.issuer !== issuer) {
        // RFC 8414 §3.3: metadata naming another issuer must not be used.
        problems.push(`${url} names issuer ${JSON.stringify(meta.issuer.slice(0, 200))}, not the configured one`);
        continue;
      }
      if (typeof meta.jwks_uri !== "string" && typeof meta.introspection_endpoint !== "string") {
        problems.push(`${url} lists neither jwks_uri nor introspection_endpoint`);
        continue;
      }
      return meta;
    } catch (err) {
      problems.push(`${url}: ${(err as Error).message}`);
    }
  }
  throw new IssuerUnavailableError(`cannot read the metadata of issuer ${issuer}: ${problems.join("; ")}`);
}
