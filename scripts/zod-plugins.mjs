// esbuild plugins that keep zod to what this program runs; shared by the build (scripts/bundle.mjs)
// and the bench, which bundles its call floor (bench/call-floor.ts) the same way.
import { dirname, join } from "node:path";

/**
 * zod re-exports all of its ~40 message locales from its namespaces, so none can be tree-shaken:
 * 260 KB of the 890 KB a stdio start parses. Only English is ever used (zod configures it itself
 * and nothing here calls z.config with another), so the locales index is replaced by one that
 * exports `en` alone.
 */
export const englishOnlyZodLocales = {
  name: "english-only-zod-locales",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), "..", "locales", "en.js"), namespace: "zod-en-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-en-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * zod's namespace object (`z`) re-exports all of zod, so esbuild keeps modules nothing here calls:
 * z.compile's code generator (core/compile.js, 29 KB) and z.fromJSONSchema (12 KB), parsed by
 * every process that validates a tool's arguments. They are replaced by modules exporting the same
 * names that say they are not part of this build (the schemas' own parsers never use them).
 */
export const zodUnused = {
  name: "zod-unused",
  setup(build) {
    const inZod = (importer) => /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(importer);
    build.onResolve({ filter: /^\.\/compile\.js$/ }, (args) =>
      inZod(args.importer) ? { path: "compile", namespace: "zod-unused" } : undefined,
    );
    build.onResolve({ filter: /^\.\/from-json-schema\.js$/ }, (args) =>
      inZod(args.importer) ? { path: "from-json-schema", namespace: "zod-unused" } : undefined,
    );
    const absent = (what) => `() => { throw new Error(${JSON.stringify(`${what} is not part of this build`)}); }`;
    build.onLoad({ filter: /.*/, namespace: "zod-unused" }, (args) => ({
      contents:
        args.path === "compile"
          ? [
              'export const INVALID = Symbol.for("zod.compile.invalid");',
              `export class ZodCompileAsyncError extends Error {}`,
              `export class ZodCompileUnsupportedError extends Error {}`,
              `export const compile = ${absent("z.compile")};`,
              `export const withParser = ${absent("z.withParser")};`,
              `export const compileFn = ${absent("z.compile")};`,
            ].join("\n")
          : `export const fromJSONSchema = ${absent("z.fromJSONSchema")};`,
    }));
  },
};
