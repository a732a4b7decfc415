// What pegged prices do besides their peg: a stablecoin's mean-reverting wobble around $1 and its
// dated depegs, a gold token's basis to gold, and a wrapped coin's basis to its underlying with
// the discounts it traded at (the calendar's "depegs" and "wraps" of anchors.json).
import { DAY_MS } from "../../../../catalog/index.js";
import { octaveNoise, type Octave } from "../hash.js";
import { depegOf, wrapEventOf } from "./calendar.js";

/** A USD stablecoin: $1 within a few tenths of a percent, mean-reverting. */
export const PEG_OCTAVES: readonly Octave[] = [
  { period: 30, amplitude: 0.0012 }, { period: 5, amplitude: 0.0008 }, { period: 1, amplitude: 0.0006 },
];
/** A gold token's basis to gold (custody, redemption fees): a tenth of a percent or two. */
export const BASIS_OCTAVES: readonly Octave[] = [{ period: 20, amplitude: 0.0015 }, { period: 2, amplitude: 0.0008 }];
/**
 * A custodial wrap's basis to its coin (minting and redeeming go through a custodian and take a
 * day or more): a few hundredths of a percent to a tenth. A contract wrap (WETH) redeems in the
 * same block, so its basis is a quarter of that.
 */
const WRAP_OCTAVES: readonly Octave[] = [{ period: 15, amplitude: 0.0008 }, { period: 2, amplitude: 0.0004 }];
const CONTRACT_WRAPS = new Set(["weth"]);

/** Largest log basis a wrapped coin's own wobble reaches (its octaves' amplitudes summed). */
export const WRAP_BAND = WRAP_OCTAVES.reduce((s, o) => s + o.amplitude, 0);

/** A dated event off the peg: instants, log prices (USD, or against the underlying for a wrap), first and last day. */
export interface PegEvent {
  times: Float64Array;
  logs: Float64Array;
  firstDay: number;
  lastDay: number;
}

function eventOf(points: ReadonlyArray<readonly [string, number]>): PegEvent | undefined {
  if (!points.length) return undefined;
  const times = Float64Array.from(points, ([t]) => Date.parse(`${t}:00Z`));
  return { times, logs: Float64Array.from(points, ([, p]) => Math.log(p)), firstDay: Math.floor(times[0]! / DAY_MS), lastDay: Math.floor(times.at(-1)! / DAY_MS) };
}

const depegs = new Map<string, PegEvent | undefined>();
const wraps = new Map<string, PegEvent | undefined>();

/** A stablecoin's depeg from the calendar (read on first use), if it had one. */
export function depegEventOf(base: string): PegEvent | undefined {
  if (!depegs.has(base)) depegs.set(base, eventOf(depegOf(base)));
  return depegs.get(base);
}

/** A wrapped coin's dated discount to its underlying (read on first use), if it had one. */
export function wrapEventOfAsset(asset: string): PegEvent | undefined {
  if (!wraps.has(asset)) wraps.set(asset, eventOf(wrapEventOf(asset)));
  return wraps.get(asset);
}

/** Log of an event's price at an instant (0 outside it). */
export function eventLog(event: PegEvent, ms: number): number {
  const { times, logs } = event;
  if (ms <= times[0]! || ms >= times[times.length - 1]!) return 0;
  let i = 0;
  while (times[i + 1]! < ms) i++;
  const f = (ms - times[i]!) / (times[i + 1]! - times[i]!);
  return logs[i]! + (logs[i + 1]! - logs[i]!) * f;
}

/** The event's log at the close of a day (the price at its end), 0 on days it does not touch. */
export function eventCloseLog(event: PegEvent | undefined, day: number): number {
  return event && day >= event.firstDay && day <= event.lastDay ? eventLog(event, (day + 1) * DAY_MS) : 0;
}

/** The event as the minute path's shock (its log offset at an instant), if any. */
export function shockOf(event: PegEvent | undefined): { firstDay: number; lastDay: number; log(ms: number): number } | undefined {
  return event && { firstDay: event.firstDay, lastDay: event.lastDay, log: (ms) => eventLog(event, ms) };
}

/** A wrapped coin's log basis to its underlying at a day's close: its wobble plus any dated discount. */
export function wrapLog(asset: string, seed: number, day: number): number {
  const wobble = octaveNoise(seed ^ 0x77a9, day, WRAP_OCTAVES) * (CONTRACT_WRAPS.has(asset) ? 0.25 : 1);
  return wobble + eventCloseLog(wrapEventOfAsset(asset), day);
}
