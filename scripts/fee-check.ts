// BTC's simulated mean fee per transaction against published daily series (CSV files with `date` and
// `fee_usd` columns: the day's total fees over its transactions, in USD; the first file that has a day
// gives its value). The series are not shipped: only the monthly levels drawn from them are.
//   tsx scripts/fee-check.ts compare FILE.csv...          by year, 2017-2025: the share of days the model
//        is within 1.5x and 2x of the published mean, on every day and on 60 random days a year (the
//        same draw every run), the median ratio; then the months whose median is off by more than 1.25x
//   tsx scripts/fee-check.ts levels FILE.csv:SOURCE...    writes the month's median of the published
//        daily means (3 digits, dated the 15th) as BTC's fee levels from 2017-01 in anchors.json, each
//        naming the index of its file's entry in `sources` (the file of most of its days); the levels before 2017 are kept
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { rng } from "../harness/summary-inputs.js";
import { feePriceUsd } from "../src/backend/inprocess/world/fees.js";
import { dayOf } from "../src/backend/inprocess/world/levels.js";
import { isoDay } from "../src/catalog/dates.js";
import { DAY_MS } from "../src/catalog/index.js";
import { type AnchorFile, serialize } from "./anchor-file.js";

const ANCHORS = fileURLToPath(new URL("../src/backend/inprocess/world/market/anchors.json", import.meta.url));
const FIRST_YEAR = 2017;
const ABOUT =
  "Mean BTC fee per transaction (USD): before 2017 calm levels of each era (daily average of the published chart outside congestion waves); from 2017-01 the month's median of the published daily means, dated the 15th (scripts/fee-check.ts levels); log-linear in coin terms between points";
const LAST_YEAR = 2025;

/** Published daily means by day, and the source index of the file each came from. */
function readSeries(args: string[]): Map<number, { fee: number; source: number }> {
  const series = new Map<number, { fee: number; source: number }>();
  for (const arg of args) {
    const [file, source = "-1"] = arg.split(":");
    const [head, ...rows] = readFileSync(file!, "utf8").trim().split("\n");
    const cols = head!.split(",");
    const [iDate, iFee] = [cols.indexOf("date"), cols.indexOf("fee_usd")];
    if (iDate < 0 || iFee < 0) throw new Error(`${file}: needs the columns date and fee_usd`);
    for (const row of rows) {
      const cells = row.split(",");
      const day = dayOf(cells[iDate]!);
      const fee = Number(cells[iFee]);
      if (Number.isFinite(fee) && fee > 0 && !series.has(day)) series.set(day, { fee, source: Number(source) });
    }
  }
  return series;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const monthOf = (day: number) => isoDay(day * DAY_MS).slice(0, 7);

/** Days of the series grouped by a key (year or month), from FIRST_YEAR to LAST_YEAR, in order. */
function groupBy(days: number[], key: (day: number) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const day of [...days].sort((a, b) => a - b)) {
    const year = Number(monthOf(day).slice(0, 4));
    if (year < FIRST_YEAR || year > LAST_YEAR) continue;
    groups.set(key(day), [...(groups.get(key(day)) ?? []), day]);
  }
  return groups;
}

/** A seeded draw of n of the days (a shuffle by the harness's mulberry32), the same on every run. */
function draw(days: number[], n: number, seed: number): number[] {
  const next = rng(seed);
  const pool = [...days];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, n).sort((a, b) => a - b);
}

function compare(series: Map<number, { fee: number }>): void {
  const ratio = (day: number) => feePriceUsd("btc", day) / series.get(day)!.fee;
  const score = (days: number[]) => {
    const r = days.map(ratio);
    const share = (k: number) => `${((100 * r.filter((x) => Math.max(x, 1 / x) <= k).length) / r.length).toFixed(0)} %`.padEnd(7);
    return `${String(days.length).padEnd(6)}${share(1.5)}${share(2)}${median(r).toFixed(2)}x`;
  };
  process.stdout.write(`year  ${"every day: n  ≤1.5x  ≤2x  median".padEnd(34)}random 60: n  ≤1.5x  ≤2x  median\n`);
  const all: number[] = [];
  const picked: number[] = [];
  for (const [year, days] of groupBy([...series.keys()], (d) => monthOf(d).slice(0, 4))) {
    const some = draw(days, 60, Number(year));
    all.push(...days);
    picked.push(...some);
    process.stdout.write(`${year}  ${score(days).padEnd(34)}${score(some)}\n`);
  }
  process.stdout.write(`all   ${score(all).padEnd(34)}${score(picked)}\n`);
  const off: string[] = [];
  for (const [month, days] of groupBy([...series.keys()], monthOf)) {
    const r = median(days.map((d) => feePriceUsd("btc", d))) / median(days.map((d) => series.get(d)!.fee));
    if (Math.max(r, 1 / r) > 1.25) off.push(`${month} ${r.toFixed(2)}x`);
  }
  process.stdout.write(`months whose median is off by more than 1.25x: ${off.join(", ") || "none"}\n`);
}

function levels(series: Map<number, { fee: number; source: number }>): void {
  const file = JSON.parse(readFileSync(ANCHORS, "utf8")) as AnchorFile;
  const fees = file.fees as Record<string, Array<[string, number, number]> | string>;
  const rows = (fees.btc as Array<[string, number, number]>).filter(([date]) => Number(date.slice(0, 4)) < FIRST_YEAR);
  for (const [month, days] of groupBy([...series.keys()], monthOf)) {
    if (days.length < 20) continue;
    // The month's source is the file that gives most of its days.
    const source = median(days.map((d) => series.get(d)!.source));
    if (source < 0) throw new Error(`${month}: name each file's source index (FILE.csv:SOURCE)`);
    rows.push([`${month}-15`, Number(median(days.map((d) => series.get(d)!.fee)).toPrecision(3)), source]);
  }
  fees.about = ABOUT;
  fees.btc = rows;
  writeFileSync(ANCHORS, serialize(file));
  process.stdout.write(
    `${rows.length} BTC fee levels written, ${rows.filter(([d]) => Number(d.slice(0, 4)) >= FIRST_YEAR).length} of them monthly\n`,
  );
}

const [command, ...args] = process.argv.slice(2);
if (command === "compare" && args.length) compare(readSeries(args));
else if (command === "levels" && args.length) levels(readSeries(args));
else throw new Error("usage: tsx scripts/fee-check.ts compare FILE.csv... | levels FILE.csv:SOURCE...");
