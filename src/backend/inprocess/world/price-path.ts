// The latent price of each asset: daily closes (random access by day) on its base ticker's
// anchored path, and the minute path under them. Everything USD-denominated derives from it.
import { DAY_MS } from "../../../catalog/index.js";
import {
  BTC_PRICE, ETH_PRICE, EURUSD, GOLD_PRICE, REF_DAY, dayOf, type AnchorTable,
} from "./anchors.js";
import { octaveNoise, seedOf, type Octave } from "../util/hash.js";
import { DailyPath, type PathSpec } from "./market/path.js";
import { ALT_FACTOR_SEED, loadingsOf, MinuteFactor, type Loadings } from "./market/factor.js";
import { candleOf, priceAtInstant, type IntradaySource, type Ohlc } from "./market/intraday.js";
import { closesOf, depegOf, highsOf, lowsOf, rangesOf } from "./market/calendar.js";
import { monthEndDay, type Points } from "./market/reference.js";
import { profileOf, type Profile } from "./profiles.js";

/**
 * The highest price the market printed (intraday, USD) over each span of days: every all-time high
 * bounds the days from the previous row to it, and the last one the days since; a repeated figure
 * is an all-time high that held until that day (the day before the market first went above it).
 * No close, minute or wick of the path goes above the span's figure (the daily path is reflected
 * below it, the minute path too, and wicks stop at it). Figures are CoinGecko's aggregate all-time
 * highs (the lower of the large aggregators', so a venue printed at least as high), by the day they
 * were set; BTC's of 2013 is Mt.Gox's, then the largest venue (month-end closes of late 2013 were
 * above Bitstamp's high).
 */
const ATHS: Record<string, ReadonlyArray<readonly [string, number]>> = {
  btc: [
    ["2013-12-04", 1_242], ["2017-02-28", 1_242], ["2017-12-17", 19_665], ["2020-11-29", 19_665], ["2021-04-14", 64_805],
    ["2021-10-19", 64_805], ["2021-11-10", 69_045], ["2024-03-04", 69_045], ["2024-03-14", 73_738], ["2024-11-05", 73_738],
    ["2024-12-17", 108_135], ["2025-01-20", 108_786], ["2025-05-22", 111_814], ["2025-07-14", 122_838], ["2025-08-14", 124_128],
    ["2025-10-06", 126_080],
  ],
  // ETH's high of 2025-08-24 held; after it, no day traded above 4,830 (September and October tops ~4,770).
  eth: [["2018-01-13", 1_432], ["2021-01-18", 1_432], ["2021-11-10", 4_878], ["2025-08-21", 4_878], ["2025-08-24", 4_946], ["2025-08-25", 4_830]],
  sol: [["2021-11-06", 259.96], ["2024-11-21", 259.96], ["2025-01-19", 293.31]],
  xrp: [["2018-01-07", 3.4], ["2025-07-17", 3.4], ["2025-07-18", 3.65]],
  bnb: [["2021-05-10", 686.31], ["2024-06-05", 686.31], ["2025-10-13", 1_369.99]],
  ada: [["2021-09-02", 3.09]],
  doge: [["2021-05-08", 0.7316]],
};

/**
 * Highest prints of single months (USD): BTC through 2025 (CoinGecko daily highs, rounded down),
 * so a month between two all-time highs does not climb to the later one.
 */
const MONTH_HIGHS: Record<string, Record<string, number>> = {
  btc: {
    "2025-01": 108_786, "2025-02": 102_500, "2025-03": 94_900, "2025-04": 95_500, "2025-05": 111_814, "2025-06": 110_400,
    "2025-07": 122_838, "2025-08": 124_128, "2025-09": 117_800, "2025-10": 126_080, "2025-11": 110_500, "2025-12": 94_500,
  },
};

/** How long the last all-time high is taken to hold (the continuation past the anchors). */
const HELD_UNTIL = dayOf("2026-12-31");

/** ATHS and the calendar's all-time highs as spans of log ceilings ((previous high, this one] ≤ this one), plus the months' highs. */
function ceilingSpans(base: string): PathSpec["ceilings"] {
  const highs: Array<readonly [number, number]> = [...(ATHS[base] ?? []).map(([d, v]) => [dayOf(d), v] as const), ...highsOf(base)];
  const months: Array<readonly [string, number]> = [...Object.entries(MONTH_HIGHS[base] ?? {}), ...rangesOf(base).map(([m, , hi]) => [m, hi] as const)];
  if (highs.length === 0 && months.length === 0) return undefined;
  highs.sort((a, b) => a[0] - b[0]);
  const spans = highs.map(([day, high], i) => ({ from: i ? highs[i - 1]![0] + 1 : -Infinity, to: day, log: Math.log(high) }));
  if (spans.length) spans.push({ from: spans.at(-1)!.to + 1, to: HELD_UNTIL, log: spans.at(-1)!.log });
  for (const [month, high] of months) spans.push({ from: dayOf(`${month}-01`), to: monthEndDay(month), log: Math.log(high) });
  return spans;
}

const CEILINGS = new Map<string, PathSpec["ceilings"]>();
function ceilingsOf(base: string): PathSpec["ceilings"] {
  if (!CEILINGS.has(base)) CEILINGS.set(base, ceilingSpans(base));
  return CEILINGS.get(base);
}

/**
 * Lowest closes that held (CoinMarketCap daily closes, USD): [base, from, low]. From the day after
 * a cycle's top the market never closed below its bear-market low, then or since; the daily path
 * is reflected above it there, as it is below the all-time highs (intraday wicks may go lower).
 */
const LOWS: ReadonlyArray<readonly [string, string, number]> = [
  ["btc", "2017-12-18", 3_236], ["btc", "2021-11-09", 15_787],
  ["eth", "2018-01-14", 83.8], ["eth", "2021-11-10", 993],
];

/** LOWS from their day on, plus the lows of the calendar's monthly ranges over their months. */
function floorsOf(base: string): PathSpec["floors"] {
  const floors = LOWS.filter(([b]) => b === base).map(([, from, low]) => ({ from: dayOf(from), to: HELD_UNTIL, log: Math.log(low) }));
  for (const [month, low] of rangesOf(base)) floors.push({ from: dayOf(`${month}-01`), to: monthEndDay(month), log: Math.log(low) });
  return floors.length ? floors : undefined;
}

/** Log ceiling of a base on a day (Infinity where no high is known). */
export function ceilingLog(base: string, day: number): number {
  const spans = ceilingsOf(base);
  if (!spans) return Infinity;
  let c = Infinity;
  for (const s of spans) if (day >= s.from && day <= s.to && s.log < c) c = s.log;
  return c;
}

/** Intramonth tops and bottoms that shape BTC and ETH between their month-end closes. */
const SHAPES: Record<string, AnchorTable> = { btc: BTC_PRICE, eth: ETH_PRICE };

/**
 * A base's dated closes between its month-ends: BTC's and ETH's shape tables, the calendar's closes
 * (collapses, turning points), and a close on each all-time-high day of the calendar half a day's
 * volatility under the high (the close of a record day sits under its intraday top).
 */
function shapeOf(profile: Profile): Array<[number, number]> {
  const shape = SHAPES[profile.base];
  const out: Array<[number, number]> = shape ? Array.from(shape.days, (d, i) => [d, shape.logs[i]!]) : [];
  for (const [day, close] of closesOf(profile.base)) out.push([day, Math.log(close)]);
  const highs = [...highsOf(profile.base)];
  // The record days of ATHS too, where no shape table holds them (a repeated figure is a high that held, not a new one).
  if (!shape) (ATHS[profile.base] ?? []).forEach(([date, high], i, rows) => { if (i === 0 || high > rows[i - 1]![1]) highs.push([dayOf(date), high]); });
  for (const [day, high] of highs) out.push([day, Math.log(high) - 0.5 * profile.sigma]);
  // One close a day: the later entry (a record day over a dated close) wins.
  out.sort((a, b) => a[0] - b[0]);
  return out.filter((e, i) => i === out.length - 1 || out[i + 1]![0] !== e[0]);
}

/** Anchors of a base: the reference closes, plus intramonth shape points on the other days. */
function anchorsOf(profile: Profile): Points {
  const ref = profile.reference;
  const shape = shapeOf(profile);
  if (!ref || (ref.ticker !== profile.base && profile.base !== profile.asset)) {
    if (shape.length) return { days: Int32Array.from(shape, ([d]) => d), logs: Float64Array.from(shape, ([, l]) => l) };
    return { days: Int32Array.of(REF_DAY), logs: Float64Array.of(Math.log(profile.refPrice)) };
  }
  if (!shape.length) return ref.closes;
  const merged: Array<[number, number]> = Array.from(ref.closes.days, (d, i) => [d, ref.closes.logs[i]!]);
  // On a month-end the reference close wins; the day before it keeps its own close (a move into
  // the month-end, such as BTC's +14.5 % on 2022-02-28, needs both).
  const monthEnds = new Set(merged.map(([d]) => d));
  const keep = shape.filter(([d]) => d >= ref.listedDay && !monthEnds.has(d));
  // The all-time highs are facts of their own: they win over a close next to them.
  const all = [...merged, ...keep].sort((a, b) => a[0] - b[0]);
  return { days: Int32Array.from(all, ([d]) => d), logs: Float64Array.from(all, ([d, v]) => Math.min(v, ceilingLog(profile.base, d))) };
}

const paths = new Map<string, DailyPath>();

function pathOf(key: string, make: () => PathSpec): DailyPath {
  let path = paths.get(key);
  if (!path) {
    const spec = make();
    path = new DailyPath(spec, spec.beta ? pathOf("btc", () => specOf(profileOf("btc"))) : undefined);
    paths.set(key, path);
  }
  return path;
}

/** A coin's loadings on BTC and the alt factor and its own noise (the same daily and by the minute). */
function loadings(profile: Profile): Loadings {
  return loadingsOf({ ...profile, marketCap: profile.refPrice * profile.refSupply }, profileOf("btc").sigma);
}

function specOf(profile: Profile): PathSpec {
  const seed = seedOf(profile.base);
  const firstDay = profile.inceptionDay;
  const { sigma } = profile;
  if (profile.model === "stable" && profile.reference?.peg === "eur") {
    return { firstDay: Math.min(firstDay, dayOf("2018-01-01")), anchors: tableToPoints(EURUSD), sigma, noise: sigma, seed: seedOf("eurusd"), beta: 0 };
  }
  // BTC is the factor: all of its noise is its own.
  const { beta, noise, alt, sector, sectorSeed } = profile.model === "btc" ? { beta: 0, noise: sigma, alt: 0, sector: 0, sectorSeed: 0 } : loadings(profile);
  const spec: PathSpec = { firstDay, anchors: anchorsOf(profile), sigma, noise, seed, beta, alt };
  if (sector) spec.sector = { loading: sector, seed: sectorSeed };
  const ceilings = ceilingsOf(profile.base);
  if (ceilings) spec.ceilings = ceilings;
  const floors = floorsOf(profile.base);
  if (floors) spec.floors = floors;
  return spec;
}

function tableToPoints(t: AnchorTable): Points {
  return { days: Int32Array.from(t.days), logs: Float64Array.from(t.logs) };
}

/** A USD stablecoin: $1 within a few tenths of a percent, mean-reverting. */
const PEG_OCTAVES: readonly Octave[] = [
  { period: 30, amplitude: 0.0012 }, { period: 5, amplitude: 0.0008 }, { period: 1, amplitude: 0.0006 },
];
/** A gold token's basis to gold (custody, redemption fees): a tenth of a percent or two. */
const BASIS_OCTAVES: readonly Octave[] = [{ period: 20, amplitude: 0.0015 }, { period: 2, amplitude: 0.0008 }];

/** A crash day's low (from the calendar's lows): the minute it printed and its log. */
interface CrashLow {
  minute: number;
  log: number;
}

const crashLows = new Map<string, Map<number, CrashLow>>();

/** A base's crash-day lows by day (the calendar's, read on first use). */
function crashLowsOf(base: string): Map<number, CrashLow> {
  let lows = crashLows.get(base);
  if (!lows) {
    lows = new Map(lowsOf(base).map(([t, price]) => {
      const ms = Date.parse(`${t}:00Z`);
      return [Math.floor(ms / DAY_MS), { minute: Math.round((ms % DAY_MS) / 60_000), log: Math.log(price) }] as const;
    }));
    crashLows.set(base, lows);
  }
  return lows;
}

interface Depeg {
  times: Float64Array;
  logs: Float64Array;
  /** First and last day the event touches. */
  firstDay: number;
  lastDay: number;
}

const depegs = new Map<string, Depeg | undefined>();

/** A stablecoin's depeg from the calendar (read on first use), if it had one. */
function depegOfBase(base: string): Depeg | undefined {
  if (depegs.has(base)) return depegs.get(base);
  const points = depegOf(base);
  let event: Depeg | undefined;
  if (points.length) {
    const times = Float64Array.from(points, ([t]) => Date.parse(`${t}:00Z`));
    event = { times, logs: Float64Array.from(points, ([, p]) => Math.log(p)), firstDay: Math.floor(times[0]! / DAY_MS), lastDay: Math.floor(times.at(-1)! / DAY_MS) };
  }
  depegs.set(base, event);
  return event;
}

/** Log of a depeg's price at an instant (0 outside it). */
function depegLog(event: Depeg, ms: number): number {
  const { times, logs } = event;
  if (ms <= times[0]! || ms >= times[times.length - 1]!) return 0;
  let i = 0;
  while (times[i + 1]! < ms) i++;
  const f = (ms - times[i]!) / (times[i + 1]! - times[i]!);
  return logs[i]! + (logs[i + 1]! - logs[i]!) * f;
}

/** Days of a base's known crash-day lows. */
export function crashLowDays(base: string): number[] {
  return [...crashLowsOf(base).keys()];
}

/** A base's known crash-day lows, by day. */
function lowOf(base: string): IntradaySource["low"] {
  const lows = crashLowsOf(base);
  return lows.size ? (day) => lows.get(day) : undefined;
}

/** The depeg shaping a base's minute path on a day, if any. */
function shockOf(base: string): IntradaySource["shock"] {
  const event = depegOfBase(base);
  return event && { firstDay: event.firstDay, lastDay: event.lastDay, log: (ms) => depegLog(event, ms) };
}

/**
 * A stablecoin whose anchors leave the peg (HUSD in 2022) follows them instead of $1; closes inside
 * a dated depeg of the calendar (sUSD's 2025) are the depeg's, and leave it on its peg otherwise.
 */
function offPeg(profile: Profile): boolean {
  const ref = profile.reference;
  if (!ref || ref.peg === "eur") return false;
  const event = depegOfBase(profile.base);
  const inEvent = (day: number) => event !== undefined && day >= event.firstDay && day <= event.lastDay;
  return Math.abs(ref.refPrice - 1) > 0.03 || Array.from(ref.closes.logs).some((l, i) => Math.abs(l) > 0.03 && !inEvent(ref.closes.days[i]!));
}

function computeLog(profile: Profile, day: number): number {
  switch (profile.model) {
    case "stable":
      if (profile.reference?.peg !== "eur" && !offPeg(profile)) {
        // The close of a day is the price at its end.
        const event = depegOfBase(profile.base);
        const shock = event && day >= event.firstDay && day <= event.lastDay ? depegLog(event, (day + 1) * DAY_MS) : 0;
        return octaveNoise(profile.seed, day, PEG_OCTAVES) + shock;
      }
      break;
    case "gold":
      return goldPath().log(day) + octaveNoise(profile.seed ^ 0x5a5a, day, BASIS_OCTAVES);
    default:
      break;
  }
  return pathOf(profile.base, () => specOf(profile)).log(day);
}

let gold: DailyPath | undefined;
function goldPath(): DailyPath {
  return (gold ??= new DailyPath({ firstDay: dayOf("2016-01-01"), anchors: tableToPoints(GOLD_PRICE), sigma: 0.006, noise: 0.006, seed: seedOf("gold"), beta: 0 }));
}

/** Natural log of the daily close (USD) of an asset on a day (days since 1970-01-01). */
export function dailyLogPrice(asset: string, day: number): number {
  if (asset === lastAsset) return lastOwner!(day);
  const profile = profileOf(asset);
  // Wrapped tokens and chain variants are the same market as their base.
  const owner = profile.base === asset ? profile : profileOf(profile.base);
  const pegged = owner.model === "gold" || (owner.model === "stable" && owner.reference?.peg !== "eur" && !offPeg(owner));
  const path = pegged ? undefined : pathOf(owner.base, () => specOf(owner));
  lastOwner = path ? (d) => path.log(d) : (d) => computeLog(owner, d);
  lastAsset = asset;
  return lastOwner(day);
}

/** Generators read one asset's closes in long runs: the last asset's reader answers without lookups. */
let lastAsset: string | undefined;
let lastOwner: ((day: number) => number) | undefined;

/** Daily close (USD). */
export function dailyPrice(asset: string, day: number): number {
  return Math.exp(dailyLogPrice(asset, day));
}

const sources = new Map<string, IntradaySource>();
let factor: MinuteFactor | undefined;

/** BTC's minute walk (the seed and volatility of BTC's own minute path). */
function minuteFactor(): MinuteFactor {
  const btc = profileOf("btc");
  return (factor ??= new MinuteFactor(btc.seed ^ 0x1b873593, btc.sigma / Math.sqrt(1440)));
}

/**
 * Scale of a day's own excursions (its minute bridges) against its daily volatility. At 1 a day
 * ranges as a free random walk would (high/low ~1.6 σ); markets range less (intraday moves partly
 * revert), so BTC's median day spans ~2.5–3 % of its price with a daily volatility of ~2.4 %.
 */
const INTRADAY_AMPLITUDE = 0.6;

const sharedFactors = new Map<number, MinuteFactor>();

/** A factor shared by many coins (the alt factor, a sector's): its minute walk at unit daily volatility, each coin scaling it by its loading. */
function sharedMinuteFactor(seed: number): MinuteFactor {
  let f = sharedFactors.get(seed);
  if (!f) sharedFactors.set(seed, (f = new MinuteFactor(seed, 1 / Math.sqrt(1440))));
  return f;
}

/** The minute path's view of an asset: keyed by its base, so variants share candles with it. */
export function intradayOf(asset: string): IntradaySource {
  const base = profileOf(asset).base;
  let src = sources.get(base);
  if (!src) {
    const owner = profileOf(base);
    const sigma = Math.max(owner.sigma, 0.001);
    // Pegged and gold tokens (and stablecoins off their peg) move on their own.
    const { beta, noise, alt, sector, sectorSeed } = owner.model === "btc" ? { beta: 1, noise: 0, alt: 0, sector: 0, sectorSeed: 0 } : loadings({ ...owner, sigma });
    src = {
      key: base, seed: owner.seed, sigma, noise, beta, amplitude: INTRADAY_AMPLITUDE, factor: minuteFactor(),
      alt, altFactor: sharedMinuteFactor(ALT_FACTOR_SEED), sector: sector ? { loading: sector, factor: sharedMinuteFactor(sectorSeed) } : undefined, shock: shockOf(base),
      dailyLog: (day) => dailyLogPrice(base, day), ceiling: (day) => ceilingLog(base, day), low: lowOf(base),
    };
    sources.set(base, src);
  }
  return src;
}

/** Price at an instant on the minute path (the daily close at each midnight). */
export function priceAt(asset: string, ms: number): number {
  return priceAtInstant(intradayOf(asset), ms);
}

/** OHLC of [startMs, endMs) from the minute path (both minute-aligned). */
export function candle(asset: string, startMs: number, endMs: number): Ohlc {
  return candleOf(intradayOf(asset), startMs, endMs);
}
