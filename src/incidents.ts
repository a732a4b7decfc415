// What the server keeps to itself: a failure's detail (paths, host and user names, driver text)
// goes to the operator's log under a short reference, and the client gets the reference and a
// sentence without it. `clientSafe` is the last guard on any text bound for a client.
import { REPEAT_WINDOW_MS } from "./log.js";

const incidents = new Map<string, { ref: string; at: number }>();

/**
 * The reference that ties a client's error to the log line holding its detail. One per distinct
 * detail per repeat window: the log writes a repeated line once, and every client it failed for
 * gets the reference of that line.
 */
export function incidentRef(detail: string): string {
  const now = Date.now();
  const known = incidents.get(detail);
  if (known && now - known.at < REPEAT_WINDOW_MS) return known.ref;
  if (incidents.size >= 256) incidents.clear();
  const ref = globalThis.crypto.randomUUID().slice(0, 8);
  incidents.set(detail, { ref, at: now });
  return ref;
}

/** Absolute file paths of two segments or more (a lone "/mcp" is a route), and Windows ones. */
const PATH = /(?<![\w:/.~-])(?:~|[A-Za-z]:)?[/\\](?:[^\s"'`()<>,;|/\\]+[/\\])+[^\s"'`()<>,;|/\\]*/g;
/** A connection URL's user, password and host (postgres://user:pw@host:5432/db). */
const CONNECTION_URL = /\b(?:postgres(?:ql)?|sqlite|file):\/\/?[^\s"'`()<>,;]*/gi;

function machineNames(): string[] {
  // Taken here, not imported: node:os is not loaded by Node at start, and most runs never get here.
  const { hostname, homedir, userInfo } = process.getBuiltinModule("node:os");
  const names = new Set<string>();
  const add = (get: () => string) => {
    try {
      const name = get();
      if (name.length >= 3) names.add(name);
    } catch {
      // No such name here (a user without a passwd entry): nothing to hide.
    }
  };
  add(() => homedir());
  add(() => userInfo().username);
  add(() => hostname());
  return [...names].sort((a, b) => b.length - a.length);
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The machine's names as whole words (a user named "app" leaves "application" alone). */
let names: RegExp | undefined;

/** `text` without absolute paths, connection URLs, the home directory, the user's or the host's name. */
export function clientSafe(text: string): string {
  names ??= new RegExp(`(?<![\\w.-])(?:${machineNames().map(escape).join("|") || "(?!)"})(?![\\w-])`, "g");
  return text.replace(CONNECTION_URL, "[store]").replace(PATH, "[path]").replace(names, "[host]");
}
