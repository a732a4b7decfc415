// Usage recorded by earlier versions (usage.json plus per-process journals in the state
// directory), read once into the metering store at its first start and then set aside, so it is
// counted exactly once and never refunded.
import { join } from "node:path";

import { StoreConfigError } from "./store.js";

// node:fs taken, not imported (its ESM facade loads fs/promises and fs streams; see log.ts).
const { existsSync, readdirSync, readFileSync, renameSync } = process.getBuiltinModule("node:fs");

const USAGE_FILE = "usage.json";
const JOURNAL_RE = /^journal-\d+-[0-9a-f]{8}\.log$/;
const LINE_RE = /^([0-9a-f]{64}) (\d{1,16})$/;
const ID_RE = /^[0-9a-f]{64}$/;
/** Files already imported keep this suffix: readable for audit, never read again. */
export const IMPORTED_SUFFIX = ".imported";

export interface LegacyUsage {
  /** Content digest of the files: a second import of the same files is recognised and skipped. */
  id: string;
  spent: Map<string, number>;
  total: number;
  files: string[];
}

function corrupt(path: string, what: string): never {
  throw new StoreConfigError(
    `${path} ${what}. It records credits already spent, so it is not skipped: restore it, or move it out of the state directory to forgive that usage`,
  );
}

/** Whether `stateDir` holds an earlier version's usage files (a cheap check before taking locks). */
export function hasLegacyUsage(stateDir: string): boolean {
  try {
    return readdirSync(stateDir).some((n) => n === USAGE_FILE || JOURNAL_RE.test(n));
  } catch {
    return false;
  }
}

/** The earlier versions' usage in `stateDir`, or undefined when there is none. */
export function readLegacyUsage(stateDir: string): LegacyUsage | undefined {
  let names: string[];
  try {
    names = readdirSync(stateDir);
  } catch {
    return undefined;
  }
  const journals = names.filter((n) => JOURNAL_RE.test(n)).sort();
  const files = [...(names.includes(USAGE_FILE) ? [USAGE_FILE] : []), ...journals];
  if (files.length === 0) return undefined;
  // Only a state directory with such files loads node:crypto (not loaded by Node at start).
  const digest = process.getBuiltinModule("node:crypto").createHash("sha256");
  const spent = new Map<string, number>();
  const add = (id: string, n: number) => spent.set(id, (spent.get(id) ?? 0) + n);
  let folded: Record<string, number> = {};
  if (files[0] === USAGE_FILE) {
    const path = join(stateDir, USAGE_FILE);
    const text = readFileSync(path, "utf8");
    digest.update(`${USAGE_FILE}\0${text}\0`);
    let doc: { version?: unknown; spent?: unknown; journals?: unknown };
    try {
      doc = JSON.parse(text) as typeof doc;
    } catch {
      corrupt(path, "is not valid JSON");
    }
    const entries = doc && typeof doc.spent === "object" && doc.spent !== null ? Object.entries(doc.spent) : undefined;
    if (doc?.version !== 1 || !entries || !entries.every(([k, v]) => ID_RE.test(k) && Number.isSafeInteger(v) && (v as number) >= 0)) {
      corrupt(path, "does not have the shape {version: 1, spent, journals} of an earlier version");
    }
    for (const [id, n] of entries) add(id, n as number);
    if (typeof doc.journals === "object" && doc.journals !== null) folded = doc.journals as Record<string, number>;
  }
  for (const name of journals) {
    const path = join(stateDir, name);
    const bytes = readFileSync(path);
    digest.update(`${name}\0`).update(bytes).update("\0");
    const offset = Number.isSafeInteger(folded[name]) ? folded[name]! : 0;
    const text = bytes.subarray(offset).toString("utf8");
    // A trailing partial line is a write cut short by a crash: its response was never sent.
    const lines = text.slice(0, text.lastIndexOf("\n") + 1).split("\n");
    lines.pop();
    lines.forEach((line, i) => {
      const m = LINE_RE.exec(line);
      if (!m) corrupt(path, `has a corrupt record (line ${i + 1} after byte ${offset})`);
      add(m[1]!, Number(m[2]));
    });
  }
  let total = 0;
  for (const n of spent.values()) total += n;
  return { id: `legacy-usage:${digest.digest("hex")}`, spent, total, files };
}

/**
 * Renames the imported files out of the way; returns a function that puts them back (for a
 * transaction that failed to commit after the rename).
 */
export function retireLegacyUsage(stateDir: string, files: readonly string[]): () => void {
  const moved: string[] = [];
  for (const name of files) {
    const from = join(stateDir, name);
    if (!existsSync(from)) continue;
    renameSync(from, from + IMPORTED_SUFFIX);
    moved.push(name);
  }
  return () => {
    for (const name of moved) {
      try {
        renameSync(join(stateDir, name) + IMPORTED_SUFFIX, join(stateDir, name));
      } catch {
        /* left for the operator */
      }
    }
  };
}
