// The package as npm ships it: `npm pack`, unpacked into a scratch project with only its declared
// runtime dependencies beside it (linked from this checkout, as npm would install them), imported
// by its name from a script (the README's example) and type-checked from a TypeScript consumer
// with skipLibCheck off, so the declarations must stand on their own.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { builtIsFresh } from "../../harness/cli.js";
import { NOW_ISO, tempDir } from "../../harness/mcp.js";
import { runningHasBuiltinSqlite } from "../../harness/runtimes.js";
import { skipping } from "../../harness/skips.js";
import { ROOT } from "../../harness/spawn.js";

const built = builtIsFresh("index.js");
// CI builds before it tests: there a missing or stale build is a failure, not a skip.
if (!built && process.env.CI !== "true")
  skipping("the packed library (test/library/package.test.ts)", "npm run build first: dist/ is missing or older than src/");

describe.skipIf(!built && process.env.CI !== "true")("the packed package", () => {
  let project: string;
  let files: string[];
  beforeAll(() => {
    project = tempDir("cm-pack-");
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--pack-destination", project], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = packed[0]!.files.map((f) => f.path);
    const target = join(project, "node_modules", "crypto-metrics-mcp");
    mkdirSync(target, { recursive: true });
    execFileSync("tar", ["-xzf", join(project, packed[0]!.filename), "-C", target, "--strip-components=1"]);
    const pkg = JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    // On a Node without node:sqlite a user adds the optional peer (better-sqlite3) too.
    const declared = { ...pkg.dependencies, ...(!runningHasBuiltinSqlite() && pkg.peerDependencies) };
    for (const name of Object.keys(declared)) {
      const link = join(project, "node_modules", name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(ROOT, "node_modules", name), link, "dir");
    }
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  }, 120_000);

  it("ships the library entry and one self-contained declaration file", () => {
    expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/cli.js"]));
    expect(files.filter((f) => f.endsWith(".d.ts"))).toEqual(["dist/index.d.ts"]);
  });

  it("runs the documented example script by the package name, with only its declared dependencies installed", () => {
    copyFileSync(join(ROOT, "examples", "volume-movers.mjs"), join(project, "volume-movers.mjs"));
    const r = spawnSync(process.execPath, ["volume-movers.mjs", "btc", "eth", "nosuchcoin"], {
      cwd: project,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH ?? "",
        CRYPTO_METRICS_NOW: NOW_ISO,
        CRYPTO_METRICS_STATE_DIR: join(project, "state"),
        CRYPTO_METRICS_LOG_LEVEL: "warn",
      },
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.split(/\s+/)[0]).sort()).toEqual(["btc", "eth"]);
    expect(r.stderr).toMatch(/nosuchcoin: Asset "nosuchcoin" is not covered/);
  });

  it("type-checks a TypeScript consumer against the shipped declarations alone", () => {
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ["consumer.ts"],
      }),
    );
    writeFileSync(
      join(project, "consumer.ts"),
      [
        'import { createCryptoMetrics, CryptoMetricsError, type GetSeriesResult, type ToolName } from "crypto-metrics-mcp";',
        "const cm = createCryptoMetrics({ now: new Date(0) });",
        'const r: GetSeriesResult = await cm.getSeries({ metric: "lifespan/Lth_mvrv", asset: "btc", max_points: 30 });',
        "const last: number | undefined = r.digest.last?.[1];",
        'const { text, data } = await cm.call("get_metrics_variation", { asset: "eth" });',
        "const first: number | null = data.rows[0]![3];",
        'const name: ToolName = "list_assets";',
        "// @ts-expect-error the metric must be one of the series ids",
        'await cm.getSeries({ metric: "nope", asset: "btc" });',
        "const e = new Error() as unknown;",
        "if (e instanceof CryptoMetricsError) console.log(e.code, e.exitCode, e.retryAfterS);",
        "console.log(last, text, first, name);",
        "export {};",
        "",
      ].join("\n"),
    );
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", project], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
