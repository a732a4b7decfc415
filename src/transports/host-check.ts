// DNS-rebinding defence for the HTTP transport: which Host and Origin headers a server bound to a
// given address accepts (localhost names only when bound to loopback; hostnames compared port-agnostically).

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

export function isLoopback(bindHost: string): boolean {
  return bindHost === "localhost" || bindHost === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bindHost);
}

/** Hostnames a server bound to `bindHost` answers to; null means any (wildcard binds). */
export function allowedHostnames(bindHost: string): readonly string[] | null {
  if (isLoopback(bindHost)) return LOOPBACK_NAMES;
  if (WILDCARDS.has(bindHost)) return null;
  return [bindHost.includes(":") ? `[${bindHost}]` : bindHost.toLowerCase(), ...LOOPBACK_NAMES];
}

function hostnameOf(hostHeader: string): string | undefined {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return undefined;
  }
}

export function hostAllowed(hostHeader: string | undefined, bindHost: string): boolean {
  if (!hostHeader) return false;
  const hostname = hostnameOf(hostHeader);
  if (hostname === undefined) return false;
  const allowed = allowedHostnames(bindHost);
  return allowed === null || allowed.includes(hostname);
}

/** An absent Origin is fine (non-browser clients); a present one must name an allowed host over http(s). */
export function originAllowed(origin: string | undefined, bindHost: string): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const allowed = allowedHostnames(bindHost);
  // A wildcard bind still refuses browser pages from elsewhere: only loopback origins pass.
  return (allowed ?? LOOPBACK_NAMES).includes(url.hostname);
}
