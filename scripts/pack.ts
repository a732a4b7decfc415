// `npm run pack`: the MCPB bundle, crypto-metrics-mcp-<version>.mcpb, holding only what runs: the
// manifest, a package.json trimmed to what Node and the program read (module type, version, the
// bundle's Node floor), the README and LICENSE, what dist/ runs (bundled JavaScript, views, wasm and
// fonts; no source maps) and, only if package.json lists runtime `dependencies` (what esbuild cannot
// bundle), those packages as installed here; deflated by zopfli (scripts/strong-deflate.ts). No
// native code: the bundle meters with Node's built-in node:sqlite, so it runs on every platform the
// manifest names, and a bundle holding a compiled addon or any other platform binary is refused
// rather than written.
// `--dist DIR` packs another build, `--out DIR` writes elsewhere (the package test uses both).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

import { BUILTIN_SQLITE_NODE } from "../src/min-node.js";
import { deflateStrongly } from "./strong-deflate.js";
import { writeZip, type ZipEntry } from "./zip.js";

const ROOT = join(import.meta.dirname, "..");

interface PackageJson {
  name: string;
  version: string;
  description: string;
  type: string;
  license: string;
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
}

/**
 * Files of an installed package that only building it from source needs (a native module ships its
 * C sources for machines without a prebuilt binary): left out. A compiled addon is kept, so that
 * checkBundle sees it and refuses the bundle.
 */
const BUILD_ONLY =
  /^(deps|src|test|tests|docs?|benchmark|\.github)\/|\.(c|cc|cpp|h|hpp|gyp|gypi|md|map|ts)$|^build\/(?!Release\/[^/]+\.node$)|^build\/Release\/test_/;

/** Dependencies that only installing needs (fetching or building a native addon), never running. */
const INSTALL_ONLY = new Set(["prebuild-install"]);

/** The packages `dependencies` name and what they depend on, as installed under node_modules (hoisted). */
export function runtimeModules(root: string, names: readonly string[]): ZipEntry[] {
  const seen = new Set<string>();
  const queue = [...names];
  const out: ZipEntry[] = [];
  while (queue.length) {
    const name = queue.shift()!;
    if (seen.has(name) || INSTALL_ONLY.has(name)) continue;
    seen.add(name);
    const dir = join(root, "node_modules", name);
    if (!existsSync(join(dir, "package.json"))) throw new Error(`${name} is a runtime dependency but is not installed: run npm ci`);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    queue.push(...Object.keys(pkg.dependencies ?? {}));
    const walk = (d: string): void => {
      for (const entry of readdirSync(d)) {
        const path = join(d, entry);
        const rel = relative(dir, path).split("\\").join("/");
        if (statSync(path).isDirectory()) {
          if (entry !== "node_modules") walk(path);
        } else if (!BUILD_ONLY.test(rel)) {
          out.push({ name: `node_modules/${name}/${rel}`, data: readFileSync(path), mode: statSync(path).mode & 0o777 });
        }
      }
    };
    walk(dir);
  }
  return out;
}

/** The Node the bundle needs: the first with node:sqlite unflagged, as manifest.json must declare it. */
export const BUNDLE_NODE = `>=${BUILTIN_SQLITE_NODE.join(".")}.0`;

/**
 * The package.json inside the bundle: no scripts and no dependency lists, which nothing there uses;
 * `engines` is the bundle's own floor, which dist/cli.js checks on a Node without node:sqlite.
 */
export function bundlePackageJson(pkg: PackageJson): string {
  const { name, version, description, type, license, bin } = pkg;
  return `${JSON.stringify({ name, version, description, type, license, bin, engines: { node: BUNDLE_NODE } }, null, 2)}\n`;
}

/** Why a file is native code for one platform (its name or its first bytes), or undefined. */
export function nativeCode(entry: ZipEntry): string | undefined {
  if (/\.(node|so|dylib|dll|exe)$|(^|\/)binding\.gyp$/.test(entry.name)) return `a ${/\.\w+$/.exec(entry.name)?.[0] ?? "binding.gyp"} file`;
  const d = entry.data;
  if (d.length >= 4 && d.readUInt32BE(0) === 0x7f454c46) return "an ELF binary";
  if (d.length >= 4 && [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe, 0xbebafeca].includes(d.readUInt32BE(0)))
    return "a Mach-O binary";
  if (d.length >= 64 && d.toString("latin1", 0, 2) === "MZ") {
    const pe = d.readUInt32LE(0x3c);
    if (pe + 4 <= d.length && d.toString("latin1", pe, pe + 4) === "PE\0\0") return "a Windows PE binary";
  }
  return undefined;
}

/** Refuses entries the bundle must not carry: native code, or a manifest whose Node floor is not the bundle's. */
export function checkBundle(entries: readonly ZipEntry[]): void {
  const native = entries.flatMap((e) => {
    const why = nativeCode(e);
    return why ? [`${e.name} (${why})`] : [];
  });
  if (native.length) {
    throw new Error(
      `the bundle would carry native code, which runs on one platform only: ${native.join(", ")}; ` +
        "remove the package that brings it from package.json dependencies (the bundle meters with node:sqlite)",
    );
  }
  const manifest = JSON.parse(entries.find((e) => e.name === "manifest.json")!.data.toString("utf8")) as {
    compatibility?: { runtimes?: { node?: string } };
  };
  const declared = manifest.compatibility?.runtimes?.node;
  if (declared !== BUNDLE_NODE) {
    throw new Error(
      `manifest.json compatibility.runtimes.node is ${JSON.stringify(declared)}; the bundle needs node:sqlite without a flag: set it to "${BUNDLE_NODE}"`,
    );
  }
}

/**
 * The modules a desktop host never reaches: it starts the stdio server (manifest.json), so the
 * commands that host the server for a team (`http`, with its OAuth resource server, and `api`) stay
 * in the npm package. `cli.ts` says so when one of them is asked of the bundle.
 */
export const HOSTING_ONLY = ["src/transports/http.ts", "src/backend/rest.ts"];

interface Metafile {
  outputs: Record<string, { entryPoint?: string; imports: Array<{ path: string; kind: string }> }>;
}

/**
 * The JavaScript files of `dist/` that `cli.js` can load without entering a hosting-only command:
 * every static and dynamic import the build's metafile records, except the dynamic imports of
 * HOSTING_ONLY modules. The library entry (index.js) is not reached either: a host runs the command.
 */
export function reachableScripts(dist: string): Set<string> {
  const metaPath = join(dist, "meta.json");
  if (!existsSync(metaPath)) throw new Error(`${dist} has no meta.json: run npm run build first`);
  const { outputs } = JSON.parse(readFileSync(metaPath, "utf8")) as Metafile;
  const prefix = Object.keys(outputs)
    .find((k) => k.endsWith("/cli.js"))
    ?.slice(0, -"cli.js".length);
  if (prefix === undefined) throw new Error(`${metaPath} names no cli.js: run npm run build first`);
  const seen = new Set<string>();
  const queue = [`${prefix}cli.js`];
  while (queue.length) {
    const path = queue.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const { path: target, kind } of outputs[path]?.imports ?? []) {
      const output = outputs[target];
      if (!output) continue; // a built-in or a runtime dependency
      if (kind === "dynamic-import" && HOSTING_ONLY.includes(output.entryPoint ?? "")) continue;
      queue.push(target);
    }
  }
  return new Set([...seen].map((k) => k.slice(prefix.length)));
}

/**
 * The files of `dist/` the bundle holds, sorted: the JavaScript cli.js reaches (reachableScripts),
 * the views' HTML, the PNG renderer's wasm and fonts (with their licence); not source maps, type
 * declarations or the build's metafile. `npm run docs` records the same list.
 */
export function bundledDistFiles(dist: string): string[] {
  const reached = reachableScripts(dist);
  return (readdirSync(dist, { recursive: true }) as string[])
    .map((f) => f.split("\\").join("/"))
    .filter((f) => statSync(join(dist, f)).isFile() && !/\.(map|d\.ts)$|^meta\.json$/.test(f))
    .filter((f) => !f.endsWith(".js") || reached.has(f))
    .sort();
}

export function bundleEntries(dist: string): ZipEntry[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;
  const scripts = bundledDistFiles(dist);
  if (!scripts.includes("cli.js")) throw new Error(`${dist} has no cli.js: run npm run build first`);
  return [
    { name: "manifest.json", data: readFileSync(join(ROOT, "manifest.json")) },
    { name: "package.json", data: Buffer.from(bundlePackageJson(pkg)) },
    { name: "README.md", data: readFileSync(join(ROOT, "README.md")) },
    { name: "LICENSE", data: readFileSync(join(ROOT, "LICENSE")) },
    { name: "icon.png", data: readFileSync(join(ROOT, "assets", "icon.png")) },
    ...scripts.map((f) => ({ name: `dist/${f}`, data: readFileSync(join(dist, f)), ...(f === "cli.js" && { mode: 0o755 }) })),
    // Whatever could not be bundled (none today; checkBundle refuses native code).
    ...runtimeModules(ROOT, Object.keys(pkg.dependencies ?? {})),
  ];
}

export function bundleFileName(): string {
  const { name, version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;
  return `${name}-${version}.mcpb`;
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const dist = resolve(flag("--dist") ?? join(ROOT, "dist"));
  const out = join(resolve(flag("--out") ?? ROOT), bundleFileName());
  const entries = bundleEntries(dist);
  try {
    checkBundle(entries);
  } catch (err) {
    process.stderr.write(`pack: refused: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const zip = writeZip(await deflateStrongly(entries));
  writeFileSync(out, zip);
  const unpacked = entries.reduce((sum, e) => sum + e.data.length, 0);
  process.stderr.write(
    `pack: ${out}: ${entries.length} files, ${(zip.length / 1024).toFixed(0)} KB (${zip.length} bytes; ${(unpacked / 1024).toFixed(0)} KB unpacked; zopfli), no native code, Node ${BUNDLE_NODE}\n`,
  );
}
