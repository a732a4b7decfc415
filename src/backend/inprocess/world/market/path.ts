// Daily closes of the latent market: log-linear between dated anchors plus a Brownian bridge that
// is exactly 0 at every anchor, so each month-end (or year-end) anchor is hit to the last digit.
// A coin also carries its loading (beta) on BTC's own excursions between its anchors, which moves
// the market together without moving any anchor (factor.ts splits beta and the noise). Past the
// last anchor the path goes on between hashed, bounded anchors. One Float64Array per base ticker,
// built once.
import { gauss, s11 } from "../../util/hash.js";
import { ALT_FACTOR_SEED } from "./factor.js";
import type { Points } from "./reference.js";

export interface PathSpec {
  /** First day of the path (listing). */
  firstDay: number;
  anchors: Points;
  /** Total daily log volatility (what the anchors imply; sizes the continuation). */
  sigma: number;
  /** Daily log volatility of the path's own bridge noise (the part BTC's excursions do not carry). */
  noise: number;
  seed: number;
  /** Loading on BTC's excursions from its own interpolation (0 for BTC, pegs and gold). */
  beta: number;
  /** Loading on the alt factor's daily walk (daily log volatility; absent or 0: none). */
  alt?: number;
  /** Loading on a sector factor's daily walk (daily log volatility) and that walk's seed. */
  sector?: { loading: number; seed: number };
  /** Log ceilings the path must not cross between two days (an all-time high that held). */
  ceilings?: ReadonlyArray<{ from: number; to: number; log: number }>;
  /** Log floors no close goes below between two days (a cycle's lowest close, which held). */
  floors?: ReadonlyArray<{ from: number; to: number; log: number }>;
  /**
   * A coin whose sector has a leader with a real path (DOGE for the memes) loads on the leader's
   * excursions beyond what BTC explains, in place of its sector's walk, through the last day the
   * leader's path holds real weeks (`until`): `beta` is the leader's own BTC loading.
   */
  leader?: { path: DailyPath; loading: number; beta: number; until: number; noise: number };
  /** Log bands of the days between weekly anchors: week k bounds the six days before `from + 7k`. */
  bands?: { from: number; lo: Float64Array; hi: Float64Array };
}

/** Spacing of the synthetic anchors that continue a path past its last real one (days). */
const CONTINUATION_DAYS = 91;
/** Bound of the continuation around the last anchor, in log units per step of volatility. */
const CONTINUATION_RANGE = 0.35;
/** Scale of a coin's own noise between anchors inside a week of known closes (its loadings take up the rest). */
const WEEK_OWN = 0.5;
/** Share of a coin's variance its loadings must carry for the mix to apply. */
const OWN_MOVER = 0.3;
/** Bridges over long gaps (yearly anchors) keep their mid-gap spread near ±35 % (1σ). */
const MAX_BRIDGE_SPREAD = 0.7;

export class DailyPath {
  readonly firstDay: number;
  private logs: Float64Array;
  /** How far the band of each day's week scaled the path's excursion down (1: not at all); only with bands. */
  private scales: Float32Array | undefined;

  constructor(
    private readonly spec: PathSpec,
    private readonly btc?: DailyPath,
  ) {
    this.firstDay = spec.firstDay;
    this.logs = new Float64Array(0);
  }

  /** Natural log of the close on `day` (clamped to the first day before it). */
  log(day: number): number {
    const i = day - this.firstDay;
    if (i >= this.logs.length || this.logs.length === 0) this.extend(i + 1);
    return this.logs[i < 0 ? 0 : i]!;
  }

  /** The scale the week's band put on the path's excursion on `day` (1 where it had none). */
  scale(day: number): number {
    const i = day - this.firstDay;
    if (i >= this.logs.length) this.extend(i + 1);
    return this.scales && i >= 0 ? this.scales[i]! : 1;
  }

  /** Grows the path to at least `length` days (whole years past 2030, so growth is rare). */
  private extend(length: number): void {
    const size = Math.max(length, dayCountTo2031(this.firstDay), this.logs.length * 2);
    ({ logs: this.logs, scales: this.scales } = fill(this.spec, size, this.btc));
  }
}

function dayCountTo2031(firstDay: number): number {
  return Math.max(1, 22_280 - firstDay); // 2031-01-01 is day 22,280
}

/** Anchor points extended past the last real one by hashed continuation anchors up to `lastDay`. */
function continued(spec: PathSpec, lastDay: number): { days: number[]; logs: number[] } {
  const days = Array.from(spec.anchors.days);
  const logs = Array.from(spec.anchors.logs);
  const endDay = days[days.length - 1]!;
  const endLog = logs[logs.length - 1]!;
  const range = CONTINUATION_RANGE * Math.min(2, Math.max(0.2, spec.sigma / 0.03));
  for (let k = 1; endDay + (k - 1) * CONTINUATION_DAYS <= lastDay; k++) {
    days.push(endDay + k * CONTINUATION_DAYS);
    logs.push(endLog + range * s11(spec.seed ^ 0x2545f491, k));
  }
  return { days, logs };
}

/** The log band of the days strictly between two anchors when both lie in one week of the bands, else undefined. */
function bandOf(bands: NonNullable<PathSpec["bands"]>, d0: number, d1: number): { lo: number; hi: number } | undefined {
  const k = Math.ceil((d0 + 1 - bands.from) / 7);
  if (k < 1 || k >= bands.lo.length || d1 > bands.from + 7 * k || d0 < bands.from + 7 * (k - 1)) return undefined;
  return { lo: bands.lo[k]!, hi: bands.hi[k]! };
}

/**
 * Between two anchors inside a week the path keeps to the band the week's real daily closes kept:
 * its excursion from the straight line between them is scaled down (as a whole, so its shape and
 * its co-movement with the market stay) until no day leaves the band.
 */
function keepInBand(
  out: Float64Array,
  scales: Float32Array,
  firstDay: number,
  d0: number,
  d1: number,
  l0: number,
  l1: number,
  band: { lo: number; hi: number },
): void {
  const n = d1 - d0;
  let scale = 1;
  for (let k = 1; k < n; k++) {
    const i = d0 + k - firstDay;
    if (i < 0 || i >= out.length) continue;
    const line = l0 + ((l1 - l0) * k) / n;
    const x = out[i]! - line;
    const room = x > 0 ? band.hi - line : line - band.lo;
    if (Math.abs(x) > room) scale = Math.min(scale, Math.max(0, room) / Math.abs(x));
  }
  if (scale === 1) return;
  for (let k = 1; k < n; k++) {
    const i = d0 + k - firstDay;
    if (i < 0 || i >= out.length) continue;
    const line = l0 + ((l1 - l0) * k) / n;
    out[i] = line + scale * (out[i]! - line);
    scales[i] = scale;
  }
}

function fill(spec: PathSpec, size: number, btc?: DailyPath): { logs: Float64Array; scales: Float32Array | undefined } {
  const out = new Float64Array(size);
  const scales = spec.bands ? new Float32Array(size).fill(1) : undefined;
  const { firstDay, seed, beta } = spec;
  const alt = spec.alt ?? 0;
  const lastDay = firstDay + size - 1;
  const { days, logs } = continued(spec, lastDay);
  const factorVar = spec.sigma * spec.sigma - spec.noise * spec.noise;
  // A coin that moves mostly on its own (an exchange token held up by buybacks) keeps its own noise.
  const weekMix: readonly [number, number] =
    factorVar > OWN_MOVER * spec.sigma * spec.sigma
      ? [WEEK_OWN, Math.sqrt(1 + ((1 - WEEK_OWN * WEEK_OWN) * spec.noise * spec.noise) / factorVar)]
      : [1, 1];
  // Before the first anchor (listing to first month-end) the path runs flat into it.
  if (days[0]! > firstDay) {
    days.unshift(firstDay);
    logs.unshift(logs[0]!);
  }
  for (let a = 0; a + 1 < days.length; a++) {
    const d0 = days[a]!;
    const d1 = days[a + 1]!;
    if (d0 > lastDay) break;
    const n = d1 - d0;
    const band = spec.bands ? bandOf(spec.bands, d0, d1) : undefined;
    // Inside a week of known closes the coin's excursions are the market's more than its own (a
    // week's real moves come mostly from the market): the same variance, moved from its own noise to
    // its loadings on BTC and the factors.
    const [own, shared] = band ? weekMix : [1, 1];
    const leader = spec.leader && d1 <= spec.leader.until ? spec.leader : undefined;
    const sigma = own * Math.min(leader ? leader.noise : spec.noise, MAX_BRIDGE_SPREAD / Math.sqrt(n));
    // Walk, then subtract the straight line to its end: a bridge from 0 to 0.
    const walks = walkOf(seed, d0, n, sigma);
    const walk = walks[n]!;
    // The alt factor's walk over the same days (one walk for every coin), plus the coin's sector's,
    // bridged the same way.
    let altWalk = 0;
    const sector = leader ? undefined : spec.sector;
    const alts = alt || sector ? new Float64Array(n + 1) : undefined;
    if (alts) {
      for (let k = 1; k <= n; k++) {
        altWalk += shared * alt * gauss(ALT_FACTOR_SEED, d0 + k);
        if (sector) altWalk += shared * sector.loading * gauss(sector.seed, d0 + k);
        alts[k] = altWalk;
      }
    }
    const btc0 = beta && btc ? btc.log(d0) : 0;
    const btc1 = beta && btc ? btc.log(d1) : 0;
    const lead0 = leader ? leader.path.log(d0) - leader.beta * btc0 : 0;
    const lead1 = leader ? leader.path.log(d1) - leader.beta * btc1 : 0;
    for (let k = 0; k <= n; k++) {
      const day = d0 + k;
      const i = day - firstDay;
      if (i < 0 || i >= size) continue;
      const f = k / n;
      // Where BTC's week kept it to a narrow band, a coin's own and factor moves shrink with it, so
      // the two keep moving together.
      const m = beta && btc ? btc.scale(day) : 1;
      let v = logs[a]! + (logs[a + 1]! - logs[a]!) * f + m * (walks[k]! - f * walk);
      if (alts) v += m * (alts[k]! - f * altWalk);
      if (beta && btc) v += shared * beta * (btc.log(day) - (btc0 + (btc1 - btc0) * f));
      if (leader && btc) v += leader.loading * (leader.path.log(day) - leader.beta * btc.log(day) - (lead0 + (lead1 - lead0) * f));
      out[i] = v;
    }
    if (band) keepInBand(out, scales!, firstDay, d0, d1, logs[a]!, logs[a + 1]!, band);
  }
  reflect(out, spec, firstDay, lastDay);
  return { logs: out, scales };
}

/** A walk of `n` steps of `sigma` after day `d0` (`walks[k]` after k steps; `walks[0]` is 0). */
function walkOf(seed: number, d0: number, n: number, sigma: number): Float64Array {
  let walk = 0;
  const walks = new Float64Array(n + 1);
  for (let k = 1; k <= n; k++) {
    walk += sigma * gauss(seed, d0 + k);
    walks[k] = walk;
  }
  return walks;
}

/** A path above a ceiling or below a floor over its days is reflected back inside it. */
function reflect(out: Float64Array, spec: PathSpec, firstDay: number, lastDay: number): void {
  for (const c of spec.ceilings ?? []) {
    for (let day = Math.max(c.from, firstDay); day <= Math.min(c.to, lastDay); day++) {
      const i = day - firstDay;
      if (out[i]! > c.log) out[i] = 2 * c.log - out[i]!;
    }
  }
  for (const f of spec.floors ?? []) {
    for (let day = Math.max(f.from, firstDay); day <= Math.min(f.to, lastDay); day++) {
      const i = day - firstDay;
      if (out[i]! < f.log) out[i] = 2 * f.log - out[i]!;
    }
  }
}
