import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

import { defineConfig } from "vitest/config";

const TEST = new URL("./test", import.meta.url).pathname;

/** Every folder under test/ that holds test files itself, as its path from test/ ("mcp", "backend/rest"). */
function testFolders(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const here = entries.some((entry) => entry.isFile() && entry.name.endsWith(".test.ts")) ? [relative(TEST, dir)] : [];
  return [...here, ...entries.filter((entry) => entry.isDirectory()).flatMap((entry) => testFolders(join(dir, entry.name)))];
}

export default defineConfig({
  // Tests import the library by its public name, as users do; it resolves to the source entry here
  // (test/library/package.test.ts imports the packed build).
  resolve: { alias: { "crypto-metrics-mcp": new URL("./src/index.ts", import.meta.url).pathname } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The last line of a run names each group it left out and how to run it (harness/skips.ts).
    reporters: ["default", "./harness/skip-reporter.ts"],
    setupFiles: ["./harness/quiet-logs.ts"],
    // One project per folder, named by its path under test/ ("root" for the files in test/ itself), so a
    // run names folders: `vitest run --project mcp --project backend/rest`. A folder's tests are its own
    // files; its subfolders are projects of their own.
    projects: testFolders(TEST).map((folder) => ({
      extends: true,
      test: { name: folder || "root", include: [join("test", folder, "*.test.ts")] },
    })),
  },
});
