// Every package the code imports is declared in package.json, and every declared package is used:
// imported somewhere, or named below with what uses it without an import.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, resolve } from "node:path";

import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const declared = new Set([
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.devDependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
]);

/** Declared packages that no file imports, with what uses them. */
const USED_WITHOUT_IMPORT: Record<string, string> = {
  "@modelcontextprotocol/conformance": "the 2026-07-28 conformance suite, run by .ci/conformance",
  "mcp-conformance-2025": "the 2025-11-25 conformance suite, run by .ci/conformance",
  "@modelcontextprotocol/core": "a peer dependency of @modelcontextprotocol/ext-apps (the views' browser tests)",
  "@types/better-sqlite3": "types of better-sqlite3",
  "@types/node": "types of Node's modules",
  "@types/pg": "types of pg",
  prettier: "the formatter, run by npm run lint",
  tsx: "runs the TypeScript scripts, bench and CLI in development",
  eslint: "the linter, run by npm run lint",
};

const files = execFileSync("git", ["ls-files", "*.ts", "*.mts", "*.js", "*.mjs"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((f) => f && !f.startsWith("dist/"));

/** The package a bare specifier names: "@scope/name" or "name", without a subpath; null for relative or node: ones. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function importsOf(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /^\s*import\s*["']([^"']+)["']/gm,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) found.push(m[1]!);
  return found;
}

const builtins = new Set(builtinModules);
const imported = new Map<string, string>();
for (const file of files) {
  for (const specifier of importsOf(readFileSync(join(root, file), "utf8"))) {
    const name = packageOf(specifier);
    if (name && !builtins.has(name) && !imported.has(name)) imported.set(name, file);
  }
}

describe("dependencies", () => {
  it("declares every package the code imports, and imports Node's modules by node:", () => {
    // The examples import the package itself, as its users do.
    const undeclared = [...imported]
      .filter(([name]) => !declared.has(name) && name !== pkg.name)
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared).toEqual([]);
    const bare = files.flatMap((file) =>
      importsOf(readFileSync(join(root, file), "utf8"))
        .filter((s) => builtins.has(s) && !s.startsWith("node:"))
        .map((s) => `${file}: "${s}"`),
    );
    expect(bare).toEqual([]);
  });

  it("uses every declared package: imported somewhere, or named with what uses it", () => {
    const unused = [...declared].filter((name) => !imported.has(name) && !(name in USED_WITHOUT_IMPORT));
    expect(unused).toEqual([]);
    // A package named as used without an import that is imported after all needs no entry.
    expect(Object.keys(USED_WITHOUT_IMPORT).filter((name) => imported.has(name) || !declared.has(name))).toEqual([]);
  });
});
