// Co-movement: coins move with BTC as the market does (daily and hourly), majors with each other
// more than BTC alone explains, exchange tokens with buyback support barely, pegged tokens not at all.
import { dailyLogPrice, priceAt } from "../../src/backend/inprocess/world/market/price.js";
import { REFERENCE_TICKERS } from "../../src/backend/inprocess/world/market/reference.js";
import { profileOf } from "../../src/backend/inprocess/world/profiles.js";
import { DAY_MS } from "../../src/catalog/index.js";
import { type Check, fmt, REF } from "./common.js";

const dayOf = (iso: string) => Math.round(Date.parse(iso) / DAY_MS);
const FROM = dayOf("2021-01-01");
const HOUR = 3_600_000;

function pearson(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) [ma, mb] = [ma + a[i]!, mb + b[i]!];
  [ma, mb] = [ma / n, mb / n];
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]! - ma;
    const y = b[i]! - mb;
    [ab, aa, bb] = [ab + x * y, aa + x * x, bb + y * y];
  }
  return ab / Math.sqrt(aa * bb);
}

/** Daily log returns from the day after `from` through the reference day. */
function dailyReturns(asset: string, from: number): number[] {
  const out: number[] = [];
  for (let d = from + 1; d <= REF; d++) out.push(dailyLogPrice(asset, d) - dailyLogPrice(asset, d - 1));
  return out;
}

function hourlyReturns(asset: string, fromDay: number, toDay: number): number[] {
  const out: number[] = [];
  let prev = Math.log(priceAt(asset, fromDay * DAY_MS));
  for (let t = fromDay * DAY_MS + HOUR; t <= toDay * DAY_MS; t += HOUR) {
    const v = Math.log(priceAt(asset, t));
    out.push(v - prev);
    prev = v;
  }
  return out;
}

/** The largest coins that trade as markets (not pegged, gold or yield-bearing), by reference cap. */
function largestAlts(n: number): string[] {
  const cap = (t: string) => profileOf(t).refPrice * profileOf(t).refSupply;
  return REFERENCE_TICKERS.filter((t) => {
    const p = profileOf(t);
    return t !== "btc" && t !== "eth" && p.base === t && p.model === "alt" && p.sigma >= 0.01 && p.inceptionDay < REF - 365;
  })
    .sort((a, b) => cap(b) - cap(a))
    .slice(0, n);
}

interface Bound {
  a: string;
  b: string;
  lo: number;
  hi: number;
}

function within(rows: Array<Bound & { r: number }>): { ok: boolean; worst: string } {
  const bad = rows.filter((x) => !(x.r >= x.lo && x.r <= x.hi));
  const show = (x: Bound & { r: number }) => `${x.a}–${x.b} ${fmt(x.r, 2)}`;
  const sorted = [...rows].sort((x, y) => x.r - y.r);
  const all = `lowest ${show(sorted[0]!)}, highest ${show(sorted.at(-1)!)}; all: ${rows.map(show).join(", ")}`;
  return { ok: bad.length === 0, worst: bad.length ? `outside bounds: ${bad.map(show).join(", ")}` : all };
}

export const dailyCorrelation: Check = {
  id: "correlation-daily",
  group: "calibration",
  claim:
    "daily log returns 2021–2025 correlate with BTC's as the market's do: ETH in [0.7, 0.9], each of the 20 largest other coins in [0.45, 0.9] but exchange tokens held up by buybacks (LEO in [0.1, 0.4], OKB in [0.3, 0.6]), pegged and gold tokens in [−0.15, 0.15]",
  run() {
    const rows: Array<Bound & { r: number }> = [];
    const pair = (b: string, lo: number, hi: number) => {
      const from = Math.max(FROM, profileOf(b).inceptionDay);
      rows.push({ a: "btc", b, lo, hi, r: pearson(dailyReturns("btc", from), dailyReturns(b, from)) });
    };
    const exchangeTokens: Record<string, [number, number]> = { leo: [0.1, 0.4], okb: [0.3, 0.6] };
    pair("eth", 0.7, 0.9);
    for (const t of largestAlts(20)) pair(t, ...(exchangeTokens[t] ?? [0.45, 0.9]));
    for (const t of Object.keys(exchangeTokens)) if (!rows.some((r) => r.b === t)) pair(t, ...exchangeTokens[t]!);
    for (const t of ["usdt", "usdc", "paxg"]) pair(t, -0.15, 0.15);
    const { ok, worst } = within(rows);
    return { ok, checked: `${rows.length} pairs with BTC, daily from 2021-01-01 (or listing) to the reference day`, worst };
  },
};

/** Daily log returns of two coins over [from, REF], from the later listing on. */
function pairReturns(a: string, b: string, from: number): [number[], number[]] {
  const start = Math.max(from, profileOf(a).inceptionDay, profileOf(b).inceptionDay);
  return [dailyReturns(a, start), dailyReturns(b, start)];
}

export const altCorrelation: Check = {
  id: "correlation-alts",
  group: "calibration",
  claim:
    "daily log returns 2022–2025 of majors correlate with each other as the market's do (ETH–SOL, ETH–BNB, ETH–XRP, ETH–LINK, SOL–XRP in [0.65, 0.9]), and meme coins with each other (DOGE–SHIB, DOGE–PEPE in [0.65, 0.9]), above what their BTC correlations alone give; the median pair of the 20 largest other coins in [0.4, 0.7]",
  run() {
    const from = dayOf("2022-01-01");
    const rows: Array<Bound & { r: number }> = [];
    const viaBtc: string[] = [];
    let belowBtc = 0;
    for (const [a, b] of [
      ["eth", "sol"],
      ["eth", "bnb"],
      ["eth", "xrp"],
      ["eth", "link"],
      ["sol", "xrp"],
      ["doge", "shib"],
      ["doge", "pepe"],
    ] as const) {
      const [ra, rb] = pairReturns(a, b, from);
      const r = pearson(ra, rb);
      rows.push({ a, b, lo: 0.65, hi: 0.9, r });
      // What BTC alone explains: the product of the two coins' correlations with it.
      const [btcA, xa] = pairReturns("btc", a, from);
      const [btcB, xb] = pairReturns("btc", b, from);
      const implied = pearson(btcA, xa) * pearson(btcB, xb);
      viaBtc.push(`${a}–${b} via BTC ${fmt(implied, 2)}`);
      if (!(r > implied + 0.1)) belowBtc++;
    }
    const alts = largestAlts(20).filter((t) => t !== "leo" && t !== "okb");
    const rs: number[] = [];
    for (let i = 0; i < alts.length; i++)
      for (let j = i + 1; j < alts.length; j++) rs.push(pearson(...pairReturns(alts[i]!, alts[j]!, from)));
    rs.sort((x, y) => x - y);
    const med = rs[Math.floor(rs.length / 2)]!;
    rows.push({ a: "median pair", b: `${alts.length} alts`, lo: 0.4, hi: 0.7, r: med });
    const { ok, worst } = within(rows);
    return {
      ok: ok && belowBtc === 0,
      checked: `${rows.length - 1} major and meme pairs and ${rs.length} pairs of the largest alts, daily 2022-01-01 to the reference day`,
      worst: `${worst}; ${belowBtc} pairs not above their BTC-implied level (${viaBtc.join(", ")})`,
    };
  },
};

export const hourlyCorrelation: Check = {
  id: "correlation-hourly",
  group: "calibration",
  claim:
    "hourly log returns over November 2025 correlate as daily ones do: BTC–ETH in [0.7, 0.9], BTC with SOL, XRP, DOGE in [0.45, 0.9], BTC–USDT in [−0.15, 0.15]",
  run() {
    const [from, to] = [dayOf("2025-11-01"), dayOf("2025-12-01")];
    const btc = hourlyReturns("btc", from, to);
    const bounds: Bound[] = [
      { a: "btc", b: "eth", lo: 0.7, hi: 0.9 },
      { a: "btc", b: "sol", lo: 0.45, hi: 0.9 },
      { a: "btc", b: "xrp", lo: 0.45, hi: 0.9 },
      { a: "btc", b: "doge", lo: 0.45, hi: 0.9 },
      { a: "btc", b: "usdt", lo: -0.15, hi: 0.15 },
    ];
    const { ok, worst } = within(bounds.map((x) => ({ ...x, r: pearson(btc, hourlyReturns(x.b, from, to)) })));
    return { ok, checked: `${bounds.length} pairs, ${btc.length} hourly returns each`, worst };
  },
};
