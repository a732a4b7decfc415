// Builds the MCP Apps views (views/*.ts + views/style.css) into self-contained HTML files, script
// and style inlined and no URL of any kind, so a host's default CSP is enough; copies the PNG
// renderer's wasm and fonts beside the bundle. `node scripts/build-views.mjs` writes dist/; the
// server imports buildViewHtml when it runs from sources.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const VIEWS = { heatmap: "Liquidation heatmap", chart: "Chart" };

export async function buildViewHtml(name) {
  if (!Object.hasOwn(VIEWS, name)) throw new Error(`unknown view ${name}`);
  const esbuild = await import("esbuild");
  const out = await esbuild.build({
    entryPoints: [join(ROOT, "views", `${name}.ts`)],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  const js = out.outputFiles[0].text.replace(/<\/(script)/gi, "<\\/$1");
  const css = readFileSync(join(ROOT, "views", "style.css"), "utf8").replace(/\s*\n\s*/g, "");
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${VIEWS[name]}</title><style>${css}</style></head><body><div id="app"></div><script>${js}</script></body></html>`
  );
}

async function main() {
  // `--outdir DIR` beside a bundle built elsewhere (the package test builds into a temporary directory).
  const outFlag = process.argv.indexOf("--outdir");
  const dist = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(ROOT, "dist");
  mkdirSync(join(dist, "views"), { recursive: true });
  let raw = 0;
  let gz = 0;
  for (const name of Object.keys(VIEWS)) {
    const html = await buildViewHtml(name);
    if (/\b(?:https?:)?\/\/[a-z0-9-]+\.[a-z]/i.test(html.replace(/http:\/\/www\.w3\.org\/2000\/svg/g, ""))) {
      throw new Error(`view ${name} contains an external URL; views must be self-contained`);
    }
    writeFileSync(join(dist, "views", `${name}.html`), html);
    raw += Buffer.byteLength(html);
    gz += gzipSync(html, { level: 9 }).length;
  }
  const require = createRequire(import.meta.url);
  copyFileSync(require.resolve("@resvg/resvg-wasm/index_bg.wasm"), join(dist, "resvg.wasm"));
  // The fonts travel with their licence (SIL OFL 1.1 asks for it).
  for (const font of ["Inter-Regular-subset.otf", "Inter-SemiBold-subset.otf", "LICENSE-Inter.txt"])
    copyFileSync(join(ROOT, "assets", "fonts", font), join(dist, font));
  process.stderr.write(`views: ${Object.keys(VIEWS).length} files, ${(raw / 1024).toFixed(1)} KB (${(gz / 1024).toFixed(1)} KB gzip)\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
