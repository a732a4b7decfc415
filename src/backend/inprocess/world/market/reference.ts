// The reference anchors of the latent market (anchors.json, the record; scripts/market-anchors.ts checks it),
// read once into typed tables: listing dates, month-end closes, supply points, mining, host, peg.
import { isoDay } from "../../../../catalog/dates.js";
import { dayOf, REF_DAY } from "../levels.js";
import file from "./anchors.json" with { type: "json" };

/** One asset's entry in anchors.json (the fields scripts/market-anchors.ts checks and merges). */
export interface AnchorEntry {
  name: string;
  listed: string;
  delisted?: string;
  /** Month-end USD closes, "YYYY-MM" → close. */
  closes: Record<string, number>;
  /** [price USD, circulating supply] on the reference day (or the last traded day when delisted). */
  ref: [number, number];
  /** Month-end circulating supply, "YYYY-MM" → native units. */
  supply: Record<string, number>;
  maxSupply?: number;
  mined?: string;
  minedUntil?: string;
  host?: string;
  peg?: string;
  confidence: string;
  /** Indices into the file's `sources`. */
  sources: number[];
  /** Which part file the entry came from and what the merge corrected. */
  from?: string;
  notes?: string;
}

/** Days (since 1970-01-01) and natural logs of anchored values, ascending by day. */
export interface Points {
  days: Int32Array;
  logs: Float64Array;
}

export interface Reference {
  ticker: string;
  name: string;
  listedDay: number;
  /** Last day with trading (a dead or migrated token), when it ended. */
  delistedDay?: number;
  /** Month-end closes (USD) and the reference-day price. */
  closes: Points;
  refPrice: number;
  refSupply: number;
  /** Month-end circulating supply points (may be empty: the reference supply alone). */
  supply: Points;
  maxSupply?: number;
  /** Proof-of-work algorithm while mined. */
  mined?: string;
  minedUntilDay?: number;
  host?: string;
  peg?: "usd" | "eur" | "gold";
  /** True when closes are given for (nearly) every month: the calibrated majors. */
  monthly: boolean;
}

/** The reference day every "ref" figure is dated (levels.ts: BTC's last anchored close). */
export const REFERENCE_DATE = isoDay(REF_DAY * 86_400_000);

/** Last day of a "YYYY-MM" month. */
export function monthEndDay(month: string): number {
  const [y, m] = month.split("-").map(Number);
  return Math.round(Date.UTC(y!, m!, 0) / 86_400_000);
}

function points(entries: Array<[number, number]>): Points {
  entries.sort((a, b) => a[0] - b[0]);
  // One value per day: a later entry for the same day wins.
  const unique = entries.filter((e, i) => i === entries.length - 1 || entries[i + 1]![0] !== e[0]);
  return { days: Int32Array.from(unique, ([d]) => d), logs: Float64Array.from(unique, ([, v]) => Math.log(v)) };
}

function build(ticker: string, raw: AnchorEntry): Reference {
  const listedDay = dayOf(raw.listed);
  const delistedDay = raw.delisted ? dayOf(raw.delisted) : undefined;
  const lastDay = delistedDay ?? REF_DAY;
  const closeEntries: Array<[number, number]> = Object.entries(raw.closes)
    .map(([m, v]): [number, number] => [Math.max(listedDay, monthEndDay(m)), v])
    .filter(([d]) => d <= lastDay);
  // The reference price is dated on the reference day, or on the last traded day of a dead token.
  if (!closeEntries.some(([d]) => d === lastDay)) closeEntries.push([lastDay, raw.ref[0]]);
  const supplyEntries: Array<[number, number]> = Object.entries(raw.supply).map(([m, v]) => [Math.min(monthEndDay(m), REF_DAY), v]);
  if (!delistedDay) supplyEntries.push([REF_DAY, raw.ref[1]]);
  // Dated supply inside months (a mint or burn wave), from the calendar.
  for (const [d, v] of RAW.supply[ticker] ?? []) supplyEntries.push([dayOf(d), v]);
  const months = Object.keys(raw.closes).length;
  const span = Math.max(1, Math.round((lastDay - listedDay) / 30.44));
  const ref: Reference = {
    ticker,
    name: raw.name,
    listedDay,
    closes: points(closeEntries),
    refPrice: raw.ref[0],
    refSupply: raw.ref[1],
    supply: points(supplyEntries),
    monthly: months >= 0.8 * span && months >= 3,
  };
  if (delistedDay !== undefined) ref.delistedDay = delistedDay;
  if (raw.maxSupply) ref.maxSupply = raw.maxSupply;
  if (raw.mined) ref.mined = raw.mined;
  if (raw.minedUntil) ref.minedUntilDay = dayOf(raw.minedUntil);
  if (raw.host) ref.host = raw.host;
  if (raw.peg === "usd" || raw.peg === "eur" || raw.peg === "gold") ref.peg = raw.peg;
  return ref;
}

const RAW = file as unknown as {
  assets: Record<string, AnchorEntry>;
  supply: Record<string, Array<[string, number, number]>>;
};
const built = new Map<string, Reference>();

/** The reference of a base ticker, or undefined when the anchors name none. */
export function referenceOf(ticker: string): Reference | undefined {
  const hit = built.get(ticker);
  if (hit) return hit;
  const raw = RAW.assets[ticker];
  if (!raw) return undefined;
  const ref = build(ticker, raw);
  built.set(ticker, ref);
  return ref;
}

/** Every ticker the anchors describe. */
export const REFERENCE_TICKERS: readonly string[] = Object.keys(RAW.assets);
