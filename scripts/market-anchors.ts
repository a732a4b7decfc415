// The embedded market's reference anchors (src/backend/inprocess/world/market/anchors.json) are the
// record: this script checks them and merges new entries into them.
//   npx tsx scripts/market-anchors.ts [--file <anchors.json>]
//     checks every entry (dates, months, closes that spike and come back, implausible market caps,
//     supply paths far from the reference supply, sources) and prints what it finds; exits 1 when an
//     entry has an error (a finding marked "check" is printed for review only).
//   npx tsx scripts/market-anchors.ts --merge <part.json | dir with part-*.json>… [--file <anchors.json>]
//     reads part files (one JSON object keyed by ticker; fields: name, listed, delisted, closes,
//     ref {date, price, supply}, supply, maxSupply, mined, minedUntil, host, peg, confidence,
//     sources, notes), fixes or leaves out what fails a check (each change printed and recorded
//     under "corrections"), and writes the file back with the merged entries (a part's entry
//     replaces the file's entry for the same ticker); untouched entries keep their bytes.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import type { AnchorEntry } from "../src/backend/inprocess/world/market/reference.js";
import {
  ALGORITHMS,
  badMonths,
  capHigh,
  checkFile,
  DATE,
  END_MONTH,
  PEGS,
  positive,
  refVsClose,
  spikes,
  supplyFar,
} from "./anchor-checks.js";
import { type AnchorFile, serialize } from "./anchor-file.js";

const FILE_DEFAULT = "src/backend/inprocess/world/market/anchors.json";

interface Part {
  name?: string;
  listed?: string;
  genesis?: string;
  delisted?: string | null;
  closes?: Record<string, number>;
  ref?: { date?: string; price?: number; supply?: number };
  supply?: Record<string, number>;
  maxSupply?: number | null;
  mined?: string | null;
  minedUntil?: string | null;
  host?: string | null;
  peg?: string | null;
  confidence?: string;
  sources?: string[];
  notes?: string;
}

/** A part file's entry as a stored entry, cleaned: what fails a check is dropped and said. */
function fromPart(ticker: string, p: Part, file: string, sources: string[], say: (line: string) => void): AnchorEntry | undefined {
  const problems: string[] = [];
  if (!p.listed || !DATE.test(p.listed)) problems.push("no listing date");
  if (!p.ref || !positive(p.ref.price) || !positive(p.ref.supply)) problems.push("no reference price and supply");
  if (problems.length) {
    say(`${ticker} (${file}): ${problems.join(", ")}: left out`);
    return undefined;
  }
  const listed = p.listed!;
  const delisted = p.delisted && DATE.test(p.delisted) ? p.delisted : undefined;
  const endMonth = delisted ? delisted.slice(0, 7) : END_MONTH;
  const peg = p.peg && PEGS.has(p.peg) ? p.peg : undefined;
  const sorted = (s: Record<string, number> | undefined) =>
    Object.fromEntries(Object.entries(s ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  const closes = sorted(p.closes);
  for (const [month, text] of badMonths(ticker, "close", closes, listed.slice(0, 7), endMonth)) {
    say(`${text}: dropped`);
    delete closes[month];
  }
  const { spikes: found, moves } = spikes(ticker, closes, peg);
  for (const [month, text] of found) {
    say(`${text}: dropped`);
    delete closes[month];
  }
  for (const text of moves) say(`${text} (kept; check)`);
  const supply = sorted(p.supply);
  for (const [month, text] of badMonths(ticker, "supply", supply, "0000-00", END_MONTH)) {
    say(`${text}: dropped`);
    delete supply[month];
  }
  const [price, refSupply] = [p.ref!.price!, p.ref!.supply!];
  const ref = refVsClose(ticker, price, closes, delisted);
  if (ref) say(`${ref} (kept; check)`);
  const far = supplyFar(ticker, supply, refSupply);
  if (far) {
    say(`${far}: the supply path is dropped, the reference kept`);
    for (const k of Object.keys(supply)) delete supply[k];
  }
  const cap = capHigh(ticker, price, refSupply, peg, delisted);
  if (cap) say(`${cap} (kept; check)`);
  const sourceIndex = (s: string) => {
    const i = sources.indexOf(s);
    return i >= 0 ? i : sources.push(s) - 1;
  };
  const entry: AnchorEntry = {
    name: p.name ?? ticker,
    listed,
    closes,
    ref: [price, refSupply],
    supply,
    confidence: p.confidence ?? "low",
    sources: (p.sources ?? []).map(sourceIndex),
    from: file,
  };
  if (delisted) entry.delisted = delisted;
  if (positive(p.maxSupply)) entry.maxSupply = p.maxSupply;
  if (p.mined && ALGORITHMS.has(p.mined)) entry.mined = p.mined;
  else if (p.mined) {
    say(`${ticker}: unknown mining algorithm "${p.mined}": treated as "other-pow"`);
    entry.mined = "other-pow";
  }
  if (p.minedUntil && DATE.test(p.minedUntil)) entry.minedUntil = p.minedUntil;
  if (p.host) entry.host = p.host;
  if (peg) entry.peg = peg;
  if (p.notes) entry.notes = p.notes;
  return entry;
}

function partFiles(paths: string[]): string[] {
  return paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => /^part-.*\.json$/.test(f))
          .sort()
          .map((f) => join(p, f))
      : [p],
  );
}

function main(): number {
  const args = process.argv.slice(2);
  const fileIndex = args.indexOf("--file");
  const path = fileIndex >= 0 ? args[fileIndex + 1] : FILE_DEFAULT;
  const mergeIndex = args.indexOf("--merge");
  const inputs = mergeIndex >= 0 ? args.slice(mergeIndex + 1).filter((a, i, all) => a !== "--file" && all[i - 1] !== "--file") : [];
  if (!path || (mergeIndex >= 0 && inputs.length === 0) || args.some((a) => a.startsWith("--") && a !== "--file" && a !== "--merge")) {
    process.stderr.write(
      "usage: tsx scripts/market-anchors.ts [--file <anchors.json>]                    check the anchors\n" +
        "       tsx scripts/market-anchors.ts --merge <part.json | dir>… [--file <anchors.json>]  merge part files into them\n",
    );
    return 2;
  }
  const text = readFileSync(path, "utf8");
  const file = JSON.parse(text) as AnchorFile;
  if (serialize(file) !== text) process.stdout.write(`note: ${path} is not in the script's layout; a merge rewrites it in that layout\n`);

  if (inputs.length) {
    const report: string[] = [];
    const say = (line: string) => report.push(line);
    const files = partFiles(inputs);
    for (const f of files) {
      let parsed: Record<string, Part>;
      try {
        parsed = JSON.parse(readFileSync(f, "utf8")) as Record<string, Part>;
      } catch (err) {
        say(`${basename(f)}: not valid JSON (${(err as Error).message}): skipped`);
        continue;
      }
      for (const [rawTicker, p] of Object.entries(parsed)) {
        const ticker = rawTicker.toLowerCase();
        const entry = fromPart(ticker, p, basename(f), file.sources, say);
        if (!entry) continue;
        if (file.assets[ticker]) say(`${ticker}: in ${file.assets[ticker]!.from ?? "the file"} and ${basename(f)}: ${basename(f)} wins`);
        file.assets[ticker] = entry;
      }
    }
    file.generated = [...file.generated, ...files.map((f) => basename(f)).filter((f) => !file.generated.includes(f))];
    file.corrections = [...file.corrections, ...report];
    writeFileSync(path, serialize(file));
    process.stdout.write(`merged ${files.map((f) => basename(f)).join(", ")} → ${path}\n${report.map((r) => `  ${r}\n`).join("")}`);
  }

  const findings = checkFile(file);
  const errors = findings.filter((f) => f.level === "error");
  for (const f of findings) process.stdout.write(`${f.level === "error" ? "error" : "check"}  ${f.text}\n`);
  process.stdout.write(
    `${Object.keys(file.assets).length} assets in ${path}: ${errors.length} errors, ${findings.length - errors.length} to review\n`,
  );
  return errors.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());
