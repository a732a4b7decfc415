// The latent price path of each asset: daily closes (random access by day) and an intraday
// refinement. Everything USD-denominated in the synthetic world derives from it.
import { DAY_MS } from "../../../catalog/index.js";
import {
  BTC_PRICE, ETH_PRICE, GOLD_PRICE, REF_DAY, dayOf, interpolate, type AnchorTable,
} from "./anchors.js";
import { octaveNoise, s11, type Octave } from "./hash.js";
import { Memo } from "./memo.js";
import { profileOf, type Profile } from "./profiles.js";

/** Daily noise of a BTC-like path: fine octaves keep daily texture, coarse ones make swings. */
const DAILY_OCTAVES: readonly Octave[] = [
  { period: 150, amplitude: 0.15 }, { period: 45, amplitude: 0.09 }, { period: 14, amplitude: 0.05 },
  { period: 5, amplitude: 0.03 }, { period: 2, amplitude: 0.022 }, { period: 1, amplitude: 0.02 },
];

/** Intraday noise in minutes, pinned to 0 at day boundaries so daily closes stay exact. */
const INTRADAY_OCTAVES: readonly Octave[] = [
  { period: 360, amplitude: 0.011 }, { period: 90, amplitude: 0.006 }, { period: 30, amplitude: 0.0035 },
  { period: 8, amplitude: 0.0018 }, { period: 2, amplitude: 0.0008 },
];

/** Spacing of the synthetic anchors that continue a path past its last real one. */
const CONTINUATION_DAYS = 91;
/** Bound of the continuation around the last anchor (log units: about −30 % … +42 %). */
const CONTINUATION_RANGE = 0.35;

interface Ceiling {
  from: number;
  to: number;
  log: number;
}

/** All-time highs the noise must not overshoot (it is reflected below them). */
const CEILINGS: Record<string, Ceiling> = {
  btc: { from: dayOf("2024-12-18"), to: dayOf("2026-12-31"), log: Math.log(126_080) },
  eth: { from: dayOf("2024-12-18"), to: dayOf("2026-12-31"), log: Math.log(4_950) },
};

/** Anchored interpolation, continued past the last anchor by bounded hashed anchors. */
function anchoredLog(table: AnchorTable, seed: number, day: number): { log: number; distance: number } {
  const lastDay = table.days[table.days.length - 1]!;
  if (day <= lastDay) return interpolate(table, day);
  const lastLog = table.logs[table.logs.length - 1]!;
  const offset = (day - lastDay) / CONTINUATION_DAYS;
  const k = Math.floor(offset);
  const f = offset - k;
  const level = (i: number) => (i === 0 ? lastLog : lastLog + CONTINUATION_RANGE * s11(seed ^ 0x2545f491, i));
  const a = level(k);
  const b = level(k + 1);
  return { log: a + (b - a) * f, distance: Math.min(f, 1 - f) * CONTINUATION_DAYS };
}

/** Noise scale by era: early markets were wilder. */
function eraScale(day: number): number {
  return day < 16_800 ? 1.6 : day < 17_900 ? 1.25 : 1; // before 2016, before 2019
}

function anchoredPath(table: AnchorTable, profile: Profile, day: number, scale: number): number {
  const { log, distance } = anchoredLog(table, profile.seed, day);
  let value = log + scale * eraScale(day) * octaveNoise(profile.seed, day, DAILY_OCTAVES, distance);
  const ceiling = CEILINGS[profile.base];
  if (ceiling && day >= ceiling.from && day <= ceiling.to && value > ceiling.log) value = 2 * ceiling.log - value;
  return value;
}

let btcRefLog: number | undefined;

/** Natural log of the daily close (USD) of an asset on a day (days since 1970-01-01). */
export function dailyLogPrice(asset: string, day: number): number {
  // Memoized in chunks of days: every generator reads the same few thousand closes repeatedly.
  const key = Math.floor(day / CHUNK_DAYS);
  // Callers walk days in order: the last chunk answers almost every call without building the
  // memo's string key and closure (tens of MB of garbage per heatmap otherwise).
  if (key === lastKey && asset === lastAsset) return lastChunk[day - key * CHUNK_DAYS]!;
  const chunk = logCache.getOr(`${asset}|${key}`, () => {
    const out = new Float64Array(CHUNK_DAYS);
    for (let i = 0; i < CHUNK_DAYS; i++) out[i] = computeLogPrice(asset, key * CHUNK_DAYS + i);
    return out;
  });
  lastAsset = asset;
  lastKey = key;
  lastChunk = chunk;
  return chunk[day - key * CHUNK_DAYS]!;
}

let lastAsset = "";
let lastKey = NaN;
let lastChunk: Float64Array = new Float64Array(0);

const CHUNK_DAYS = 256;
const logCache = new Memo<string, Float64Array>(8192);

function computeLogPrice(asset: string, day: number): number {
  const profile = profileOf(asset);
  switch (profile.model) {
    case "btc":
      return anchoredPath(BTC_PRICE, profile, day, 1);
    case "eth":
      return anchoredPath(ETH_PRICE, profile, day, 1.15);
    case "gold":
      return anchoredPath(GOLD_PRICE, profile, day, 0.2);
    case "stable":
      return stableLog(profile, day);
    default:
      return altLog(profile, day);
  }
}

function stableLog(profile: Profile, day: number): number {
  const base = Math.log(profile.refPrice);
  // Yield-bearing wrappers accrue about 8 %/yr up to the reference day; a euro coin floats with FX.
  const accrual = profile.refPrice > 1.1 && profile.base !== "eurc" ? Math.max(-base, -0.08 * (REF_DAY - day) / 365) : 0;
  const amplitude = profile.base === "eurc" ? 0.6 : 0.012;
  return base + accrual + amplitude * octaveNoise(profile.seed, day, STABLE_OCTAVES);
}

const STABLE_OCTAVES: readonly Octave[] = [
  { period: 60, amplitude: 0.05 }, { period: 7, amplitude: 0.03 }, { period: 1, amplitude: 0.03 },
];

/** Idiosyncratic anchors of an alt every ~4 months, log amplitude scaled by its volatility. */
const ALT_ANCHOR_DAYS = 120;

function altIdio(profile: Profile, day: number): number {
  const offset = day / ALT_ANCHOR_DAYS;
  const k = Math.floor(offset);
  const f = offset - k;
  const amplitude = 0.35 * profile.vol;
  const a = amplitude * s11(profile.seed ^ 0x68e31da4, k);
  const b = amplitude * s11(profile.seed ^ 0x68e31da4, k + 1);
  const distance = Math.min(f, 1 - f) * ALT_ANCHOR_DAYS;
  return a + (b - a) * f + 0.6 * profile.vol * octaveNoise(profile.seed, day, DAILY_OCTAVES, distance + 200);
}

const altRef = new Memo<string, number>(2048);

function altLog(profile: Profile, day: number): number {
  if (btcRefLog === undefined) btcRefLog = dailyLogPrice("btc", REF_DAY);
  const ref = altRef.getOr(profile.base, () => altIdio(profile, REF_DAY));
  const btc = dailyLogPrice("btc", day) - btcRefLog;
  return Math.log(profile.refPrice) + profile.beta * btc + altIdio(profile, day) - ref;
}

/** Daily close (USD). */
export function dailyPrice(asset: string, day: number): number {
  return Math.exp(dailyLogPrice(asset, day));
}

/**
 * Price at an instant: the log path runs linearly from the previous day's close (at 00:00) to the
 * day's close (at 24:00), plus intraday noise that vanishes at both ends.
 */
export function priceAt(asset: string, ms: number): number {
  const profile = profileOf(asset);
  const day = Math.floor(ms / DAY_MS);
  const f = (ms - day * DAY_MS) / DAY_MS;
  const a = dailyLogPrice(asset, day - 1);
  if (f === 0) return Math.exp(a);
  const b = dailyLogPrice(asset, day);
  const minute = ms / 60_000;
  const pin = Math.min(f, 1 - f) * 1440;
  const scale = profile.model === "stable" ? 0.01 : profile.vol * eraScale(day);
  return Math.exp(a + (b - a) * f + scale * octaveNoise(profile.seed ^ 0x1b873593, minute, INTRADAY_OCTAVES, pin));
}
