// The .mcpb's deflate: zopfli (@gfx/zopfli, zopfli compiled to WebAssembly), which writes ordinary
// deflate streams 4–6 % smaller than zlib's level 9 (the PNG renderer's wasm: 957,659 -> 902,246
// bytes) for ~20 s of CPU over the whole bundle. Every stream is inflated back and compared before
// it is used, and kept under node_modules/.cache by the SHA-256 of what it holds, so a rebuild
// recompresses only the files that changed (the 2.4 MB wasm never does).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";

import type { ZipEntry } from "./zip.js";

const ROOT = join(import.meta.dirname, "..");
const CACHE = join(ROOT, "node_modules", ".cache", "crypto-metrics-mcp", "zopfli");
/**
 * Zopfli's passes per block. Over the bundle's JavaScript, wasm and fonts: 15 (zopfli's default) saves
 * 212 bytes more than 5 for 23 % more CPU; 1 leaves 2.7 KB more than 5.
 */
const ITERATIONS = 5;

function inflatesTo(deflated: Buffer, data: Buffer): boolean {
  try {
    return inflateRawSync(deflated).equals(data);
  } catch {
    return false;
  }
}

/** `entries` with each one's data deflated by zopfli (`deflated`), from the cache where it is there. */
export async function deflateStrongly(entries: readonly ZipEntry[]): Promise<ZipEntry[]> {
  mkdirSync(CACHE, { recursive: true });
  let zopfli: typeof import("@gfx/zopfli") | undefined;
  const out: ZipEntry[] = [];
  for (const entry of entries) {
    const path = join(CACHE, `${createHash("sha256").update(entry.data).digest("hex")}-${ITERATIONS}`);
    let deflated: Buffer | undefined;
    try {
      deflated = readFileSync(path);
    } catch {
      // not cached yet
    }
    if (!deflated || !inflatesTo(deflated, entry.data)) {
      zopfli ??= await import("@gfx/zopfli");
      deflated = Buffer.from(await zopfli.deflateAsync(entry.data, { numiterations: ITERATIONS }));
      if (!inflatesTo(deflated, entry.data)) throw new Error(`zopfli's deflate of ${entry.name} does not inflate back to it`);
      // Written aside and renamed, so a pack running beside this one never reads half a file.
      writeFileSync(`${path}.${process.pid}`, deflated);
      renameSync(`${path}.${process.pid}`, path);
    }
    out.push({ ...entry, deflated });
  }
  return out;
}
