// The last line of `npm test`: every group the run left out, and how to run it (from the notes of
// harness/skips.ts), or that nothing was left out. Tests skipped without a note are counted by file,
// so a silent skip still shows.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

import type { Reporter, TestModule } from "vitest/node";

import { type SkipNote, SKIPS_FILE_VAR } from "./skips.js";

export default class SkipReporter implements Reporter {
  private dir = "";

  onInit(): void {
    this.dir = mkdtempSync(join(tmpdir(), "cm-skips-"));
    process.env[SKIPS_FILE_VAR] = join(this.dir, "skips.jsonl");
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let notes: SkipNote[] = [];
    try {
      notes = readFileSync(process.env[SKIPS_FILE_VAR]!, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as SkipNote);
    } catch {
      // No note: nothing announced its skip.
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
    const groups = new Map<string, string>();
    for (const n of notes) if (!groups.has(n.group)) groups.set(n.group, n.how);
    const parts = [...groups].map(([group, how]) => `${group} (${how})`);
    // Every skipped test counted, those on a condition of the machine (it.skipIf) included, by file.
    const files = modules
      .map((m) => ({ file: relative(process.cwd(), m.moduleId), n: [...m.children.allTests("skipped")].length }))
      .filter((x) => x.n > 0);
    const tests = files.reduce((sum, f) => sum + f.n, 0);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    const count = tests ? ` (${plural(tests, "test")} in ${plural(files.length, "file")}: ${files.map((f) => f.file).join(", ")})` : "";
    if (parts.length === 0 && tests === 0) return void process.stdout.write("\nnpm test skipped nothing\n");
    process.stdout.write(`\nnpm test skipped: ${parts.length ? parts.join("; ") : "no group"}${count}\n`);
  }
}
