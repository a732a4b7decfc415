// DNS-rebinding defence for the HTTP transport: which Host and Origin headers a server bound to a
// given address accepts (localhost names only when bound to loopback; hostnames compared port-agnostically),
// plus the public names an operator allows for a reverse proxy in front (`--allowed-hosts`).

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

export function isLoopback(bindHost: string): boolean {
  return bindHost === "localhost" || bindHost === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bindHost);
}

/** Hostnames a server bound to `bindHost` answers to, with the `extra` names allowed; null means any (wildcard binds). */
export function allowedHostnames(bindHost: string, extra: readonly string[] = []): readonly string[] | null {
  if (isLoopback(bindHost)) return [...LOOPBACK_NAMES, ...extra];
  if (WILDCARDS.has(bindHost)) return null;
  return [bindHost.includes(":") ? `[${bindHost}]` : bindHost.toLowerCase(), ...LOOPBACK_NAMES, ...extra];
}

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOST_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);

/**
 * One entry of `--allowed-hosts` as the Host header's hostname reads it (lower case, IPv6 in
 * brackets), or a reason it is not a host name. Names are exact: no port, scheme, path or wildcard.
 */
export function allowedHostName(raw: string): { name: string } | { problem: string } {
  const value = raw.trim().toLowerCase();
  if (value === "") return { problem: "an empty name" };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) return { problem: `"${raw.trim()}" is a URL; give its host name alone` };
  if (value.includes("*")) return { problem: `"${raw.trim()}" has a wildcard; list each name` };
  if (value.includes("/")) return { problem: `"${raw.trim()}" has a path; give the host name alone` };
  if (/^\[[0-9a-f:.]+\]$/.test(value) || /^[0-9a-f]*:[0-9a-f:.]*$/.test(value)) {
    const hostname = (() => {
      try {
        return new URL(`http://${value.startsWith("[") ? value : `[${value}]`}`).hostname;
      } catch {
        return undefined;
      }
    })();
    return hostname ? { name: hostname } : { problem: `"${raw.trim()}" is not an IPv6 address` };
  }
  if (/:\d*$/.test(value)) return { problem: `"${raw.trim()}" has a port; give the name alone (ports are not compared)` };
  const name = value.endsWith(".") ? value.slice(0, -1) : value;
  if (!HOST_NAME.test(name)) return { problem: `"${raw.trim()}" is not a host name` };
  return { name };
}

function hostnameOf(hostHeader: string): string | undefined {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return undefined;
  }
}

export function hostAllowed(hostHeader: string | undefined, bindHost: string, extra: readonly string[] = []): boolean {
  if (!hostHeader) return false;
  const hostname = hostnameOf(hostHeader);
  if (hostname === undefined) return false;
  const allowed = allowedHostnames(bindHost, extra);
  return allowed === null || allowed.includes(hostname);
}

/** An absent Origin is fine (non-browser clients); a present one must name an allowed host over http(s). */
export function originAllowed(origin: string | undefined, bindHost: string, extra: readonly string[] = []): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const allowed = allowedHostnames(bindHost, extra);
  // A wildcard bind still refuses browser pages from elsewhere: only loopback origins and the allowed names pass.
  return (allowed ?? [...LOOPBACK_NAMES, ...extra]).includes(url.hostname);
}

/** Which header, if any, names a host the server does not answer to. */
export type HostVerdict = "Host" | "Origin" | null;

/**
 * The verdict on a request's Host and Origin for a server bound to `bindHost` (with the `extra` names
 * allowed). Clients send the same few values, so each pair is judged once (judging one parses a URL).
 */
export function hostJudge(
  bindHost: string,
  extra: readonly string[] = [],
): (host: string | undefined, origin: string | undefined) => HostVerdict {
  const verdicts = new Map<string, HostVerdict>();
  return (host, origin) => {
    // Neither header can hold a NUL or a newline: absent and present values never share an id.
    const id = `${host ?? "\0"}\n${origin ?? "\0"}`;
    let verdict = verdicts.get(id);
    if (verdict === undefined) {
      verdict = !hostAllowed(host, bindHost, extra) ? "Host" : !originAllowed(origin, bindHost, extra) ? "Origin" : null;
      if (verdicts.size >= 256) verdicts.clear();
      verdicts.set(id, verdict);
    }
    return verdict;
  };
}
