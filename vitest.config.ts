import { defineConfig } from "vitest/config";

export default defineConfig({
  // Tests import the library by its public name, as users do; it resolves to the source entry here
  // (test/lib-package.test.ts imports the packed build).
  resolve: { alias: { "crypto-metrics-mcp": new URL("./src/index.ts", import.meta.url).pathname } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
