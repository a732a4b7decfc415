// The import rules of docs/architecture.md, enforced: every relative import of src/ (static, type-only,
// export-from and dynamic) must be an edge the map's tables allow.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const src = join(root, "src");

interface Room {
  name: string;
  paths: string[];
  allows: string[] | "any";
}

const cells = (line: string) =>
  line
    .split("|")
    .slice(1, -1)
    .map((cell) => cell.trim());

/** The body rows of the markdown table whose first header cell is `first`. */
function tableRows(markdown: string, first: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.startsWith("|") && cells(line)[0] === first);
  if (start === -1) throw new Error(`docs/architecture.md has no table headed "${first}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(cells(line));
  }
  return rows;
}

const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function readMap(markdown: string): { rooms: Room[]; edges: Set<string> } {
  const rooms = tableRows(markdown, "Room").map(([name, files, allows]) => ({
    name: name!,
    paths: ticked(files!),
    allows: allows === "(anything)" ? ("any" as const) : allows === "(nothing of ours)" ? [] : allows!.split(",").map((s) => s.trim()),
  }));
  const edges = new Set(tableRows(markdown, "From").map(([from, to]) => `${ticked(from!)[0]} -> ${ticked(to!)[0]}`));
  return { rooms, edges };
}

/** The room of a file under src/: its longest matching path (a folder ends with a slash). */
function roomOf(rooms: Room[], file: string): Room | undefined {
  let best: Room | undefined;
  let length = -1;
  for (const room of rooms) {
    for (const path of room.paths) {
      const hit = path.endsWith("/") ? file.startsWith(path) : file === path;
      if (hit && path.length > length) [best, length] = [room, path.length];
    }
  }
  return best;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every relative module a file names: imports, type imports, export-from and `import()` with a literal. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles
    .map((ref) => ref.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => relative(src, resolve(dirname(file), name)).replace(/\.js$/, ".ts"));
}

/** Imports of scripts/, bench/ and harness/ that reach into test/: those three depend on src/ and harness/ only. */
function importsOfTests(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? walk(path) : /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
    });
  return ["scripts", "bench", "harness"].flatMap((dir) =>
    walk(join(root, dir)).flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, "utf8"), true, true)
        .importedFiles.map((ref) => ref.fileName)
        .filter((name) => name.startsWith(".") && relative(root, resolve(dirname(file), name)).startsWith("test/"))
        .map((name) => `${relative(root, file)} -> ${name}`),
    ),
  );
}

function violations(map: { rooms: Room[]; edges: Set<string> }): string[] {
  const found: string[] = [];
  for (const path of sourceFiles(src)) {
    const file = relative(src, path);
    const from = roomOf(map.rooms, file);
    if (!from) {
      found.push(`${file}: in no room of docs/architecture.md`);
      continue;
    }
    for (const target of importsOf(path)) {
      const to = roomOf(map.rooms, target);
      if (to === from || from.allows === "any" || map.edges.has(`${file} -> ${target}`)) continue;
      if (to && from.allows.includes(to.name)) continue;
      found.push(`${file} (${from.name}) -> ${target} (${to?.name ?? "no room"})`);
    }
  }
  return found;
}

describe("architecture", () => {
  const map = readMap(readFileSync(join(root, "docs/architecture.md"), "utf8"));

  it("reads the map: every room it allows exists", () => {
    const names = new Set(map.rooms.map((room) => room.name));
    expect(map.rooms.length).toBeGreaterThan(10);
    for (const room of map.rooms)
      if (room.allows !== "any") for (const name of room.allows) expect(names, `${room.name} allows ${name}`).toContain(name);
  });

  it("sees static, type-only, export-from and dynamic imports", () => {
    const edges = importsOf(join(src, "tools/define-tool.ts"));
    expect(edges).toContain("charts/png.ts"); // await import(…)
    expect(edges).toContain("backend/types.ts"); // import type
    expect(importsOf(join(src, "catalog/index.ts")).length).toBeGreaterThan(0); // export … from
  });

  it("finds no import the map does not allow", () => {
    expect(violations(map)).toEqual([]);
  });

  it("keeps scripts, benches and the shared rigs off test/", () => {
    expect(importsOfTests()).toEqual([]);
  });
});
