// Build step: dist/index.d.ts, the library's declarations as one self-contained file. The public
// surface (src/index.ts) and the tool types it re-exports (src/library/tool-types.ts, generated
// from the zod schemas) are turned into declarations file by file, with no type-checking pass
// (TypeScript's transpileDeclaration; both files give their exported types explicitly), and the
// tool types are inlined, so the published types import nothing: neither zod nor the MCP SDK.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import ts from "typescript";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TOOL_TYPES = "./library/tool-types.js";

function declarations(file) {
  const out = ts.transpileDeclaration(readFileSync(join(ROOT, file), "utf8"), {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, strict: true },
  });
  if (out.diagnostics?.length) {
    const text = out.diagnostics.map((d) => `${file}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`).join("\n");
    throw new Error(`ship-types: ${text}`);
  }
  return out.outputText;
}

const entry = declarations("src/index.ts").split("\n");
const tools = declarations("src/library/tool-types.ts");
const importsTools = (line) => line.includes(`"${TOOL_TYPES}"`);
const lines = entry.filter((line) => !importsTools(line));
if (lines.length === entry.length) throw new Error(`ship-types: src/index.ts no longer imports ${TOOL_TYPES}`);
const text = `${tools.trimEnd()}\n${lines.join("\n")}`;
// Whatever else the entry imports would be missing from the package.
const other = [...text.matchAll(/\bfrom\s+["']([^"']+)["']|import\(["']([^"']+)["']\)/g)].map((m) => m[1] ?? m[2]);
if (other.length) throw new Error(`ship-types: the public types import ${other.join(", ")}; they must stand alone`);
writeFileSync(join(ROOT, "dist", "index.d.ts"), text);
