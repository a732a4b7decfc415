// Second build step: bundles the compiled entry (dist/cli.js) and everything it loads, node_modules
// included, into dist/cli.js plus one chunk per lazily loaded part (transports, call, REST face,
// HTTP backend). A start then reads and compiles a few files instead of ~400: about a third less
// time to `initialize` and a third less memory (measured by `npm run bench`). Without esbuild the
// tsc output is left as it is and works the same, only slower to start.
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  process.stderr.write("bundle: esbuild is not installed; dist/ keeps the unbundled tsc output\n");
  process.exit(0);
}

/**
 * zod re-exports all of its ~40 message locales from its namespaces, so none can be tree-shaken:
 * 260 KB of the 890 KB a stdio start parses. Only English is ever used (zod configures it itself
 * and nothing here calls z.config with another), so the locales index is replaced by one that
 * exports `en` alone.
 */
const englishOnlyZodLocales = {
  name: "english-only-zod-locales",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), "..", "locales", "en.js"), namespace: "zod-en-locales" }
        : undefined);
    build.onLoad({ filter: /.*/, namespace: "zod-en-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

// Chunks are named by content hash: drop the previous build's before writing new ones.
for (const name of readdirSync(DIST)) if (/^chunk-[\w-]+\.js(\.map)?$/.test(name)) rmSync(join(DIST, name));

await esbuild.build({
  entryPoints: [join(DIST, "cli.js")],
  outdir: DIST,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Chunks sit next to cli.js so `new URL("../package.json", import.meta.url)` still finds the package.
  chunkNames: "chunk-[hash]",
  minify: true,
  sourcemap: true,
  // CommonJS dependencies (ajv, undici) call require() for Node built-ins; ESM has no require.
  banner: { js: 'import { createRequire as __cmCreateRequire } from "node:module"; const require = __cmCreateRequire(import.meta.url);' },
  legalComments: "none",
  plugins: [englishOnlyZodLocales],
  logLevel: "warning",
});
