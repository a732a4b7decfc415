// `npm run build`: bundles the program with esbuild straight from TypeScript into dist/: cli.js (a
// thin entry, src/bin.ts) plus one chunk per lazily loaded part (transports, call, REST face, HTTP
// backend). Nothing is left external but Node's built-ins and the packages package.json lists as
// runtime `dependencies` or optional `peerDependencies` (only better-sqlite3, for a Node without
// node:sqlite), so the npm package pulls nothing else and the .mcpb bundle holds dist/ alone. Source maps are
// written beside the chunks without a link (the packages leave them out; `node --enable-source-maps`
// users can point at them). Type checking is `npm run typecheck`'s job.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as esbuild from "esbuild";

import { jsonModule } from "./json-module.mjs";
import { englishOnlyZodLocales, zodUnused } from "./zod-plugins.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
// `--outdir DIR` builds elsewhere (the package test builds into a temporary directory).
const outdirFlag = process.argv.indexOf("--outdir");
const DIST = outdirFlag > 0 ? resolve(process.argv[outdirFlag + 1]) : join(ROOT, "dist");

/**
 * The SDK's Server and Client construct an Ajv JSON Schema validator unless given one. Ours are
 * always given one (src/json-schema.ts: the server never validates a client's JSON, the call
 * command never lists tools), so Ajv and ajv-formats (~190 KB, ~25 ms of every start) are dead
 * code that esbuild cannot drop on its own: CommonJS imports count as side effects. The SDK's
 * provider module is replaced by one whose validator says it is not bundled.
 */
const noAjv = {
  name: "no-ajv",
  setup(build) {
    // SDK v2 (@modelcontextprotocol/server, /client): its Node shim's default validator, ajv inlined.
    build.onResolve({ filter: /ajvProvider-[\w-]+\.mjs$/ }, (args) =>
      /[\\/]@modelcontextprotocol[\\/](server|client)[\\/]/.test(args.importer) ? { path: "ajv-provider", namespace: "no-ajv" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "no-ajv" }, () => ({
      contents:
        "class AjvJsonSchemaValidator { getValidator() { " +
        "throw new Error('JSON Schema validation (Ajv) is not part of this build'); } }\n" +
        "const unbundled = () => { throw new Error('Ajv is not part of this build'); };\n" +
        "export { AjvJsonSchemaValidator, AjvJsonSchemaValidator as n, unbundled as r, unbundled as t };",
    }));
  },
};

/**
 * The HTTP backend takes one thing from undici, its Agent (a connection pool with connect, headers
 * and body timeouts), and calls one method on it, request(). undici's index loads everything it
 * offers (fetch, WebSocket, EventSource, caches, mocks, proxies, cookies): 534 KB of the backend's
 * chunk. `import ... from "undici"` in src/ resolves instead to a module that builds Agent as
 * undici's index does (its dispatcher with the request API attached), 302 KB; importing any other
 * name from "undici" fails the build ("No matching export"), so nothing can silently go missing.
 */
const undiciAgentOnly = {
  name: "undici-agent-only",
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) ? { path: "undici", namespace: "undici-agent-only" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "undici-agent-only" }, () => ({
      contents: [
        'import Dispatcher from "undici/lib/dispatcher/dispatcher.js";',
        'import api from "undici/lib/api/index.js";',
        'import Agent from "undici/lib/dispatcher/agent.js";',
        "Object.assign(Dispatcher.prototype, api);",
        "export { Agent };",
      ].join("\n"),
      resolveDir: ROOT,
    }));
  },
};

const jsonParse = {
  name: "json-parse",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.json$/ }, (args) => ({
      contents: jsonModule(args.path, JSON.parse(readFileSync(args.path, "utf8"))),
      loader: "js",
    }));
  },
};

/**
 * initialize and tools/list as the real server answers them (scripts/handshake.ts, run here through a
 * throw-away bundle), compiled into dist/ for the stdio front: a client gets them while the SDK and
 * the tools load. Recorded from the same sources in the same build, so they cannot drift.
 */
async function recordHandshake() {
  // Beside this script, so the recorder finds ../package.json and node_modules as the sources do.
  const script = join(ROOT, "scripts", `.handshake-${process.pid}.mjs`);
  try {
    await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: ["scripts/handshake.ts"],
      outfile: script,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      logLevel: "warning",
    });
    const out = execFileSync(process.execPath, [script], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    JSON.parse(out); // fail the build here rather than ship something unreadable
    return out;
  } finally {
    rmSync(script, { force: true });
  }
}

const handshake = await recordHandshake();
rmSync(DIST, { recursive: true, force: true });
mkdirSync(DIST, { recursive: true });

// Packages in `dependencies` are what an install pulls, and optional `peerDependencies` what a user may
// add (better-sqlite3, for a Node without node:sqlite): both stay external (a native module cannot be
// bundled). Everything else the program imports is bundled and belongs in devDependencies.
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const RUNTIME_DEPENDENCIES = [...Object.keys(PACKAGE.dependencies ?? {}), ...Object.keys(PACKAGE.peerDependencies ?? {})];
/** Optional modules a bundled package names but never loads here. */
const NEVER_LOADED = ["pg-native"];

const result = await esbuild.build({
  absWorkingDir: ROOT,
  // The command, and the library entry when there is one (it shares the command's chunks).
  entryPoints: { cli: "src/bin.ts", ...(existsSync(join(ROOT, "src", "index.ts")) && { index: "src/index.ts" }) },
  outdir: DIST,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Chunks sit next to cli.js so `new URL("../package.json", import.meta.url)` still finds the package.
  chunkNames: "chunk-[hash]",
  minify: true,
  sourcemap: "external",
  // CommonJS dependencies (undici) call require() for Node built-ins; ESM has no require.
  banner: { js: 'import { createRequire as __cmCreateRequire } from "node:module"; const require = __cmCreateRequire(import.meta.url);' },
  legalComments: "none",
  metafile: true,
  // better-sqlite3 (an optional peer, loaded only where node:sqlite is missing) loads its compiled addon (build/Release/*.node) relative to
  // its own files, so it stays in node_modules; pg's optional native binding is never loaded (its
  // pure-JS client is), so it is left unresolved rather than required.
  external: [...RUNTIME_DEPENDENCIES, ...NEVER_LOADED],
  define: { __CRYPTO_METRICS_HANDSHAKE__: JSON.stringify(handshake) },
  plugins: [englishOnlyZodLocales, noAjv, zodUnused, undiciAgentOnly, jsonParse],
  logLevel: "warning",
});

// Anything not bundled comes from node_modules at run time: only the declared runtime dependencies may.
const packageOf = (path) =>
  path
    .split("/")
    .slice(0, path.startsWith("@") ? 2 : 1)
    .join("/");
const external = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const imp of output.imports) {
    const name = packageOf(imp.path);
    if (
      imp.external &&
      !imp.path.startsWith("node:") &&
      !isBuiltin(imp.path) &&
      !RUNTIME_DEPENDENCIES.includes(name) &&
      !NEVER_LOADED.includes(name)
    )
      external.add(imp.path);
  }
}
if (external.size) {
  process.stderr.write(`bundle: dist/ would need packages that are not runtime dependencies: ${[...external].join(", ")}\n`);
  process.exit(1);
}
writeFileSync(join(DIST, "meta.json"), JSON.stringify(result.metafile));
const bytes = Object.entries(result.metafile.outputs)
  .filter(([path]) => path.endsWith(".js"))
  .reduce((sum, [, o]) => sum + o.bytes, 0);
process.stderr.write(`bundle: ${relative(ROOT, DIST)}/ holds ${(bytes / 1024).toFixed(0)} KB of JavaScript\n`);
