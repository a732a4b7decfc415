// Where the server keeps its state: the per-user default directory, and why a directory cannot
// hold the embedded metering store when opening it would not say so at once.
import { dirname, join, sep } from "node:path";

import type { Config, Env } from "./config.js";

const APP_DIR = "crypto-metrics-mcp";

/** Per-user state directory, following each platform's convention. */
export function defaultStateDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const home = env["HOME"] || env["USERPROFILE"] || process.getBuiltinModule("node:os").homedir();
  if (platform === "win32") return join(env["LOCALAPPDATA"] || join(home, "AppData", "Local"), APP_DIR, "state");
  if (platform === "darwin") return join(home, "Library", "Application Support", APP_DIR);
  const xdg = env["XDG_STATE_HOME"];
  return join(xdg && xdg.startsWith("/") ? xdg : join(home, ".local", "state"), APP_DIR);
}

/** Kernel file systems: a directory there cannot hold a file (and Node's recursive mkdir loops on /proc). */
const VIRTUAL_ROOTS = ["/proc", "/sys", "/dev"];

/**
 * Why the embedded store's directory cannot hold its file, when opening it would not say so at
 * once: a directory on a kernel file system, where creating it spins instead of failing. Other
 * unusable paths (below a file, not writable) fail on opening with exit 2 and the reason.
 */
export function storeDirProblem(config: Pick<Config, "baseUrl" | "store" | "stateDir">): string | undefined {
  if (config.baseUrl || config.store.kind !== "sqlite" || process.platform === "win32") return undefined;
  const dir = dirname(config.store.path);
  if (!VIRTUAL_ROOTS.some((root) => dir === root || dir.startsWith(root + sep))) return undefined;
  return dir === config.stateDir
    ? `--state-dir / CRYPTO_METRICS_STATE_DIR (${dir}) is on a kernel file system, which cannot hold the metering store; point it at a writable directory, e.g. --state-dir ~/.local/state/crypto-metrics-mcp`
    : `--store / CRYPTO_METRICS_STORE (directory ${dir}) is on a kernel file system, which cannot hold the metering store; name a file in a writable directory, e.g. --store sqlite:/var/lib/crypto-metrics/metering.sqlite`;
}

const VIEW_SECRET_FILE = "view-secret";

/**
 * The key views' handles are signed with: CRYPTO_METRICS_VIEW_SECRET when set (the same value on
 * every machine behind one address), else a random key kept in the state directory, created once
 * and readable by its owner only, so every process sharing that directory, and the same server
 * after a restart, honours the handles the others gave. A directory that cannot hold it leaves the
 * process a key of its own (its handles then last as long as it does).
 */
export function viewSecret(env: Env, stateDir: string): Buffer {
  const { createHash, randomBytes } = process.getBuiltinModule("node:crypto");
  const fs = process.getBuiltinModule("node:fs");
  const given = env["CRYPTO_METRICS_VIEW_SECRET"]?.trim();
  if (given) return createHash("sha256").update(given).digest();
  const file = join(stateDir, VIEW_SECRET_FILE);
  try {
    fs.mkdirSync(stateDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
    if (key.length >= 32) return key;
  } catch {
    // Read-only or unusable directory: below.
  }
  return randomBytes(32);
}
