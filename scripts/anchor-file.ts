// The shape of the market's reference anchors file (anchors.json) and the layout it is written in.
import type { AnchorEntry } from "../src/backend/inprocess/world/market/reference.js";

export interface AnchorFile {
  about: string;
  generated: string[];
  corrections: string[];
  sources: string[];
  /** The calendar of dated market events (see the file's own "about" of each section). */
  fees?: unknown;
  congestion?: unknown;
  difficulty?: unknown;
  hashrate?: unknown;
  highs?: unknown;
  closes?: unknown;
  weeks?: unknown;
  ranges?: unknown;
  lows?: unknown;
  atls?: unknown;
  peaks?: unknown;
  depegs?: unknown;
  supply?: unknown;
  flows?: unknown;
  reserves?: unknown;
  assets: Record<string, AnchorEntry>;
}

/** A header field: on one line, or a calendar section (an object of lists) with one row per line. */
function headerField(key: string, value: unknown): string {
  if (!value || typeof value !== "object" || Array.isArray(value)) return `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  const fields = Object.entries(value).map(([k, v]) =>
    Array.isArray(v)
      ? `    ${JSON.stringify(k)}: [\n${v.map((row) => `      ${JSON.stringify(row)}`).join(",\n")}\n    ]`
      : `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`,
  );
  return `  ${JSON.stringify(key)}: {\n${fields.join(",\n")}\n  }`;
}

/** The file's text: header fields one per line (calendar sections one row per line), one asset per line, sorted by ticker. */
export function serialize(file: AnchorFile): string {
  const { assets, ...header } = file;
  const lines = Object.keys(assets)
    .sort()
    .map((t) => `    ${JSON.stringify(t)}: ${JSON.stringify(assets[t])}`);
  return `{\n${Object.entries(header)
    .map(([k, v]) => headerField(k, v))
    .join(",\n")},\n  "assets": {\n${lines.join(",\n")}\n  }\n}\n`;
}
