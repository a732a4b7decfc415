// Every figure and list in README.md and docs/*.md sits in a generated block that `npm run docs`
// writes from the code, bench/results.json and docs/bundle.json: a block edited by hand, or left
// behind by a change, fails here. The README stays a ten-minute read.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { blockContents, blockNames, docFiles, spliceBlocks } from "../../scripts/generate-docs.js";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

let contents: Record<string, string>;
beforeAll(() => {
  contents = blockContents();
}, 60_000);

describe("generated documentation", () => {
  it("holds in every block exactly what npm run docs writes there (run npm run docs after a change)", () => {
    for (const file of docFiles()) expect(read(file), file).toBe(spliceBlocks(read(file), contents));
  });

  it("uses every generator, and none twice in one file", () => {
    const used = docFiles().flatMap((file) => {
      const names = blockNames(read(file));
      expect(new Set(names).size, file).toBe(names.length);
      return names;
    });
    expect([...new Set(used)].sort()).toEqual(Object.keys(contents).sort());
  });

  it("fails on a figure edited by hand", () => {
    const readme = read("README.md");
    const start = readme.indexOf("<!-- generated:bench-summary -->");
    const digit = readme.slice(start).search(/\d/) + start;
    const edited = `${readme.slice(0, digit)}${readme[digit] === "9" ? "8" : "9"}${readme.slice(digit + 1)}`;
    expect(spliceBlocks(edited, contents)).not.toBe(edited);
    expect(spliceBlocks(edited, contents)).toBe(readme);
  });

  it("keeps the README to at most 300 lines, pointing to docs/ for the rest", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
    for (const file of docFiles().filter((f) => f.startsWith("docs/"))) expect(readme, file).toContain(`](${file})`);
    expect(readme).toContain("## Hosting for a team");
    expect(readme).toContain("](docs/hosting.md)");
  });

  it("says in the help text it shows what the program prints, flags included", () => {
    expect(contents["usage"]).toContain("--store URL");
    expect(contents["call-help"]).toContain("--store");
  });
});
