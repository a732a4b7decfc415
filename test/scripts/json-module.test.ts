// The anchors file as the bundle carries it (scripts/json-module.mjs): the module it becomes, imported,
// gives every figure back as the file holds it, in the same order, and leaves out only texts no code reads.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterAll, describe, expect, it } from "vitest";

import { jsonModule, withoutDocs } from "../../scripts/json-module.mjs";

const PATH = join(import.meta.dirname, "../../src/backend/inprocess/world/market/anchors.json");
const raw = JSON.parse(readFileSync(PATH, "utf8")) as Record<string, any>;
const dir = mkdtempSync(join(tmpdir(), "cm-json-module-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bundled(): Promise<Record<string, any>> {
  const file = join(dir, "anchors.mjs");
  writeFileSync(file, jsonModule(PATH, JSON.parse(readFileSync(PATH, "utf8"))));
  return ((await import(pathToFileURL(file).href)) as { default: Record<string, any> }).default;
}

describe("the anchors in the bundle", () => {
  it("give back every asset's entry as the file holds it, keys in the same order, month runs expanded", async () => {
    const value = await bundled();
    const expected = withoutDocs(PATH, JSON.parse(readFileSync(PATH, "utf8"))) as Record<string, any>;
    expect(Object.keys(value.assets)).toEqual(Object.keys(raw.assets));
    for (const ticker of Object.keys(raw.assets)) {
      const { from: _from, notes: _notes, sources: _sources, confidence: _confidence, ...entry } = raw.assets[ticker];
      expect(JSON.stringify(value.assets[ticker]), ticker).toBe(JSON.stringify(entry));
      expect(JSON.stringify(value.assets[ticker])).toBe(JSON.stringify(expected.assets[ticker]));
    }
    for (const key of Object.keys(expected).filter((k) => k !== "assets")) expect(value[key], key).toEqual(expected[key]);
  });

  it("keep every figure a calendar row holds, with its source number; leave out only notes and readers' texts", () => {
    const kept = withoutDocs(PATH, JSON.parse(readFileSync(PATH, "utf8"))) as Record<string, any>;
    for (const key of ["about", "generated", "corrections", "sources"]) expect(kept[key]).toBeUndefined();
    for (const entry of Object.values(kept.assets as Record<string, object>)) {
      for (const key of ["from", "notes", "sources", "confidence"]) expect(entry).not.toHaveProperty(key);
    }
    for (const [section, rows] of Object.entries(raw)) {
      if (section === "assets" || !rows || typeof rows !== "object" || Array.isArray(rows)) continue;
      for (const [coin, list] of Object.entries(rows as Record<string, unknown>)) {
        if (!Array.isArray(list)) continue;
        list.forEach((row: unknown, i: number) => {
          const out = kept[section][coin][i];
          if (Array.isArray(row)) {
            // Figures and the source number stay; a fourth member stays unless it is a note of those sections.
            expect(out.slice(0, 3), `${section}.${coin}[${i}]`).toEqual(row.slice(0, 3));
            if (!["closes", "lows", "peaks"].includes(section)) expect(out).toEqual(row);
          } else {
            const { what: _what, ...figures } = row as Record<string, unknown>;
            expect(out, `${section}.${coin}[${i}]`).toEqual(figures);
          }
        });
      }
    }
  });
});
