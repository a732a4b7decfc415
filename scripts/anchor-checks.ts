// The checks of the market's reference anchors (anchors.json): the findings on a stored entry and on the
// calendar rows, and the month, spike, supply and cap rules a merge applies to a part file's entry.
import type { AnchorEntry } from "../src/backend/inprocess/world/market/reference.js";
import { isVenue } from "../src/catalog/index.js";
import type { AnchorFile } from "./anchor-file.js";

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const ALGORITHMS = new Set(["sha256", "scrypt", "x11", "equihash", "randomx", "etchash", "kheavyhash", "blake3", "other-pow"]);
export const PEGS = new Set(["usd", "eur", "gold"]);
/** The month of the reference day: nothing is anchored after it. */
export const END_MONTH = "2025-12";

/** A finding: an error is what a merge fixes or refuses; "check" is printed for review. */
export interface Finding {
  level: "error" | "check";
  text: string;
}

const monthsBetween = (a: string, b: string) => {
  const [ya, ma] = a.split("-").map(Number);
  const [yb, mb] = b.split("-").map(Number);
  return (yb! - ya!) * 12 + (mb! - ma!);
};
export const positive = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

/** Months of a series that are malformed, not positive, before the listing (closes) or after the end: each with why. */
export function badMonths(
  ticker: string,
  label: string,
  series: Record<string, number>,
  listedMonth: string,
  endMonth: string,
): Map<string, string> {
  const bad = new Map<string, string>();
  for (const [month, value] of Object.entries(series)) {
    if (!MONTH.test(month)) bad.set(month, `${ticker}: ${label} ${month} is not a month`);
    else if (!positive(value)) bad.set(month, `${ticker}: ${label} ${month} = ${value} is not a positive number`);
    else if (label === "close" && month < listedMonth) bad.set(month, `${ticker}: close ${month} precedes the listing (${listedMonth})`);
    else if (month > endMonth) bad.set(month, `${ticker}: ${label} ${month} is after ${endMonth}`);
  }
  return bad;
}

/**
 * Closes that jump by more than `limit`× from both neighbours in opposite directions (a typo, not a
 * market: 8× for a market, 1.5× for a pegged token), and month-to-month moves over 100× (kept:
 * real listings can do 10×, review anything beyond).
 */
export function spikes(
  ticker: string,
  closes: Record<string, number>,
  peg: string | undefined,
): { spikes: Map<string, string>; moves: string[] } {
  const months = Object.keys(closes)
    .filter((m) => MONTH.test(m) && positive(closes[m]))
    .sort();
  const limit = peg ? 1.5 : 8;
  const found = new Map<string, string>();
  for (let i = 1; i < months.length - 1; i++) {
    const [a, b, c] = [closes[months[i - 1]!]!, closes[months[i]!]!, closes[months[i + 1]!]!];
    if (monthsBetween(months[i - 1]!, months[i]!) !== 1 || monthsBetween(months[i]!, months[i + 1]!) !== 1) continue;
    const up = b / a;
    const back = b / c;
    if ((up > limit && back > limit) || (up < 1 / limit && back < 1 / limit)) {
      found.set(months[i]!, `${ticker}: close ${months[i]} = ${b} jumps ${up.toPrecision(3)}× and back (${a} → ${b} → ${c})`);
    }
  }
  const kept = months.filter((m) => !found.has(m));
  const moves: string[] = [];
  for (let i = 1; i < kept.length; i++) {
    const r = closes[kept[i]!]! / closes[kept[i - 1]!]!;
    if (monthsBetween(kept[i - 1]!, kept[i]!) === 1 && (r > 100 || r < 0.01))
      moves.push(`${ticker}: close ${kept[i - 1]} → ${kept[i]} moves ${r.toPrecision(3)}×`);
  }
  return { spikes: found, moves };
}

/** The reference price far from the last close of 2025's second half (review only). */
export function refVsClose(
  ticker: string,
  price: number,
  closes: Record<string, number>,
  delisted: string | undefined,
): string | undefined {
  const last = Object.entries(closes)
    .filter(([m]) => MONTH.test(m))
    .sort(([a], [b]) => a.localeCompare(b))
    .at(-1);
  if (!last || delisted || last[0] < "2025-06") return undefined;
  const r = price / last[1];
  return r > 4 || r < 0.25 ? `${ticker}: reference price ${price} is ${r.toPrecision(3)}× the ${last[0]} close ${last[1]}` : undefined;
}

/** The last supply point more than 5× from the reference supply: the path cannot be right. */
export function supplyFar(ticker: string, supply: Record<string, number>, refSupply: number): string | undefined {
  const last = Object.entries(supply)
    .filter(([m]) => MONTH.test(m))
    .sort(([a], [b]) => a.localeCompare(b))
    .at(-1);
  if (!last || !(last[1] / refSupply > 5 || refSupply / last[1] > 5)) return undefined;
  return `${ticker}: supply ${last[0]} = ${last[1]} vs reference ${refSupply}`;
}

/** A market cap above a trillion USD for anything but BTC, a pegged or a dead token (review only). */
export function capHigh(
  ticker: string,
  price: number,
  refSupply: number,
  peg: string | undefined,
  delisted: string | undefined,
): string | undefined {
  const cap = price * refSupply;
  return !peg && !delisted && ticker !== "btc" && cap > 1e12
    ? `${ticker}: market cap ${cap.toPrecision(3)} USD is above a trillion`
    : undefined;
}

/** Every finding on a stored entry. */
export function checkEntry(ticker: string, e: AnchorEntry, sourceCount: number): Finding[] {
  const out: Finding[] = [];
  const error = (text: string) => out.push({ level: "error", text });
  const check = (text: string | undefined) => text && out.push({ level: "check", text });
  if (ticker !== ticker.toLowerCase()) error(`${ticker}: ticker is not lowercase`);
  if (typeof e.name !== "string" || !e.name) error(`${ticker}: no name`);
  if (!DATE.test(e.listed ?? "")) error(`${ticker}: listing date ${e.listed} is not a date`);
  if (e.delisted !== undefined && (!DATE.test(e.delisted) || e.delisted < e.listed))
    error(`${ticker}: delisting date ${e.delisted} is not a date after the listing`);
  if (!Array.isArray(e.ref) || !positive(e.ref[0]) || !positive(e.ref[1])) {
    error(`${ticker}: no reference price and supply`);
    return out;
  }
  const endMonth = e.delisted ? e.delisted.slice(0, 7) : END_MONTH;
  for (const text of badMonths(ticker, "close", e.closes ?? {}, (e.listed ?? "").slice(0, 7), endMonth).values()) error(text);
  for (const text of badMonths(ticker, "supply", e.supply ?? {}, "0000-00", END_MONTH).values()) error(text);
  const { spikes: found, moves } = spikes(ticker, e.closes ?? {}, e.peg);
  for (const text of found.values()) error(text);
  moves.forEach(check);
  const far = supplyFar(ticker, e.supply ?? {}, e.ref[1]);
  if (far) error(far);
  check(refVsClose(ticker, e.ref[0], e.closes ?? {}, e.delisted));
  check(capHigh(ticker, e.ref[0], e.ref[1], e.peg, e.delisted));
  if (e.maxSupply !== undefined && !positive(e.maxSupply)) error(`${ticker}: maxSupply ${e.maxSupply} is not a positive number`);
  else if (e.maxSupply !== undefined) {
    // The maximum is today's: burns (SHIB 2021, OKB 2025) lowered it under earlier supply.
    if (e.ref[1] > e.maxSupply * 1.001) error(`${ticker}: reference supply ${e.ref[1]} is above the maximum supply ${e.maxSupply}`);
    const over = Object.entries(e.supply ?? {}).filter(([, v]) => v > e.maxSupply! * 1.001);
    if (over.length)
      check(`${ticker}: supply above today's maximum ${e.maxSupply} (${over.map(([m, v]) => `${m} ${v}`).join(", ")}): a burn since?`);
  }
  if (e.peg === "usd") {
    const off = Object.entries(e.closes ?? {}).filter(([, v]) => Math.abs(v - 1) > 0.03);
    if (off.length) check(`${ticker}: USD-pegged closes off the peg by more than 3 % (${off.map(([m, v]) => `${m} ${v}`).join(", ")})`);
  }
  if (e.mined !== undefined && !ALGORITHMS.has(e.mined)) error(`${ticker}: unknown mining algorithm "${e.mined}"`);
  if (e.minedUntil !== undefined && !DATE.test(e.minedUntil)) error(`${ticker}: minedUntil ${e.minedUntil} is not a date`);
  if (e.peg !== undefined && !PEGS.has(e.peg)) error(`${ticker}: unknown peg "${e.peg}"`);
  if (!["high", "medium", "low"].includes(e.confidence)) error(`${ticker}: confidence "${e.confidence}" is not high, medium or low`);
  if (!Array.isArray(e.sources) || e.sources.some((i) => !Number.isInteger(i) || i < 0 || i >= sourceCount))
    error(`${ticker}: a source index is outside the file's sources`);
  return out;
}

/** Where each calendar section's rows name their source: the index of a row's source, or a row's list of sources. */
const CALENDAR_SOURCE: Record<string, number | "sources"> = {
  fees: 2,
  congestion: "sources",
  difficulty: 2,
  hashrate: 2,
  highs: 2,
  closes: 2,
  ranges: 3,
  lows: 2,
  atls: 2,
  peaks: 2,
  depegs: 2,
  supply: 2,
  reserves: 2,
  flows: "sources",
};

/** Every calendar row is dated and names a source of the file. */
function checkCalendar(file: AnchorFile): Finding[] {
  const findings: Finding[] = [];
  const sections = file as unknown as Record<string, Record<string, unknown>>;
  for (const [section, at] of Object.entries(CALENDAR_SOURCE)) {
    for (const [asset, rows] of Object.entries(sections[section] ?? {})) {
      if (!Array.isArray(rows)) continue;
      rows.forEach((row: unknown, i: number) => {
        const r = row as Record<string | number, unknown>;
        const date = String(Array.isArray(row) ? row[0] : (r.peak ?? r.from));
        const sources = at === "sources" ? (r.sources as unknown[]) : [r[at]];
        const bad =
          !Array.isArray(sources) ||
          sources.length === 0 ||
          sources.some((x) => !Number.isInteger(x) || (x as number) < 0 || (x as number) >= file.sources.length);
        if (!/^\d{4}-\d{2}(-\d{2})?/.test(date)) findings.push({ level: "error", text: `${section}.${asset}[${i}]: no date` });
        if (bad)
          findings.push({ level: "error", text: `${section}.${asset}[${i}] (${date}): a source index is outside the file's sources` });
      });
    }
  }
  return findings;
}

/** The dated flows: a coin of the file, a catalog venue, from ≤ to, and one amount (native or USD) that is not zero. */
function checkFlows(file: AnchorFile): Finding[] {
  const findings: Finding[] = [];
  for (const [coin, rows] of Object.entries((file.flows ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(rows)) continue;
    if (!file.assets[coin]) findings.push({ level: "error", text: `flows.${coin}: no such asset` });
    rows.forEach((row: { from?: string; to?: string; venue?: string; native?: number; usd?: number }, i: number) => {
      const error = (text: string) => findings.push({ level: "error", text: `flows.${coin}[${i}] (${row.from}): ${text}` });
      if (!isVenue(row.venue ?? "")) error(`"${row.venue}" is not a venue of the catalog`);
      if (!DATE.test(row.to ?? "") || (row.from ?? "") > (row.to ?? "")) error(`to ${row.to} is not a date on or after from`);
      const amounts = [row.native, row.usd].filter((x) => x !== undefined);
      if (amounts.length !== 1 || !Number.isFinite(amounts[0]) || amounts[0] === 0) error("give one non-zero amount, native or usd");
    });
  }
  return findings;
}

/** The published exchange totals: a coin whose reserve the market pins (BTC, ETH), days in order, positive totals. */
function checkReserves(file: AnchorFile): Finding[] {
  const findings: Finding[] = [];
  for (const [coin, rows] of Object.entries((file.reserves ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(rows)) continue;
    if (coin !== "btc" && coin !== "eth")
      findings.push({ level: "error", text: `reserves.${coin}: only BTC's and ETH's totals are pinned` });
    rows.forEach((row: unknown[], i: number) => {
      const error = (text: string) => findings.push({ level: "error", text: `reserves.${coin}[${i}] (${String(row[0])}): ${text}` });
      if (!DATE.test(String(row[0])) || (i > 0 && String(row[0]) <= String((rows[i - 1] as unknown[])[0])))
        error("not a date after the row before");
      if (!positive(row[1])) error("the total is not a positive number");
    });
  }
  return findings;
}

/** The weekly closes: each coin's first day a Sunday, a source of the file, positive closes and whole-percent bands of the same length. */
function checkWeeks(file: AnchorFile): Finding[] {
  const findings: Finding[] = [];
  const error = (text: string) => findings.push({ level: "error", text });
  for (const [coin, w] of Object.entries((file.weeks ?? {}) as Record<string, unknown>)) {
    if (coin === "about") continue;
    const e = w as { from?: string; source?: number; closes?: unknown[]; below?: unknown[]; above?: unknown[] };
    if (!file.assets[coin]) error(`weeks.${coin}: no such asset`);
    if (!DATE.test(e.from ?? "") || new Date(`${e.from}T00:00:00Z`).getUTCDay() !== 0)
      error(`weeks.${coin}: from ${e.from} is not a Sunday`);
    if (!Number.isInteger(e.source) || e.source! < 0 || e.source! >= file.sources.length)
      error(`weeks.${coin}: the source index is outside the file's sources`);
    const closes = e.closes ?? [];
    if (!closes.length || closes.some((c) => !positive(c))) error(`weeks.${coin}: closes are not all positive numbers`);
    for (const band of ["below", "above"] as const) {
      const list = e[band] ?? [];
      if (list.length !== closes.length || list.some((v) => !Number.isInteger(v) || (v as number) < 0))
        error(`weeks.${coin}: ${band} is not one whole percent per week`);
    }
    const entry = file.assets[coin];
    if (entry && e.from && e.from < entry.listed) error(`weeks.${coin}: the first Sunday ${e.from} precedes the listing (${entry.listed})`);
  }
  return findings;
}

/** A coin's Sunday closes as [day, close] (the file's weekly closes from their first Sunday). */
function sundayCloses(week: { from?: string; closes?: number[] } | undefined): Array<readonly [string, number]> {
  if (!week?.from) return [];
  const first = Date.parse(`${week.from}T00:00:00Z`);
  return (week.closes ?? []).map((c, k) => [new Date(first + 7 * k * 86_400_000).toISOString().slice(0, 10), c] as const);
}

/**
 * The all-time lows: each of a listed asset, printed on or after its listing and held until a day not
 * before it, and above every close and low the file gives the coin until then (month-end, dated and
 * Sunday closes; the lows of crash days and years, and another low of its own day): the daily path
 * could not both pass that close or low and stay above the all-time low.
 */
function checkAllTimeLows(file: AnchorFile): Finding[] {
  const findings: Finding[] = [];
  const sections = file as unknown as Record<string, Record<string, unknown>>;
  for (const [coin, rows] of Object.entries((file.atls ?? {}) as Record<string, unknown>)) {
    if (coin === "about" || !Array.isArray(rows)) continue;
    const entry = file.assets[coin];
    if (!entry) findings.push({ level: "error", text: `atls.${coin}: no such asset` });
    const dated = ((sections.closes?.[coin] ?? []) as Array<[string, number]>).map(([d, c]) => [d, c] as const);
    const sundays = sundayCloses(sections.weeks?.[coin] as { from?: string; closes?: number[] } | undefined);
    const lows = ((sections.lows?.[coin] ?? []) as Array<[string, number]>).map(([t, v]) => [String(t), v] as const);
    for (const row of rows as unknown[][]) {
      const [instant, low, , held] = row as [string, unknown, unknown, string];
      const day = String(instant).slice(0, 10);
      const error = (text: string) => findings.push({ level: "error", text: `atls.${coin} ${instant}: ${text}` });
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(String(instant))) error("not a UTC minute");
      if (!positive(low)) error("the low is not a positive number");
      if (!DATE.test(String(held)) || held < day) error(`held until ${held}, before the low`);
      if (entry && day < entry.listed) error(`before the listing (${entry.listed})`);
      if (!positive(low)) continue;
      const list = (xs: ReadonlyArray<readonly [string, number]>) => xs.map(([d, c]) => `${d} ${c}`).join(", ");
      // The low holds from the listing: a month-end close before the month it still held in cannot be under it.
      const under = Object.entries(entry?.closes ?? {}).filter(([m, c]) => m < String(held).slice(0, 7) && c < low);
      if (under.length) error(`month-end closes under the low it held (${list(under)})`);
      const closes = [...dated, ...sundays].filter(([d, c]) => d <= held && c < low);
      if (closes.length) error(`closes under the low it held (${list(closes)})`);
      // A crash day's low prints on its day, so none until the held day may go under it, nor another on its own day.
      const wicks = lows.filter(([t, v]) => t.slice(0, 10) <= held && (v < low * 0.9999 || (t.slice(0, 10) === day && v > low * 1.01)));
      if (wicks.length) error(`lows of the calendar under it or on its day (${list(wicks)})`);
    }
  }
  return findings;
}

/**
 * The all-time highs: each of a listed asset, printed on or after its listing, and above every close
 * the file gives the coin (month-end, dated and Sunday closes): the path never trades above a high
 * that held, so a close over it could not be passed.
 */
function checkAllTimeHighs(file: AnchorFile): Finding[] {
  const findings: Finding[] = [];
  const sections = file as unknown as Record<string, Record<string, unknown>>;
  for (const [coin, rows] of Object.entries((file.highs ?? {}) as Record<string, unknown>)) {
    if (coin === "about" || !Array.isArray(rows)) continue;
    const entry = file.assets[coin];
    if (!entry) findings.push({ level: "error", text: `highs.${coin}: no such asset` });
    const week = sections.weeks?.[coin] as { from?: string; closes?: number[] } | undefined;
    const sundays = (week?.closes ?? []).map((c, k) => [`Sunday ${k} from ${week?.from}`, c] as const);
    const dated = ((sections.closes?.[coin] ?? []) as Array<[string, number]>).map(([d, c]) => [d, c] as const);
    const closes = [...Object.entries(entry?.closes ?? {}), ...dated, ...sundays];
    for (const [day, high] of rows as Array<[string, unknown]>) {
      if (!positive(high)) findings.push({ level: "error", text: `highs.${coin} ${day}: the high is not a positive number` });
      if (entry && String(day) < entry.listed)
        findings.push({ level: "error", text: `highs.${coin} ${day}: before the listing (${entry.listed})` });
      const over = closes.filter(([, c]) => positive(high) && c > high);
      if (over.length)
        findings.push({
          level: "error",
          text: `highs.${coin} ${day}: closes over the all-time high (${over.map(([m, c]) => `${m} ${c}`).join(", ")})`,
        });
    }
  }
  return findings;
}

/** Every finding on every entry and every calendar row of a file. */
export function checkFile(file: AnchorFile): Finding[] {
  return [
    ...Object.entries(file.assets).flatMap(([t, e]) => checkEntry(t, e, file.sources.length)),
    ...checkCalendar(file),
    ...checkWeeks(file),
    ...checkAllTimeLows(file),
    ...checkAllTimeHighs(file),
    ...checkFlows(file),
    ...checkReserves(file),
  ];
}
