// BTC difficulty on block epochs. A hash-rate path (the rate each published retarget implies over
// the epoch before it, and the published rate through its shocks) mines blocks day by day; every 2,016 blocks difficulty
// retargets by the epoch's observed pace (14 days over its length, within 4x either way), so epochs
// run long when hash rate falls (the China ban of 2021) and short when it climbs. Simulated once
// from the listing day: a pure function of the day.
import { gauss, type Octave, octaveNoise } from "../util/hash.js";
import { BTC_INCEPTION_DAY, lastAtOrBefore, REF_DAY } from "./levels.js";
import { difficultyPointsOf, hashRatePointsOf } from "./market/calendar.js";

export const EPOCH_BLOCKS = 2016;
/** Seconds per block the retarget aims at, and the days an epoch takes at that pace. */
const BLOCK_SECONDS = 600;
const EPOCH_DAYS = (EPOCH_BLOCKS * BLOCK_SECONDS) / 86_400;
/** Hashes per unit of difficulty per block. */
const HASHES_PER_DIFFICULTY = 2 ** 32;
/** A retarget reflects the hash rate over its epoch: the rate is dated half an epoch before it. */
const LEAD_DAYS = 7;
/** The path is simulated to this day (2031-01-01). */
const LAST_DAY = 22_280;
/** The reference day's difficulty (DiffLast on 2025-12-28). */
const REF_DIFFICULTY = 1.4826e14;

const HASH_OCTAVES: readonly Octave[] = [
  { period: 56, amplitude: 0.02 },
  { period: 14, amplitude: 0.01 },
];
const SEED = 0x0d1ff1a5;
/**
 * Blocks of its epoch already mined at the start of the listing day: the phase that puts the
 * simulated chain's epochs where the real one's were at the two latest halvings (blocks 630,000 and
 * 840,000 fell 1,008 and 1,344 blocks into their epochs; here 1.2 and 0.8 days off), which also
 * lands the China-ban retarget within three days of 2021-07-03.
 */
const START_MINED = 1250;

interface Simulation {
  /** Difficulty of the last block of each day, from the listing day. */
  difficulty: Float64Array;
  /** Blocks mined on each day. */
  blocks: Float64Array;
  /** Hash rate of each day (hashes per second). */
  hash: Float64Array;
  /** Days (fractional, since 1970) on which each retarget took effect. */
  retargets: number[];
}

let sim: Simulation | undefined;

/** Log hash rate from the published retargets: log-linear between them, bridged noise, growth tapering past the last. */
function hashLogs(): Float64Array {
  const points = difficultyPointsOf("btc")!;
  // Published hash rate through shocks joins the rates the retargets imply.
  const shocks = hashRatePointsOf("btc");
  const rows = Array.from(points.days, (d, i): [number, number] => [
    d - LEAD_DAYS,
    points.logs[i]! + Math.log(HASHES_PER_DIFFICULTY / BLOCK_SECONDS),
  ]);
  if (shocks) shocks.days.forEach((d, i) => rows.push([d, shocks.logs[i]! + Math.log(1e18)]));
  rows.sort((a, b) => a[0] - b[0]);
  const days = rows.map(([d]) => d);
  const logs = rows.map(([, l]) => l);
  const out = new Float64Array(LAST_DAY - BTC_INCEPTION_DAY + 1);
  const last = days.length - 1;
  for (let i = 0; i < out.length; i++) {
    const day = BTC_INCEPTION_DAY + i;
    const k = lastAtOrBefore(days, day);
    let log: number;
    let distance: number;
    if (k < 0) [log, distance] = [logs[0]!, days[0]! - day];
    else if (k === last) {
      // Past the last retarget, hash rate grows about 30 %/yr at first, tapering over four years.
      const years = (day - days[last]!) / 365;
      [log, distance] = [logs[last]! + 0.3 * 4 * (1 - Math.exp(-years / 4)), day - days[last]!];
    } else {
      const f = (day - days[k]!) / (days[k + 1]! - days[k]!);
      [log, distance] = [logs[k]! + (logs[k + 1]! - logs[k]!) * f, Math.min(day - days[k]!, days[k + 1]! - day)];
    }
    out[i] = log + octaveNoise(SEED, day, HASH_OCTAVES, distance);
  }
  return out;
}

/** Where mining stands at the start of a day: difficulty, blocks into the epoch, when the epoch began. */
interface Tip {
  d: number;
  mined: number;
  epochStart: number;
}

/**
 * Mines days [from, to) (indices from the listing day) into `out`, from `tip`, which it advances.
 * The hash rate's log is `hashLog` plus `scaleLog` ramped in over the days from `scaleFrom` to the
 * reference day; `poisson` holds each day's standard normal draw for its block count.
 */
function mine(
  out: Simulation,
  tip: Tip,
  from: number,
  to: number,
  hashLog: Float64Array,
  poisson: Float64Array,
  scaleFrom: number,
  scaleLog: number,
): void {
  const { difficulty, blocks, hash, retargets } = out;
  let { d, mined, epochStart } = tip;
  for (let i = from; i < to; i++) {
    const day = BTC_INCEPTION_DAY + i;
    const ramp = day <= scaleFrom ? 0 : Math.min(1, (day - scaleFrom) / (REF_DAY - scaleFrom));
    const h = Math.exp(hashLog[i]! + ramp * scaleLog);
    hash[i] = h;
    // Blocks arrive as a Poisson process: a day's count scatters by its square root.
    const expected = (h * 86_400) / (d * HASHES_PER_DIFFICULTY);
    let todo = Math.max(0, expected * (1 + poisson[i]! / Math.sqrt(Math.max(expected, 1))));
    let left = 1;
    let total = 0;
    while (mined + todo >= EPOCH_BLOCKS) {
      // The epoch's last block falls part-way through the day: retarget by the epoch's pace.
      const part = (EPOCH_BLOCKS - mined) / todo;
      const at = day + (1 - left) + part * left;
      const factor = Math.min(4, Math.max(0.25, EPOCH_DAYS / (at - epochStart)));
      total += EPOCH_BLOCKS - mined;
      // The rest of the day is mined at the new difficulty.
      todo = (todo - (EPOCH_BLOCKS - mined)) / factor;
      left *= 1 - part;
      d *= factor;
      mined = 0;
      epochStart = at;
      retargets.push(at);
    }
    mined += todo;
    total += todo;
    blocks[i] = total;
    difficulty[i] = d;
  }
  Object.assign(tip, { d, mined, epochStart });
}

/**
 * The simulation whose hash rate, scaled in over the last year before the reference day, lands that
 * day on its published difficulty. The days before the scaled year are mined once; the year is
 * mined again for each step of the search.
 */
function build(): Simulation {
  const from = REF_DAY - 365;
  const fromIndex = from - BTC_INCEPTION_DAY;
  const at = REF_DAY - BTC_INCEPTION_DAY;
  const base = hashLogs();
  const n = base.length;
  const poisson = Float64Array.from(base, (_, i) => gauss(SEED ^ 0x5eed, BTC_INCEPTION_DAY + i));
  const out: Simulation = { difficulty: new Float64Array(n), blocks: new Float64Array(n), hash: new Float64Array(n), retargets: [] };
  const start: Tip = { d: Math.exp(difficultyPointsOf("btc")!.logs[0]!), mined: START_MINED, epochStart: BTC_INCEPTION_DAY };
  mine(out, start, 0, fromIndex, base, poisson, from, 0);
  const kept = out.retargets.length;
  const errorAt = (x: number) => {
    out.retargets.length = kept;
    mine(out, { ...start }, fromIndex, at + 1, base, poisson, from, x);
    return Math.log(out.difficulty[at]! / REF_DIFFICULTY);
  };
  // Difficulty at the reference day moves about one for one with the scale (in logs): a few
  // secant steps find it.
  let x0 = 0;
  let e0 = errorAt(x0);
  let x1 = -e0;
  for (let k = 0; k < 8; k++) {
    const e1 = errorAt(x1);
    if (Math.abs(e1) < 1e-9 || e1 === e0) break;
    [x0, x1, e0] = [x1, x1 - (e1 * (x1 - x0)) / (e1 - e0), e1];
  }
  out.retargets.length = kept;
  const tip = { ...start };
  mine(out, tip, fromIndex, n, base, poisson, from, x1);
  // What the search leaves (a retarget moving across the last days makes the curve step) is taken
  // out of the reference day's epoch and the ones after it.
  const ratio = REF_DIFFICULTY / out.difficulty[at]!;
  const epoch = Math.floor(out.retargets[lastAtOrBefore(out.retargets, REF_DAY)]!) - BTC_INCEPTION_DAY;
  for (let i = Math.max(0, epoch); i < n; i++) out.difficulty[i]! *= ratio;
  return out;
}

function simulation(): Simulation {
  return (sim ??= build());
}

function indexOfDay(day: number): number {
  return Math.min(LAST_DAY, Math.max(BTC_INCEPTION_DAY, day)) - BTC_INCEPTION_DAY;
}

/** BTC difficulty of the last block of a day (whole numbers, as published). */
export function btcDifficulty(day: number): number {
  return Math.round(simulation().difficulty[indexOfDay(day)]!);
}

/** BTC blocks mined on a day. */
export function btcBlocks(day: number): number {
  return simulation().blocks[indexOfDay(day)]!;
}

/** BTC hash rate on a day (hashes per second). */
export function btcHashRate(day: number): number {
  return simulation().hash[indexOfDay(day)]!;
}

/** The instants (fractional days since 1970) at which BTC difficulty retargeted. */
export function btcRetargets(): readonly number[] {
  return simulation().retargets;
}
