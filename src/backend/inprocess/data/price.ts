// The latent price of each asset: daily closes (random access by day) on its base ticker's
// anchored path, and the minute path under them. Everything USD-denominated derives from it.
import {
  BTC_PRICE, ETH_PRICE, EURUSD, GOLD_PRICE, REF_DAY, dayOf, type AnchorTable,
} from "./anchors.js";
import { octaveNoise, seedOf, type Octave } from "./hash.js";
import { DailyPath, type PathSpec } from "./market/path.js";
import { loadingsOf, MinuteFactor, type Loadings } from "./market/factor.js";
import { candleOf, priceAtInstant, type IntradaySource, type Ohlc } from "./market/intraday.js";
import type { Points } from "./market/reference.js";
import { profileOf, type Profile } from "./profiles.js";

/** All-time highs that held through the reference day: the path is reflected below them. */
const CEILINGS: Record<string, PathSpec["ceilings"]> = {
  btc: [{ from: dayOf("2024-12-18"), to: dayOf("2026-12-31"), log: Math.log(126_080) }],
  // ETH's close of 2025-08-24 (4,830) stayed its highest: BTC's run to October did not lift it.
  eth: [{ from: dayOf("2024-12-18"), to: dayOf("2026-12-31"), log: Math.log(4_950) }, { from: dayOf("2025-08-25"), to: dayOf("2026-12-31"), log: Math.log(4_830) }],
};

/** Intramonth tops and bottoms that shape BTC and ETH between their month-end closes. */
const SHAPES: Record<string, AnchorTable> = { btc: BTC_PRICE, eth: ETH_PRICE };

/** Anchors of a base: the reference closes, plus intramonth shape points at least 3 days from any of them. */
function anchorsOf(profile: Profile): Points {
  const ref = profile.reference;
  const shape = SHAPES[profile.base];
  if (!ref || (ref.ticker !== profile.base && profile.base !== profile.asset)) {
    if (shape) return { days: Int32Array.from(shape.days), logs: Float64Array.from(shape.logs) };
    return { days: Int32Array.of(REF_DAY), logs: Float64Array.of(Math.log(profile.refPrice)) };
  }
  if (!shape) return ref.closes;
  const merged: Array<[number, number]> = Array.from(ref.closes.days, (d, i) => [d, ref.closes.logs[i]!]);
  const near = (day: number) => merged.some(([d]) => Math.abs(d - day) < 3);
  const keep: Array<[number, number]> = [];
  shape.days.forEach((d, i) => {
    if (d >= ref.listedDay && !near(d)) keep.push([d, shape.logs[i]!]);
  });
  // The all-time high is a fact of its own: it wins over a close next to it.
  const ath = CEILINGS[profile.base]?.[0];
  const all = [...merged, ...keep].sort((a, b) => a[0] - b[0]);
  return { days: Int32Array.from(all, ([d]) => d), logs: Float64Array.from(all, ([, v]) => (ath && v > ath.log ? ath.log : v)) };
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

/** A coin's loading on BTC and its own noise (the same daily and by the minute). */
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
  const { beta, noise } = profile.model === "btc" ? { beta: 0, noise: sigma } : loadings(profile);
  const spec: PathSpec = { firstDay, anchors: anchorsOf(profile), sigma, noise, seed, beta };
  const ceilings = CEILINGS[profile.base];
  if (ceilings) spec.ceilings = ceilings;
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

/** A stablecoin whose anchors leave the peg (HUSD in 2022) follows them instead of $1. */
function offPeg(profile: Profile): boolean {
  const ref = profile.reference;
  if (!ref || ref.peg === "eur") return false;
  return Math.abs(ref.refPrice - 1) > 0.03 || Array.from(ref.closes.logs).some((l) => Math.abs(l) > 0.03);
}

function computeLog(profile: Profile, day: number): number {
  switch (profile.model) {
    case "stable":
      if (profile.reference?.peg !== "eur" && !offPeg(profile)) return octaveNoise(profile.seed, day, PEG_OCTAVES);
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

/** The minute path's view of an asset: keyed by its base, so variants share candles with it. */
export function intradayOf(asset: string): IntradaySource {
  const base = profileOf(asset).base;
  let src = sources.get(base);
  if (!src) {
    const owner = profileOf(base);
    const sigma = Math.max(owner.sigma, 0.001);
    // Pegged and gold tokens (and stablecoins off their peg) move on their own.
    const { beta, noise } = owner.model === "btc" ? { beta: 1, noise: 0 } : loadings({ ...owner, sigma });
    src = { key: base, seed: owner.seed, sigma, noise, beta, factor: minuteFactor(), dailyLog: (day) => dailyLogPrice(base, day) };
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
