// What pegged prices do besides their peg: a stablecoin's mean-reverting wobble around $1 and its
// dated depegs, a gold token's basis to gold, and a wrapped coin's basis to its underlying with
// the discounts it traded at (the calendar's "depegs" and "wraps" of anchors.json).
import { DAY_MS } from "../../../../catalog/index.js";
import { type Octave, octaveNoise } from "../../util/hash.js";
import { depegOf, wrapEventOf } from "./calendar.js";

/** A USD stablecoin: $1 within a few tenths of a percent, mean-reverting. */
export const PEG_OCTAVES: readonly Octave[] = [
  { period: 30, amplitude: 0.0012 },
  { period: 5, amplitude: 0.0008 },
  { period: 1, amplitude: 0.0006 },
];
/** A gold token's basis to gold (custody, redemption fees): a tenth of a percent or two. */
export const BASIS_OCTAVES: readonly Octave[] = [
  { period: 20, amplitude: 0.0015 },
  { period: 2, amplitude: 0.0008 },
];
/**
 * A custodial wrap's basis to its coin (minting and redeeming go through a custodian and take a
 * day or more): a few hundredths of a percent to a tenth. A contract wrap (WETH) redeems in the
 * same block, so its basis is a quarter of that.
 */
const WRAP_OCTAVES: readonly Octave[] = [
  { period: 15, amplitude: 0.0008 },
  { period: 2, amplitude: 0.0004 },
];
const CONTRACT_WRAPS = new Set(["weth"]);

/** Largest log basis a wrapped coin's own wobble reaches (its octaves' amplitudes summed). */
export const WRAP_BAND = WRAP_OCTAVES.reduce((s, o) => s + o.amplitude, 0);

/** One episode off the peg: instants, log prices (USD, or against the underlying for a wrap), first and last day. */
interface Episode {
  times: Float64Array;
  logs: Float64Array;
  firstDay: number;
  lastDay: number;
}

/** A coin's dated episodes off its peg (a depeg, a wrap's discount), in order. */
export interface PegEvents {
  episodes: readonly Episode[];
  /** Whether an episode touches the day. */
  covers(day: number): boolean;
  /** Log offset at an instant (0 outside every episode). */
  log(ms: number): number;
}

/** A row back at par followed by one more than this many days later ends an episode. */
const EPISODE_GAP_DAYS = 2;

function episodeOf(points: ReadonlyArray<readonly [string, number]>): Episode {
  const times = Float64Array.from(points, ([t]) => Date.parse(`${t}:00Z`));
  return {
    times,
    logs: Float64Array.from(points, ([, p]) => Math.log(p)),
    firstDay: Math.floor(times[0]! / DAY_MS),
    lastDay: Math.floor(times.at(-1)! / DAY_MS),
  };
}

/** Log of an episode's price at an instant (0 outside it). */
function episodeLog({ times, logs }: Episode, ms: number): number {
  if (ms <= times[0]! || ms >= times[times.length - 1]!) return 0;
  let i = 0;
  while (times[i + 1]! < ms) i++;
  const f = (ms - times[i]!) / (times[i + 1]! - times[i]!);
  return logs[i]! + (logs[i + 1]! - logs[i]!) * f;
}

/** The calendar's rows of a coin, split into episodes where the price is back at par and the next row comes days later. */
function eventsOf(points: ReadonlyArray<readonly [string, number]>): PegEvents | undefined {
  if (!points.length) return undefined;
  const episodes: Episode[] = [];
  let from = 0;
  for (let i = 0; i < points.length; i++) {
    const next = points[i + 1];
    const gap = next ? (Date.parse(`${next[0]}:00Z`) - Date.parse(`${points[i]![0]}:00Z`)) / DAY_MS : Infinity;
    if (points[i]![1] === 1 && i > from && gap > EPISODE_GAP_DAYS) {
      episodes.push(episodeOf(points.slice(from, i + 1)));
      from = i + 1;
    }
  }
  if (from < points.length) episodes.push(episodeOf(points.slice(from)));
  const at = (day: number) => episodes.find((e) => day >= e.firstDay && day <= e.lastDay);
  return {
    episodes,
    covers: (day) => at(day) !== undefined,
    log: (ms) => {
      const e = at(Math.floor(ms / DAY_MS));
      return e ? episodeLog(e, ms) : 0;
    },
  };
}

const depegs = new Map<string, PegEvents | undefined>();
const wraps = new Map<string, PegEvents | undefined>();

/** A stablecoin's depegs from the calendar (read on first use), if it had any. */
export function depegEventOf(base: string): PegEvents | undefined {
  if (!depegs.has(base)) depegs.set(base, eventsOf(depegOf(base)));
  return depegs.get(base);
}

/** A wrapped coin's dated discounts to its underlying (read on first use), if it had any. */
export function wrapEventOfAsset(asset: string): PegEvents | undefined {
  if (!wraps.has(asset)) wraps.set(asset, eventsOf(wrapEventOf(asset)));
  return wraps.get(asset);
}

/** The events' log at the close of a day (the price at its end), 0 on days no episode touches. */
export function eventCloseLog(events: PegEvents | undefined, day: number): number {
  return events && events.covers(day) ? events.log((day + 1) * DAY_MS) : 0;
}

/** A wrapped coin's log basis to its underlying at a day's close: its wobble plus any dated discount. */
export function wrapLog(asset: string, seed: number, day: number): number {
  const wobble = octaveNoise(seed ^ 0x77a9, day, WRAP_OCTAVES) * (CONTRACT_WRAPS.has(asset) ? 0.25 : 1);
  return wobble + eventCloseLog(wrapEventOfAsset(asset), day);
}
