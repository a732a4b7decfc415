// Coins on exchange wallets, venue by venue: each venue's custody share (weights that drift
// slowly), and the calendar's dated flows, which step one venue's holdings on their days and the
// total on exchanges with them.
import { type Venue, VENUES } from "../../../catalog/index.js";
import { gauss, hash2, valueNoise } from "../util/hash.js";
import { Memo } from "../util/memo.js";
import { reserveAnchorDays, reserveOf } from "./circulation.js";
import { lastAtOrBefore } from "./levels.js";
import { flowsOf } from "./market/calendar.js";
import { dailyPrice } from "./market/price.js";
import { type Profile, profileOf } from "./profiles.js";

/** Custody weights per venue (BTC: coinbase ~33 %, binance ~24 %, bitfinex ~13 %, …). */
const CUSTODY: Partial<Record<Venue, number>> = {
  coinbase: 33,
  binance: 24,
  bitfinex: 13,
  kraken: 5,
  okx: 5,
  bybit: 3,
  gemini: 4,
  bitstamp: 2,
  htx: 2,
  kucoin: 1.5,
  gate: 1.5,
  bitget: 1.5,
  upbit: 1.2,
  bithumb: 0.8,
  cryptocom: 1,
  bitflyer: 0.6,
  mexc: 0.5,
  deribit: 0.8,
  bitmex: 0.4,
  coinex: 0.2,
  bingx: 0.2,
  whitebit: 0.2,
  poloniex: 0.2,
  phemex: 0.1,
  bitmart: 0.2,
  lbank: 0.1,
  bullish: 0.3,
  bitso: 0.1,
  bitrue: 0.1,
  woo: 0.1,
  btse: 0.05,
};

const VENUE_INDEX = new Map<string, number>(VENUES.map((v, i) => [v, i]));
const SHARE_CHUNK = 128;
const shareCache = new Memo<string, Float64Array>(2048);

/** Normalized custody shares of every venue for a block of days (row-major: day, venue). */
function shareChunk(p: Profile, chunkIndex: number): Float64Array {
  const n = VENUES.length;
  const out = new Float64Array(SHARE_CHUNK * n);
  const major = p.model === "btc" || p.model === "eth";
  const bases = VENUES.map((venue, v) => (CUSTODY[venue] ?? 0) * (major ? 1 : Math.exp(0.6 * gauss(p.seed ^ 0x16, v))));
  for (let k = 0; k < SHARE_CHUNK; k++) {
    const day = chunkIndex * SHARE_CHUNK + k;
    let sum = 0;
    for (let v = 0; v < n; v++) {
      const w = bases[v]! === 0 ? 0 : bases[v]! * Math.exp(0.12 * valueNoise(hash2(p.seed, v), day, 40));
      out[k * n + v] = w;
      sum += w;
    }
    for (let v = 0; v < n; v++) out[k * n + v]! /= sum;
  }
  return out;
}

/** A venue's share of the reserve on a day before the dated flows: shares sum to 1 and drift slowly. */
function driftShare(asset: string, day: number, v: number): number {
  const p = profileOf(asset);
  const index = Math.floor(day / SHARE_CHUNK);
  const chunk = shareCache.getOr(`${p.base}|${index}`, () => shareChunk(p, index));
  return chunk[(day - index * SHARE_CHUNK) * VENUES.length + v]!;
}

/** A dated flow made ready: its venue, and how much of the venue's holdings it had moved by each of its days. */
interface Step {
  venue: number;
  from: number;
  to: number;
  /** Fraction of the venue's holdings on the eve of the flow moved by the end of day from + i (cumulative). */
  moved: Float64Array;
}

/** A venue's holdings are scaled by at least this much (a flow never empties a wallet below it). */
const FLOOR = 0.02;

const stepsCache = new Map<string, readonly Step[]>();

/**
 * The calendar's flows of a coin as steps, in date order. Each flow's native amount (a USD row at
 * each day's price) is taken as a fraction of its venue's holdings on the eve of the flow, earlier
 * flows included, so the venue's wallets step by the published amount and scale with the drift after.
 */
function stepsOf(asset: string): readonly Step[] {
  const hit = stepsCache.get(asset);
  if (hit) return hit;
  const steps: Step[] = [];
  for (const flow of flowsOf(asset)) {
    const venue = VENUE_INDEX.get(flow.venue);
    if (venue === undefined) throw new Error(`flows.${asset}: "${flow.venue}" is not a venue of the catalog`);
    const eve = flow.from - 1;
    const before = reserveOf(asset, eve) * driftShare(asset, eve, venue) * factorOf(steps, venue, eve);
    const days = flow.to - flow.from + 1;
    const moved = new Float64Array(days);
    let sum = 0;
    for (let i = 0; i < days; i++) {
      const native = flow.unit === "native" ? flow.amount / days : flow.amount / days / dailyPrice(asset, flow.from + i);
      sum += native / before;
      moved[i] = sum;
    }
    steps.push({ venue, from: flow.from, to: flow.to, moved });
  }
  stepsCache.set(asset, steps);
  return steps;
}

/** What the flows to the end of `day` scale a venue's holdings by (1 before its first flow). */
function factorOf(steps: readonly Step[], venue: number, day: number): number {
  let factor = 1;
  for (const s of steps) {
    if (s.venue !== venue || day < s.from) continue;
    factor *= Math.max(FLOOR, 1 + s.moved[Math.min(day, s.to) - s.from]!);
  }
  return factor;
}

/** Σ over venues with flows of share × (factor − 1): the flows' part of the total, relative to the drift alone. */
function excess(asset: string, steps: readonly Step[], day: number): number {
  let e = 0;
  const seen: number[] = [];
  for (const s of steps) {
    if (day < s.from || seen.includes(s.venue)) continue;
    seen.push(s.venue);
    e += driftShare(asset, day, s.venue) * (factorOf(steps, s.venue, day) - 1);
  }
  return e;
}

/**
 * The part of `excess` that the dated totals already hold (BTC's and ETH's reserves are pinned by
 * published totals, which include every flow). Until the first flow after a pinned day it is the
 * excess on that day; from the flow's day it moves in a straight line to the excess on the next
 * pinned day, so the total steps on the flow's days and the trend after it takes the step in
 * before the next published total; nothing moves before a flow.
 */
function pinned(asset: string, steps: readonly Step[], day: number): number {
  const days = reserveAnchorDays(asset);
  if (!days) return 0;
  const i = lastAtOrBefore(days, day);
  if (i < 0) return 0;
  const line = pinnedLine(asset, steps, days, i);
  return day < line.start ? line.at0 : line.at0 + ((line.at1 - line.at0) * (day - line.start)) / line.span;
}

/** The excess on pinned day i, and the line from the eve of its interval's first flow to the next pinned day. */
interface PinnedLine {
  at0: number;
  at1: number;
  start: number;
  span: number;
}

const lines = new Map<string, PinnedLine>();

function pinnedLine(asset: string, steps: readonly Step[], days: ArrayLike<number>, i: number): PinnedLine {
  const key = `${asset}|${i}`;
  const hit = lines.get(key);
  if (hit) return hit;
  const a0 = days[i]!;
  const at0 = excess(asset, steps, a0);
  const first = i + 1 < days.length ? steps.find((s) => s.from > a0 && s.from <= days[i + 1]!) : undefined;
  const line = first
    ? { at0, at1: excess(asset, steps, days[i + 1]!), start: first.from - 1, span: days[i + 1]! - first.from + 1 }
    : { at0, at1: at0, start: Infinity, span: 1 };
  lines.set(key, line);
  return line;
}

const FLOW_CHUNK = 128;
/** Per coin with flows (numeric keys: no string is built per day). */
const flowCaches = new Map<string, Memo<number, Float64Array>>();

/**
 * The flows' excess and the total's scale ((1 + excess) / (1 + pinned)) for a block of days after a
 * coin's first flow, interleaved, so a day costs a lookup however many flows the calendar holds.
 */
function flowTerms(asset: string, steps: readonly Step[], day: number): { excess: number; scale: number } {
  const index = Math.floor(day / FLOW_CHUNK);
  let cache = flowCaches.get(asset);
  if (!cache) flowCaches.set(asset, (cache = new Memo<number, Float64Array>(256)));
  const chunk = cache.getOr(index, () => {
    const out = new Float64Array(2 * FLOW_CHUNK);
    for (let k = 0; k < FLOW_CHUNK; k++) {
      const d = index * FLOW_CHUNK + k;
      const e = excess(asset, steps, d);
      out[2 * k] = e;
      out[2 * k + 1] = (1 + e) / (1 + pinned(asset, steps, d));
    }
    return out;
  });
  const k = day - index * FLOW_CHUNK;
  return { excess: chunk[2 * k]!, scale: chunk[2 * k + 1]! };
}

/** Native units on all exchange wallets at the end of a day, the dated flows included. */
export function exchangeTotal(asset: string, day: number): number {
  const base = reserveOf(asset, day);
  const steps = stepsOf(asset);
  if (steps.length === 0 || day < steps[0]!.from) return base;
  return base * flowTerms(asset, steps, day).scale;
}

/** Each entity's share of the exchange reserve on a day; shares sum to 1. */
export function entityShare(asset: string, day: number, entity: string): number {
  if (entity === "all") return 1;
  const v = VENUE_INDEX.get(entity);
  if (v === undefined) return 0;
  const share = driftShare(asset, day, v);
  const steps = stepsOf(asset);
  if (steps.length === 0 || day < steps[0]!.from) return share;
  return (share * factorOf(steps, v, day)) / (1 + flowTerms(asset, steps, day).excess);
}
