// What users install: the .mcpb bundle and the npm tarball are built from a fresh build, unpacked
// into empty directories (no node_modules anywhere near) and must answer tools/list from there.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { deflateRawSync } from "node:zlib";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { bundleNode, runningHasBuiltinSqlite, skipWithout } from "../../harness/runtimes.js";
import { cleanEnv, ROOT } from "../../harness/spawn.js";
import { recordBundle } from "../../scripts/generate-docs.js";
import { BUNDLE_NODE, bundleEntries, bundleFileName, checkBundle, nativeCode, runtimeModules } from "../../scripts/pack.js";
import { deflateStrongly } from "../../scripts/strong-deflate.js";
import { readZip, writeZip, ZipError } from "../../scripts/zip.js";
import { MIN_NODE } from "../../src/min-node.js";
import { allTools } from "../../src/tools/index.js";

let work: string;
let dist: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "cm-package-"));
  dist = join(work, "build", "dist");
  execFileSync(process.execPath, [join(ROOT, "scripts/bundle.mjs"), "--outdir", dist], { stdio: "pipe" });
  execFileSync(process.execPath, [join(ROOT, "scripts/build-views.mjs"), "--outdir", dist], { stdio: "pipe" });
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Session {
  code: number | null;
  stderr: string;
  tools?: string[];
  /** The text of a charged get_series call: the whole server ran (metering store included). */
  called?: string;
}

/** Starts `node <cli>` over stdio, asks initialize, tools/list and one get_series, and reports what came back. */
function listTools(cli: string, node = process.execPath, env: Record<string, string> = {}): Promise<Session> {
  const child = spawn(node, [cli], {
    cwd: dirname(cli),
    env: cleanEnv({ CRYPTO_METRICS_STATE_DIR: join(work, "state"), CRYPTO_METRICS_LOG_LEVEL: "warn", ...env }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: {
        name: "get_series",
        arguments: { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-01-01", endDate: "2025-01-31" },
      },
    },
  ];
  child.stdin.on("error", () => undefined);
  child.stdin.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  let out = "";
  let err = "";
  let tools: string[] | undefined;
  let called: string | undefined;
  child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
  child.stdout.on("data", (b: Buffer) => {
    out += b.toString("utf8");
    for (const line of out.split("\n").slice(0, -1)) {
      const msg = JSON.parse(line) as {
        id?: number;
        result?: { tools?: { name: string }[]; isError?: boolean; content?: { text: string }[] };
      };
      if (msg.id === 2 && msg.result?.tools) tools = msg.result.tools.map((t) => t.name);
      if (msg.id === 3 && msg.result && called === undefined) {
        called = msg.result.isError ? `error: ${msg.result.content?.[0]?.text}` : (msg.result.content?.[0]?.text ?? "");
        child.stdin.end();
      }
    }
  });
  return new Promise((resolve) =>
    child.once("exit", (code) => resolve({ code, stderr: err, ...(tools && { tools }), ...(called !== undefined && { called }) })),
  );
}

const TOOL_NAMES = allTools.map((t) => t.name);

const SKIP_BUNDLE_RUNS = skipWithout(
  bundleNode() !== undefined,
  "a Node with node:sqlite to run the bundle",
  "test/package/artifacts.test.ts",
);

/** A Node the bundle runs on: this one from 22.13, else a runtime .ci/run fetched. */
function nodeForBundle(): string {
  const node = bundleNode();
  expect(node, "no Node 22.13 or newer to run the bundle with: run .ci/run, or set CRYPTO_METRICS_TEST_RUNTIMES").toBeDefined();
  return node!;
}
const pkgJson = () =>
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };

describe("docs/bundle.json", () => {
  it("records a fresh build as the .mcpb holds it, file by file (run npm run build && npm run docs after a change)", () => {
    // Chunk names hash where the build was written as well as what it holds: compared by size.
    type Record = { files: Array<{ name: string; bytes: number }>; views: unknown };
    const sizes = (r: Record) => ({
      files: r.files.map((f) => `${f.name.replace(/chunk-[A-Z0-9]+\.js$/, "chunk-*.js")} ${f.bytes}`).sort(),
      views: r.views,
    });
    const recorded = JSON.parse(readFileSync(join(ROOT, "docs", "bundle.json"), "utf8")) as Record;
    expect(sizes(recordBundle(ROOT, dist)!)).toEqual(sizes(recorded));
  });
});

describe("the .mcpb bundle", () => {
  let unpacked: string;
  let names: string[];
  let sizes: { name: string; packed: number }[];
  let zipBytes: number;

  beforeAll(async () => {
    // Deflated as npm run pack deflates it (zopfli; cached by content, so cold only on a first run).
    const entries = await deflateStrongly(bundleEntries(dist));
    const zip = writeZip(entries);
    zipBytes = zip.length;
    // Each entry's share of the bundle: its deflated size, or its own where it is stored (headers are noise at this scale).
    sizes = entries.map((e) => ({ name: e.name, packed: Math.min(e.deflated!.length, e.data.length) }));
    unpacked = join(work, "mcpb");
    names = [];
    for (const entry of readZip(zip)) {
      names.push(entry.name);
      mkdirSync(dirname(join(unpacked, entry.name)), { recursive: true });
      writeFileSync(join(unpacked, entry.name), entry.data, { mode: entry.mode ?? 0o644 });
    }
  }, 180_000);

  it("is named after the product and its version", () => {
    const { name, version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
    expect(bundleFileName()).toBe(`${name}-${version}.mcpb`);
  });

  it("holds only what runs: under 1 MB of code and views, plus the renderer's wasm and fonts; 1.5 MB in all (1,500,000 bytes), no native code", () => {
    const runtime = Object.keys(pkgJson().dependencies ?? {});
    const rest = names.filter((n) => !n.startsWith("dist/") && !n.startsWith("node_modules/"));
    expect(rest.sort()).toEqual(["LICENSE", "README.md", "icon.png", "manifest.json", "package.json"]);
    expect(zipBytes).toBeLessThanOrEqual(1_500_000);
    expect(names.filter((n) => nativeCode({ name: n, data: readFileSync(join(unpacked, n)) }))).toEqual([]);
    expect(names).toContain("dist/cli.js");
    expect(names.filter((n) => /\.map$|meta\.json$|\.d\.ts$/.test(n))).toEqual([]);
    // The PNG renderer's WebAssembly and fonts are data files of their own; the rest must stay small.
    const code = sizes
      .filter((e) => !e.name.startsWith("node_modules/") && !/\.(wasm|otf)$/.test(e.name))
      .reduce((n, e) => n + e.packed, 0);
    expect(code).toBeLessThan(1024 * 1024);
    // node_modules/ holds only what the build could not bundle, without what only building it needs.
    const modules = new Set(names.filter((n) => n.startsWith("node_modules/")).map((n) => n.split("/")[1]));
    for (const name of runtime) expect(modules).toContain(name);
    expect(names.filter((n) => /\.(c|cc|cpp|h|gyp)$|\/deps\/|\/src\//.test(n) && n.startsWith("node_modules/"))).toEqual([]);
    if (runtime.length === 0) expect(modules.size).toBe(0);
  });

  it("declares the Node it runs on, the first with node:sqlite unflagged, in its manifest and its package.json", () => {
    expect(BUNDLE_NODE).toBe(">=22.13.0");
    const manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as {
      compatibility: { runtimes: { node: string }; platforms: string[] };
    };
    expect(manifest.compatibility.runtimes.node).toBe(BUNDLE_NODE);
    expect(manifest.compatibility.platforms).toEqual(["darwin", "win32", "linux"]);
    expect((JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8")) as { engines: object }).engines).toEqual({
      node: BUNDLE_NODE,
    });
  });

  it("is refused by npm run pack when it would carry native code, naming the file; nothing is written", () => {
    const withAddon = join(work, "dist-native");
    cpSync(dist, withAddon, { recursive: true });
    // An ELF header is enough to be recognised, whatever the name.
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(64)]);
    writeFileSync(join(withAddon, "sqlite-addon.bin"), elf);
    const out = join(work, "refused");
    mkdirSync(out);
    let stderr = "";
    let status: number | null = 0;
    try {
      execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts/pack.ts"), "--dist", withAddon, "--out", out], {
        cwd: ROOT,
        stdio: "pipe",
      });
    } catch (err) {
      ({ status } = err as { status: number | null });
      stderr = String((err as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(1);
    expect(stderr).toMatch(
      /^pack: refused: the bundle would carry native code, which runs on one platform only: dist\/sqlite-addon\.bin \(an ELF binary\);/,
    );
    expect(readdirSync(out)).toEqual([]);
    expect(() => checkBundle([{ name: "node_modules/x/build/Release/x.node", data: Buffer.from("x") }])).toThrow(
      /x\.node \(a \.node file\)/,
    );
    const macho = Buffer.alloc(64);
    macho.writeUInt32BE(0xcffaedfe, 0);
    expect(nativeCode({ name: "lib/a", data: macho })).toBe("a Mach-O binary");
    expect(nativeCode({ name: "dist/resvg.wasm", data: Buffer.from([0, 0x61, 0x73, 0x6d]) })).toBeUndefined();
  }, 30_000);

  it.skipIf(SKIP_BUNDLE_RUNS)("answers tools/list and a charged call from the unpacked files alone", async () => {
    const session = await listTools(join(unpacked, "dist", "cli.js"), nodeForBundle());
    expect(session.tools, session.stderr).toEqual(TOOL_NAMES);
    expect(session.called, session.stderr).toMatch(/^btc lifespan\/Lth_mvrv/);
    expect(session.code).toBe(0);
  });

  it.skipIf(SKIP_BUNDLE_RUNS)(
    "starts and answers whatever Node's compile cache holds: corrupt files, empty files, a directory it cannot create, a kernel file system",
    async () => {
      const node = nodeForBundle();
      const cli = join(unpacked, "dist", "cli.js");
      const serves = async (TMPDIR: string) => {
        const session = await listTools(cli, node, { TMPDIR });
        expect(session.tools, `${TMPDIR}: ${session.stderr}`).toEqual(TOOL_NAMES);
        expect(session.called, session.stderr).toMatch(/^btc lifespan\/Lth_mvrv/);
        expect(session.code).toBe(0);
        expect(session.stderr).toBe("");
      };
      const tmp = join(work, "cache-tmp");
      mkdirSync(tmp, { recursive: true });
      await serves(tmp);
      // The first start wrote the cache (this is the directory the program asks Node to use) ...
      const cached = (readdirSync(join(tmp, "node-compile-cache"), { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
        .filter((d) => d.isFile())
        .map((d) => join(d.parentPath, d.name));
      expect(cached.length).toBeGreaterThan(3);
      // ... whose files are then garbage, then empty.
      for (const file of cached) writeFileSync(file, randomBytes(200));
      await serves(tmp);
      for (const file of cached) writeFileSync(file, "");
      await serves(tmp);
      const notADirectory = join(work, "cache-tmp-file");
      writeFileSync(notADirectory, "x");
      await serves(notADirectory);
      await serves(join(notADirectory, "below"));
      // Node's recursive mkdir spins on /proc: the program must not ask it to try.
      if (process.platform === "linux") await serves("/proc/crypto-metrics-mcp-no-such-dir");
    },
    60_000,
  );

  it.skipIf(SKIP_BUNDLE_RUNS)(
    "talks to the real service over HTTP from the unpacked files alone (the bundled HTTP client)",
    async () => {
      const node = nodeForBundle();
      const cli = join(unpacked, "dist", "cli.js");
      // The build's REST face (the bundle leaves the api command out) stands in for the real service:
      // the bundle's call goes through its HTTP backend.
      const face = spawn(node, [join(dist, "cli.js"), "api", "--port", "0"], {
        cwd: work,
        env: cleanEnv({ CRYPTO_METRICS_STATE_DIR: join(work, "state-face") }),
        stdio: ["ignore", "ignore", "pipe"],
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let err = "";
          face.stderr.on("data", (b: Buffer) => {
            err += b.toString("utf8");
            const m = /listening on (http:\/\/\S+)/.exec(err);
            if (m) resolve(m[1]!);
          });
          face.once("exit", (code) => reject(new Error(`the REST face exited (${code}): ${err}`)));
        });
        const env = cleanEnv({
          CRYPTO_METRICS_BASE_URL: url,
          CRYPTO_METRICS_API_KEY: "demo",
          CRYPTO_METRICS_STATE_DIR: join(work, "state-client"),
        });
        const out = execFileSync(node, [cli, "call", "get_series", "--metric", "lifespan/Lth_mvrv", "--asset", "btc"], {
          env,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        });
        expect(out).toMatch(/^btc lifespan\/Lth_mvrv/);
        expect(out).toMatch(/^Source: .*127\.0\.0\.1/m);
      } finally {
        face.kill();
      }
    },
    30_000,
  );

  it.skipIf(SKIP_BUNDLE_RUNS)("says in one line what to do when a file of the installation is missing", async () => {
    const damaged = join(work, "mcpb-damaged");
    cpSync(unpacked, damaged, { recursive: true });
    // The largest chunk a stdio start loads (zod's); any missing one is reported the same way.
    const chunks = readdirSync(join(damaged, "dist")).filter((f) => f.startsWith("chunk-"));
    const zod = chunks.find((f) => readFileSync(join(damaged, "dist", f), "utf8").includes("ZodError"))!;
    unlinkSync(join(damaged, "dist", zod));
    const session = await listTools(join(damaged, "dist", "cli.js"), nodeForBundle());
    expect(session.code).toBe(1);
    expect(session.stderr.trim().split("\n")).toHaveLength(1);
    expect(session.stderr).toMatch(/^crypto-metrics-mcp: the installation is damaged \(.*\); reinstall it/);
  });

  it.skipIf(SKIP_BUNDLE_RUNS)(
    "leaves out what only hosting needs (http with OAuth, api; the library entry) and says so in one line when asked, exit 2",
    () => {
      const bundled = new Set(names.filter((n) => n.endsWith(".js")).map((n) => n.slice("dist/".length)));
      const built = readdirSync(dist).filter((f) => f.endsWith(".js"));
      const left = built.filter((f) => !bundled.has(f));
      // What is left out is exactly the hosting modules, their own dependencies (jose) and the library.
      const text = (f: string) => readFileSync(join(dist, f), "utf8");
      expect(left).toContain("index.js");
      expect(left.some((f) => text(f).includes("WWW-Authenticate"))).toBe(true);
      for (const f of bundled) expect(text(f)).not.toMatch(/createRemoteJWKSet|jwtVerify/);
      for (const command of ["http", "api"]) {
        let stderr = "";
        let status: number | null = 0;
        try {
          execFileSync(nodeForBundle(), [join(unpacked, "dist", "cli.js"), command, "--port", "0"], {
            env: { ...cleanEnv(), CRYPTO_METRICS_STATE_DIR: join(work, `state-${command}`) },
            stdio: "pipe",
            timeout: 20_000,
          });
        } catch (err) {
          ({ status } = err as { status: number | null });
          stderr = String((err as { stderr: Buffer }).stderr);
        }
        expect(status).toBe(2);
        expect(stderr).toBe(
          `crypto-metrics-mcp: the ${command} command is not part of this installation: the .mcpb bundle for desktop hosts ` +
            "serves stdio and call only. To host the server, install the npm package (npm install -g crypto-metrics-mcp); " +
            "if this is the npm package, reinstall it\n",
        );
      }
    },
    60_000,
  );

  it("says in one line which Node it needs when started by one older than the package's floor, exit 2", () => {
    // An older Node, as the program sees it: the version is all the check reads.
    const olderNode = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${MIN_NODE[0] - 2}.19.0"})`;
    let stderr = "";
    let status: number | null = 0;
    try {
      execFileSync(process.execPath, ["--import", olderNode, join(unpacked, "dist", "cli.js"), "--version"], {
        env: cleanEnv(),
        stdio: "pipe",
      });
    } catch (err) {
      ({ status } = err as { status: number | null });
      stderr = String((err as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr).toBe(
      `crypto-metrics-mcp: needs Node.js ${MIN_NODE.join(".")} or newer, this is ${MIN_NODE[0] - 2}.19.0; install a current LTS release from nodejs.org\n`,
    );
  });

  it("refuses a truncated or altered bundle with a ZipError naming the problem", () => {
    const zip = writeZip(bundleEntries(dist));
    expect(() => readZip(zip.subarray(0, zip.length - 100))).toThrow(ZipError);
    const altered = Buffer.from(zip);
    altered[200] = altered[200]! ^ 0xff;
    expect(() => readZip(altered)).toThrow(/entry .* (does not inflate|fails its CRC check)/);
  });

  it("stores what deflate cannot shrink (random bytes) and deflates the rest, each read back whole", async () => {
    const noise = randomBytes(4096);
    const text = Buffer.from("every printed number keeps its value\n".repeat(200));
    const entries = await deflateStrongly([
      { name: "noise.bin", data: noise },
      { name: "a.txt", data: text },
    ]);
    const zip = writeZip(entries);
    // Compression method of each central-directory record, in order (the end record is the last 22 bytes).
    const methods: number[] = [];
    for (let p = zip.readUInt32LE(zip.length - 6), n = 0; n < zip.readUInt16LE(zip.length - 12); n++) {
      methods.push(zip.readUInt16LE(p + 10));
      p += 46 + zip.readUInt16LE(p + 28) + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
    }
    expect(methods).toEqual([0, 8]);
    expect(readZip(zip).map((e) => e.data)).toEqual([noise, text]);
    expect(entries[1]!.deflated!.length).toBeLessThanOrEqual(deflateRawSync(text, { level: 9 }).length);
  });
});

describe("the npm tarball", () => {
  let extracted: string;
  let files: string[];

  beforeAll(() => {
    // The package as `npm pack` makes it from this repository's package.json and a fresh build.
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
    ) as Array<{ filename: string; files: { path: string }[] }>;
    files = packed[0]!.files.map((f) => f.path).sort();
    extracted = join(work, "npm");
    mkdirSync(extracted);
    execFileSync("tar", ["-xzf", join(work, packed[0]!.filename), "-C", extracted]);
  }, 60_000);

  it("ships the bundled JavaScript (and type declarations), the manifest, the README and the LICENSE, without source maps", () => {
    expect(files.filter((f) => !f.startsWith("dist/"))).toEqual(["LICENSE", "README.md", "manifest.json", "package.json"]);
    expect(files.filter((f) => /\.map$|meta\.json$/.test(f))).toEqual([]);
    expect(files).toContain("dist/cli.js");
  });

  it("depends on nothing: better-sqlite3 is an optional peer, for a Node without node:sqlite, that npm does not install", () => {
    const pkg = JSON.parse(readFileSync(join(extracted, "package", "package.json"), "utf8")) as Record<string, unknown>;
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.optionalDependencies).toBeUndefined();
    expect(pkg.peerDependencies).toEqual({ "better-sqlite3": expect.any(String) });
    expect(pkg.peerDependenciesMeta).toEqual({ "better-sqlite3": { optional: true } });
    expect(pkg.engines).toEqual({ node: `>=${MIN_NODE.join(".")}` });
  });

  it("answers tools/list and a charged call from the unpacked tarball (with better-sqlite3 beside it on a Node without node:sqlite)", async () => {
    // What a user on such a Node installs beside it, linked from this checkout's install.
    const modules = join(extracted, "package", "node_modules");
    mkdirSync(modules);
    for (const entry of runtimeModules(ROOT, runningHasBuiltinSqlite() ? [] : Object.keys(pkgJson().peerDependencies ?? {}))) {
      const target = join(modules, entry.name.slice("node_modules/".length));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, entry.data);
    }
    const session = await listTools(join(extracted, "package", "dist", "cli.js"));
    expect(session.tools, session.stderr).toEqual(TOOL_NAMES);
    expect(session.called, session.stderr).toMatch(/^btc lifespan\/Lth_mvrv/);
  });
});
