// Merges reference anchor files (one JSON object per file, keyed by ticker; fields as in the
// market-data schema: listed, closes, ref, supply, maxSupply, mined, host, peg, sources…) into the
// one compact data file the embedded market is built on, after checking every entry. Run:
//   npx tsx scripts/market-anchors.ts <dir with part-*.json> [--out <file>]
// Entries that fail a check are fixed (a single absurd close dropped) or left out, and every change
// is printed, so the data file can be regenerated and its corrections reviewed.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AnchorEntry } from "../src/backend/inprocess/data/market/reference.js";

const OUT_DEFAULT = "src/backend/inprocess/data/market/anchors.json";
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ALGORITHMS = new Set(["sha256", "scrypt", "x11", "equihash", "randomx", "etchash", "kheavyhash", "blake3", "other-pow"]);
const PEGS = new Set(["usd", "eur", "gold"]);

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


const args = process.argv.slice(2);
const dir = args[0];
if (!dir) {
  process.stderr.write("usage: tsx scripts/market-anchors.ts <dir with part-*.json> [--out <file>]\n");
  process.exit(2);
}
const outIndex = args.indexOf("--out");
const out = outIndex >= 0 ? args[outIndex + 1]! : OUT_DEFAULT;

const sources: string[] = [];
const sourceIndex = (s: string) => {
  let i = sources.indexOf(s);
  if (i < 0) i = sources.push(s) - 1;
  return i;
};
const report: string[] = [];
const say = (line: string) => report.push(line);

const monthsBetween = (a: string, b: string) => {
  const [ya, ma] = a.split("-").map(Number);
  const [yb, mb] = b.split("-").map(Number);
  return (yb! - ya!) * 12 + (mb! - ma!);
};
const positive = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

function cleanSeries(ticker: string, label: string, series: Record<string, number> | undefined, listedMonth: string, endMonth: string): Record<string, number> {
  const outSeries: Record<string, number> = {};
  for (const [month, value] of Object.entries(series ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (!MONTH.test(month)) say(`${ticker}: ${label} ${month} is not a month: dropped`);
    else if (!positive(value)) say(`${ticker}: ${label} ${month} = ${value} is not a positive number: dropped`);
    else if (month < listedMonth && label === "close") say(`${ticker}: close ${month} precedes the listing (${listedMonth}): dropped`);
    else if (month > endMonth) say(`${ticker}: ${label} ${month} is after ${endMonth}: dropped`);
    else outSeries[month] = value;
  }
  return outSeries;
}

/** Drops closes that jump by more than `limit`× from both neighbours in opposite directions (a typo, not a market). */
function dropSpikes(ticker: string, closes: Record<string, number>, peg: string | undefined): void {
  const months = Object.keys(closes);
  const limit = peg ? 1.5 : 8;
  for (let i = 1; i < months.length - 1; i++) {
    const [a, b, c] = [closes[months[i - 1]!]!, closes[months[i]!]!, closes[months[i + 1]!]!];
    if (monthsBetween(months[i - 1]!, months[i]!) !== 1 || monthsBetween(months[i]!, months[i + 1]!) !== 1) continue;
    const up = b / a;
    const back = b / c;
    if ((up > limit && back > limit) || (up < 1 / limit && back < 1 / limit)) {
      say(`${ticker}: close ${months[i]} = ${b} jumps ${up.toPrecision(3)}× and back (${a} → ${b} → ${c}): dropped`);
      delete closes[months[i]!];
    }
  }
  // Any remaining month-to-month move over 100× is reported for review (real listings can do 10×).
  const kept = Object.keys(closes);
  for (let i = 1; i < kept.length; i++) {
    const r = closes[kept[i]!]! / closes[kept[i - 1]!]!;
    if (monthsBetween(kept[i - 1]!, kept[i]!) === 1 && (r > 100 || r < 0.01)) say(`${ticker}: close ${kept[i - 1]} → ${kept[i]} moves ${r.toPrecision(3)}× (kept; check)`);
  }
}

const merged: Record<string, AnchorEntry> = {};
const files = readdirSync(dir).filter((f) => /^part-.*\.json$/.test(f)).sort();
for (const file of files) {
  let parsed: Record<string, Part>;
  try {
    parsed = JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, Part>;
  } catch (err) {
    say(`${file}: not valid JSON (${(err as Error).message}): skipped`);
    continue;
  }
  for (const [rawTicker, p] of Object.entries(parsed)) {
    const ticker = rawTicker.toLowerCase();
    const problems: string[] = [];
    if (!p.listed || !DATE.test(p.listed)) problems.push("no listing date");
    if (!p.ref || !positive(p.ref.price) || !positive(p.ref.supply)) problems.push("no reference price and supply");
    if (problems.length) {
      say(`${ticker} (${file}): ${problems.join(", ")}: left out`);
      continue;
    }
    if (merged[ticker]) say(`${ticker}: in ${merged[ticker]!.from} and ${file}: the later file wins`);
    const listed = p.listed!;
    const delisted = p.delisted && DATE.test(p.delisted) ? p.delisted : undefined;
    const endMonth = delisted ? delisted.slice(0, 7) : "2025-12";
    const peg = p.peg && PEGS.has(p.peg) ? p.peg : undefined;
    const closes = cleanSeries(ticker, "close", p.closes, listed.slice(0, 7), endMonth);
    dropSpikes(ticker, closes, peg);
    const supply = cleanSeries(ticker, "supply", p.supply, "0000-00", "2025-12");
    const [price, refSupply] = [p.ref!.price!, p.ref!.supply!];
    const lastClose = Object.entries(closes).at(-1);
    if (lastClose && !delisted && lastClose[0] >= "2025-06") {
      const r = price / lastClose[1];
      if (r > 4 || r < 0.25) say(`${ticker}: reference price ${price} is ${r.toPrecision(3)}× the ${lastClose[0]} close ${lastClose[1]} (kept; check)`);
    }
    const lastSupply = Object.entries(supply).at(-1);
    if (lastSupply && (lastSupply[1] / refSupply > 5 || refSupply / lastSupply[1] > 5)) {
      say(`${ticker}: supply ${lastSupply[0]} = ${lastSupply[1]} vs reference ${refSupply}: the supply path is dropped, the reference kept`);
      for (const k of Object.keys(supply)) delete supply[k];
    }
    const cap = price * refSupply;
    if (!peg && !delisted && ticker !== "btc" && cap > 1e12) say(`${ticker}: market cap ${cap.toPrecision(3)} USD is above a trillion (kept; check)`);
    const entry: AnchorEntry = {
      name: p.name ?? ticker, listed, closes, ref: [price, refSupply], supply,
      confidence: p.confidence ?? "low", sources: (p.sources ?? []).map(sourceIndex), from: file,
    };
    if (delisted) entry.delisted = delisted;
    if (positive(p.maxSupply)) entry.maxSupply = p.maxSupply;
    if (p.mined && ALGORITHMS.has(p.mined)) entry.mined = p.mined;
    else if (p.mined) say(`${ticker}: unknown mining algorithm "${p.mined}": treated as "other-pow"`), (entry.mined = "other-pow");
    if (p.minedUntil && DATE.test(p.minedUntil)) entry.minedUntil = p.minedUntil;
    if (p.host) entry.host = p.host;
    if (peg) entry.peg = peg;
    if (p.notes) entry.notes = p.notes;
    merged[ticker] = entry;
  }
}

const tickers = Object.keys(merged).sort();
const lines = tickers.map((t) => `    ${JSON.stringify(t)}: ${JSON.stringify(merged[t])}`);
const header = {
  about: "Reference anchors of the embedded market: listing dates, month-end USD closes, circulating supply at month-ends, the 2025-12-28 price and supply, mining algorithm, host chain and peg. Figures are approximate public-knowledge levels (see sources and each entry's confidence); generated by scripts/market-anchors.ts from reviewed part files.",
  generated: files,
  corrections: report,
  sources,
};
const text = `{\n${Object.entries(header).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n")},\n  "assets": {\n${lines.join(",\n")}\n  }\n}\n`;
writeFileSync(out, text);
process.stdout.write(`${tickers.length} assets from ${files.join(", ")} → ${out}\n${report.map((r) => `  ${r}`).join("\n")}\n`);
