// The simulated price: the one entry to it. Everything USD-denominated in the simulated world
// derives from the functions here. An "anchor" is always one thing: a dated figure from published
// history (anchors.json) that the path passes through on its day. The chain, from anchors to minutes:
//
//   anchors.json      the record: listing dates, month-end closes, supply points (reference.ts), and
//                     the calendar of dated events: weekly and event-day closes, highs, lows, depegs
//                     (calendar.ts)
//   path.ts           one base ticker's daily closes: log-linear between its anchors plus a bridge
//                     that is exactly 0 at each of them, loaded on BTC's and the alt factor's moves
//                     (factor.ts), kept under the highs and above the lows that held (extremes.ts)
//   this file         each asset on its base ticker's path, with its peg, gold or wrap basis (peg.ts),
//                     read by day (dailyPrice, dailyLogPrice)
//   minute-path.ts    the minutes of one day: a bridge from the previous close to the day's close,
//                     with the day's wicks, crash low and ceiling
//   intraday.ts       every candle at every timeframe read from those minutes (candle, priceAt)
//
// Quantities other than prices (gold, EUR, difficulty, reserves, supplies) follow the well-known
// levels of ../levels.ts the same way.
import { octaveNoise, seedOf } from "../../util/hash.js";
import { Memo } from "../../util/memo.js";
import { type AnchorTable, dayOf, EURUSD, GOLD_PRICE, REF_DAY } from "../levels.js";
import { type Profile, profileOf } from "../profiles.js";
import { ceilingRowsOf, closesOf, highsOf, weeksOf } from "./calendar.js";
import { ceilingLog, ceilingsOf, crashLowOf, floorsOf, peakOf } from "./extremes.js";
import { ALT_FACTOR_SEED, KAPPA_LEADER, type Loadings, loadingsOf, MEMES, MinuteFactor } from "./factor.js";
import { candleOf, type IntradaySource, type Ohlc, priceAtInstant } from "./intraday.js";
import { DailyPath, type PathSpec } from "./path.js";
import { BASIS_OCTAVES, depegEventOf, eventCloseLog, PEG_OCTAVES, WRAP_BAND, wrapEventOfAsset, wrapLog } from "./peg.js";
import type { Points } from "./reference.js";

/** Days from a listing on which a record is a launch print (the listing day and the two after it). */
const LAUNCH_DAYS = 3;

/**
 * A base's dated closes between its month-ends: its Sunday closes, the calendar's dated closes
 * (turning points, the largest moves, collapses, event days) and a close on each all-time-high day
 * without a dated close, half a day's volatility under the high (the close of a record day sits
 * under its intraday top). A record of a coin's first three days of trading is a launch print,
 * which tells nothing of the day's close: it stays the high of its day, and the close follows the path.
 */
function shapeOf(profile: Profile): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const weeks = weeksOf(profile.base);
  if (weeks) weeks.closes.forEach((close, k) => out.push([weeks.from + 7 * k, Math.log(close)]));
  const closes = closesOf(profile.base);
  for (const [day, close] of closes) out.push([day, Math.log(close)]);
  const dated = new Set(out.map(([d]) => d));
  const highs = [...highsOf(profile.base)];
  // The record days of the highest prints too, where no dated closes hold them (a repeated figure is a high that held, not a new one).
  if (!closes.length)
    ceilingRowsOf(profile.base).forEach(([day, high], i, rows) => {
      if (i === 0 || high > rows[i - 1]![1]) highs.push([day, high]);
    });
  const launch = (profile.reference?.listedDay ?? profile.inceptionDay) + LAUNCH_DAYS;
  for (const [day, high] of highs) if (!dated.has(day) && day >= launch) out.push([day, Math.log(high) - 0.5 * profile.sigma]);
  // One close a day: the later entry (a dated close over a Sunday close) wins.
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
/** The meme coin whose path the other memes' sector moves follow. */
const MEME_LEADER = "doge";

function pathOf(key: string, make: () => PathSpec): DailyPath {
  let path = paths.get(key);
  if (!path) {
    const spec = make();
    path = new DailyPath(spec, spec.beta ? pathOf("btc", () => specOf(profileOf("btc"))) : undefined);
    paths.set(key, path);
  }
  return path;
}

/** Daily standard deviation of a leader's moves beyond its BTC loading, 2021 to the reference day (what its followers load on). */
function leaderSpread(path: DailyPath, beta: number): number {
  const btc = pathOf("btc", () => specOf(profileOf("btc")));
  let [n, sum, sq] = [0, 0, 0];
  let prev = path.log(SPREAD_FROM - 1) - beta * btc.log(SPREAD_FROM - 1);
  for (let day = SPREAD_FROM; day <= REF_DAY; day++) {
    const x = path.log(day) - beta * btc.log(day);
    const d = x - prev;
    [n, sum, sq, prev] = [n + 1, sum + d, sq + d * d, x];
  }
  return Math.sqrt(Math.max(1e-8, sq / n - (sum / n) ** 2));
}
const SPREAD_FROM = dayOf("2021-01-01");

/** A coin's loadings on BTC and the alt factor and its own noise (the same daily and by the minute). */
function loadings(profile: Profile): Loadings {
  return loadingsOf({ ...profile, marketCap: profile.refPrice * profile.refSupply }, profileOf("btc").sigma);
}

function specOf(profile: Profile): PathSpec {
  const seed = seedOf(profile.base);
  const firstDay = profile.inceptionDay;
  const { sigma } = profile;
  if (profile.model === "stable" && profile.reference?.peg === "eur") {
    return {
      firstDay: Math.min(firstDay, dayOf("2018-01-01")),
      anchors: tableToPoints(EURUSD),
      sigma,
      noise: sigma,
      seed: seedOf("eurusd"),
      beta: 0,
    };
  }
  // BTC is the factor: all of its noise is its own.
  const { beta, noise, alt, sector, sectorSeed } =
    profile.model === "btc" ? { beta: 0, noise: sigma, alt: 0, sector: 0, sectorSeed: 0 } : loadings(profile);
  const spec: PathSpec = { firstDay, anchors: anchorsOf(profile), sigma, noise, seed, beta, alt };
  // The memes follow DOGE's excursions beyond BTC's where DOGE's path holds its real weeks, the sector's walk elsewhere.
  if (sector && MEMES.has(profile.base) && profile.base !== MEME_LEADER) {
    const lead = profileOf(MEME_LEADER);
    const leadBeta = loadings(lead).beta;
    const path = pathOf(MEME_LEADER, () => specOf(lead));
    const weeks = weeksOf(MEME_LEADER);
    const until = weeks ? weeks.from + 7 * (weeks.closes.length - 1) : -Infinity;
    const loading = KAPPA_LEADER * sigma;
    // The same variance: the own noise gives up what the leader's loading takes beyond the sector's.
    const own = Math.sqrt(Math.max(0, noise * noise + sector * sector - loading * loading));
    spec.leader = { path, loading: loading / leaderSpread(path, leadBeta), beta: leadBeta, until, noise: own };
  }
  if (sector) spec.sector = { loading: sector, seed: sectorSeed };
  const ceilings = ceilingsOf(profile.base);
  if (ceilings) spec.ceilings = ceilings;
  const floors = floorsOf(profile.base);
  if (floors) spec.floors = floors;
  const weeks = weeksOf(profile.base);
  if (weeks) spec.bands = { from: weeks.from, lo: weeks.lo, hi: weeks.hi };
  return spec;
}

function tableToPoints(t: AnchorTable): Points {
  return { days: Int32Array.from(t.days), logs: Float64Array.from(t.logs) };
}

/**
 * A stablecoin whose anchors leave the peg (HUSD in 2022) follows them instead of $1; closes inside
 * a dated depeg of the calendar (sUSD's 2025) are the depeg's, and leave it on its peg otherwise.
 */
function offPeg(profile: Profile): boolean {
  const ref = profile.reference;
  if (!ref || ref.peg === "eur") return false;
  const event = depegEventOf(profile.base);
  const inEvent = (day: number) => event?.covers(day) === true;
  return (
    Math.abs(ref.refPrice - 1) > 0.03 || Array.from(ref.closes.logs).some((l, i) => Math.abs(l) > 0.03 && !inEvent(ref.closes.days[i]!))
  );
}

function computeLog(profile: Profile, day: number): number {
  switch (profile.model) {
    case "stable":
      // The close of a day is the price at its end.
      if (profile.reference?.peg !== "eur" && !offPeg(profile))
        return octaveNoise(profile.seed, day, PEG_OCTAVES) + eventCloseLog(depegEventOf(profile.base), day);
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
  return (gold ??= new DailyPath({
    firstDay: dayOf("2016-01-01"),
    anchors: tableToPoints(GOLD_PRICE),
    sigma: 0.006,
    noise: 0.006,
    seed: seedOf("gold"),
    beta: 0,
  }));
}

/** A wrapped coin (WBTC, WETH): a token of its own on its underlying's price, with a basis to it. */
function isWrapped(profile: Profile): boolean {
  return profile.asset !== profile.base && (profile.base === "btc" || profile.base === "eth");
}

/** Natural log of the daily close (USD) of an asset on a day (days since 1970-01-01). */
export function dailyLogPrice(asset: string, day: number): number {
  return readers.getOr(asset, readerOf)(day);
}

/** Generators read one asset's closes in long runs: the last asset's reader answers without lookups. */
const readers = new Memo<string, (day: number) => number>(1);

/** An asset's daily log closes as a function of the day. */
function readerOf(asset: string): (day: number) => number {
  const profile = profileOf(asset);
  // Chain variants are the same market as their base; a wrapped coin is its base's plus a basis.
  const owner = profile.base === asset ? profile : profileOf(profile.base);
  const pegged = owner.model === "gold" || (owner.model === "stable" && owner.reference?.peg !== "eur" && !offPeg(owner));
  const path = pegged ? undefined : pathOf(owner.base, () => specOf(owner));
  const read = path ? (d: number) => path.log(d) : (d: number) => computeLog(owner, d);
  return isWrapped(profile) ? (d) => read(d) + wrapLog(asset, profile.seed, d) : read;
}

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

/** The minute path's view of an asset: keyed by its base, so variants share candles with it (a wrapped coin has its own, its basis on its base's). */
export function intradayOf(asset: string): IntradaySource {
  const profile = profileOf(asset);
  const key = isWrapped(profile) ? asset : profile.base;
  let src = sources.get(key);
  if (!src) {
    const base = profile.base;
    const owner = profileOf(base);
    const sigma = Math.max(owner.sigma, 0.001);
    // Pegged and gold tokens (and stablecoins off their peg) move on their own.
    const { beta, noise, alt, sector, sectorSeed } =
      owner.model === "btc" ? { beta: 1, noise: 0, alt: 0, sector: 0, sectorSeed: 0 } : loadings({ ...owner, sigma });
    const event = key === base ? depegEventOf(base) : wrapEventOfAsset(asset);
    src = {
      key,
      seed: owner.seed,
      sigma,
      noise,
      beta,
      amplitude: INTRADAY_AMPLITUDE,
      factor: minuteFactor(),
      alt,
      altFactor: sharedMinuteFactor(ALT_FACTOR_SEED),
      sector: sector ? { loading: sector, factor: sharedMinuteFactor(sectorSeed) } : undefined,
      shock: event,
      dailyLog: (day) => dailyLogPrice(key, day),
      // A wrap may print a basis's width above its underlying's high, never more.
      ceiling: key === base ? (day) => ceilingLog(base, day) : (day) => ceilingLog(base, day) + WRAP_BAND,
      low: key === base ? crashLowOf(base) : undefined,
      peak: key === base ? peakOf(base) : undefined,
    };
    sources.set(key, src);
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
