// Dependency gate: the MCP SDK is at least 1.32.0 (the fix line for GHSA-46jr-4wx8-v453), in the
// manifest, the lockfile and node_modules, and our server turns on that release's opt-in bound on
// tool-argument size, so a hostile arguments object is refused before any validation or spend.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { mcpRig, textOf } from "../../harness/mcp.js";
import { BIG_RATE, serviceRig } from "../../harness/service.js";
import { ROOT } from "../../harness/spawn.js";

const FIX_LINE = [1, 32, 0] as const;

function atLeast(version: string, min: readonly number[]): boolean {
  const parts = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!parts) return false;
  for (let i = 0; i < 3; i++) {
    const v = Number(parts[i + 1]);
    if (v !== min[i]) return v > min[i]!;
  }
  return true;
}

const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8")) as Record<string, any>;

describe("MCP SDK version", () => {
  it("is ≥ 1.32.0 installed, locked, and as the manifest's lower bound", async () => {
    expect(atLeast("1.31.9", FIX_LINE)).toBe(false);
    expect(atLeast("1.32.0", FIX_LINE)).toBe(true);
    const installed = json("node_modules/@modelcontextprotocol/sdk/package.json").version as string;
    expect(atLeast(installed, FIX_LINE), installed).toBe(true);
    const locked = json("package-lock.json").packages["node_modules/@modelcontextprotocol/sdk"].version as string;
    expect(atLeast(locked, FIX_LINE), locked).toBe(true);
    // Bundled into dist/ at build time, so it is a build (dev) dependency.
    const range = json("package.json").devDependencies["@modelcontextprotocol/sdk"] as string;
    expect(range).toMatch(/^[\^~]?\d+\.\d+\.\d+$/);
    expect(atLeast(range.replace(/^[\^~]/, ""), FIX_LINE), range).toBe(true);
  });
});

describe("the 1.32 argument-size bound", () => {
  it("is on: 600 array elements in arguments are refused before validation, nothing charged", async () => {
    const rig = serviceRig({ keys: [{ key: "k", credits: 100, rateLimit: BIG_RATE }] });
    const mcp = await mcpRig(rig.backend);
    try {
      const before = await rig.service.creditsRemaining("k");
      const result = await mcp.call("get_series", {
        metric: "lifespan/Lth_mvrv",
        asset: "btc",
        padding: Array.from({ length: 600 }, (_, i) => i),
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/more than the maximum of \d+ elements/);
      // The same call without the padding would be served and charged: the bound is what refused it.
      expect(await rig.service.creditsRemaining("k")).toBe(before);
      const small = await mcp.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", padding: [1, 2, 3] });
      expect(textOf(small)).toMatch(/unknown argument "padding"/);
    } finally {
      await mcp.close();
      await rig.close();
    }
  });
});
