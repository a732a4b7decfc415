// The scripting documentation against the code: the exit code column of the errors table
// (docs/errors.md) agrees with the mapping `call` uses, and the library example (docs/scripting.md)
// is the file the package test runs.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { ROOT } from "../../harness/spawn.js";
import { exitCodeOf, exitCodes } from "../../src/library/exit-codes.js";

const errors = readFileSync(join(ROOT, "docs", "errors.md"), "utf8");
const scripting = readFileSync(join(ROOT, "docs", "scripting.md"), "utf8");

describe("docs: errors and scripting", () => {
  it("gives each error code the exit code call gives it, and lists every code but method_not_allowed (REST only)", () => {
    const table = errors.slice(errors.indexOf("| `code` | When | What the text says | exit |"));
    const lines = table.split("\n").slice(2);
    const rows = lines.slice(
      0,
      lines.findIndex((l) => !l.startsWith("|")),
    );
    const listed = new Map<string, number>();
    for (const row of rows) {
      const cells = row
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim());
      for (const m of cells[0]!.matchAll(/`([a-z_]+)`/g)) listed.set(m[1]!, Number(cells.at(-1)));
    }
    for (const [code, exit] of listed) expect(exit, code).toBe(exitCodeOf(code));
    for (const [code] of exitCodes())
      if (code !== "method_not_allowed" && code !== "forbidden") expect([...listed.keys()], code).toContain(code);
  });

  it("shows the library example as the file examples/volume-movers.mjs is", () => {
    expect(scripting).toContain(`\`\`\`js\n${readFileSync(join(ROOT, "examples", "volume-movers.mjs"), "utf8")}\`\`\``);
  });
});
