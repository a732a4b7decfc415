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
}

/** Spacing of the synthetic anchors that continue a path past its last real one (days). */
const CONTINUATION_DAYS = 91;
/** Bound of the continuation around the last anchor, in log units per step of volatility. */
const CONTINUATION_RANGE = 0.35;
/** Bridges over long gaps (yearly anchors) keep their mid-gap spread near ±35 % (1σ). */
const MAX_BRIDGE_SPREAD = 0.7;

export class DailyPath {
  readonly firstDay: number;
  private logs: Float64Array;

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

  /** Grows the path to at least `length` days (whole years past 2030, so growth is rare). */
  private extend(length: number): void {
    const size = Math.max(length, dayCountTo2031(this.firstDay), this.logs.length * 2);
    this.logs = fill(this.spec, size, this.btc);
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

function fill(spec: PathSpec, size: number, btc?: DailyPath): Float64Array {
  const out = new Float64Array(size);
  const { firstDay, seed, beta } = spec;
  const alt = spec.alt ?? 0;
  const lastDay = firstDay + size - 1;
  const { days, logs } = continued(spec, lastDay);
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
    const sigma = Math.min(spec.noise, MAX_BRIDGE_SPREAD / Math.sqrt(n));
    // Walk, then subtract the straight line to its end: a bridge from 0 to 0.
    let walk = 0;
    const walks = new Float64Array(n + 1);
    for (let k = 1; k <= n; k++) {
      walk += sigma * gauss(seed, d0 + k);
      walks[k] = walk;
    }
    // The alt factor's walk over the same days (one walk for every coin), plus the coin's sector's,
    // bridged the same way.
    let altWalk = 0;
    const sector = spec.sector;
    const alts = alt || sector ? new Float64Array(n + 1) : undefined;
    if (alts) {
      for (let k = 1; k <= n; k++) {
        altWalk += alt * gauss(ALT_FACTOR_SEED, d0 + k);
        if (sector) altWalk += sector.loading * gauss(sector.seed, d0 + k);
        alts[k] = altWalk;
      }
    }
    const btc0 = beta && btc ? btc.log(d0) : 0;
    const btc1 = beta && btc ? btc.log(d1) : 0;
    for (let k = 0; k <= n; k++) {
      const day = d0 + k;
      const i = day - firstDay;
      if (i < 0 || i >= size) continue;
      const f = k / n;
      let v = logs[a]! + (logs[a + 1]! - logs[a]!) * f + walks[k]! - f * walk;
      if (alts) v += alts[k]! - f * altWalk;
      if (beta && btc) v += beta * (btc.log(day) - (btc0 + (btc1 - btc0) * f));
      out[i] = v;
    }
  }
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
  return out;
}
