// The extremes the price path keeps to: all-time highs and months' highs as ceilings, the lowest
// closes that held as floors (both from the calendar of anchors.json), and crash-day and all-time lows.
import { DAY_MS } from "../../../../catalog/index.js";
import { dayOf } from "../levels.js";
import { allTimeLowsOf, ceilingRowsOf, floorRowsOf, highsOf, lowsOf, monthHighsOf, peaksOf, rangesOf } from "./calendar.js";
import type { PathSpec } from "./path.js";
import { monthEndDay } from "./reference.js";

/** How long the last all-time high is taken to hold (the continuation past the anchors). */
const HELD_UNTIL = dayOf("2026-12-31");

/**
 * The calendar's highest prints (ceilings) and all-time highs as spans of log ceilings ((previous
 * high, this one] ≤ this one), plus the months' highs and the highs of monthly ranges.
 */
function ceilingSpans(base: string): PathSpec["ceilings"] {
  const highs: Array<readonly [number, number]> = [...ceilingRowsOf(base), ...highsOf(base)];
  const months: Array<readonly [string, number]> = [...monthHighsOf(base), ...rangesOf(base).map(([m, , hi]) => [m, hi] as const)];
  if (highs.length === 0 && months.length === 0) return undefined;
  highs.sort((a, b) => a[0] - b[0]);
  const spans = highs.map(([day, high], i) => ({ from: i ? highs[i - 1]![0] + 1 : -Infinity, to: day, log: Math.log(high) }));
  if (spans.length) spans.push({ from: spans.at(-1)!.to + 1, to: HELD_UNTIL, log: spans.at(-1)!.log });
  for (const [month, high] of months) spans.push({ from: dayOf(`${month}-01`), to: monthEndDay(month), log: Math.log(high) });
  return spans;
}

const CEILINGS = new Map<string, PathSpec["ceilings"]>();

/** A base's log ceilings (read on first use). */
export function ceilingsOf(base: string): PathSpec["ceilings"] {
  if (!CEILINGS.has(base)) CEILINGS.set(base, ceilingSpans(base));
  return CEILINGS.get(base);
}

/**
 * The calendar's held lows from their day on, the lows of its monthly ranges over their months, and
 * each all-time low from the listing to the day its source still gave it as the all-time low.
 */
export function floorsOf(base: string): PathSpec["floors"] {
  const floors = floorRowsOf(base).map(([from, low]) => ({ from, to: HELD_UNTIL, log: Math.log(low) }));
  for (const [month, low] of rangesOf(base)) floors.push({ from: dayOf(`${month}-01`), to: monthEndDay(month), log: Math.log(low) });
  for (const [, low, held] of allTimeLowsOf(base)) floors.push({ from: -Infinity, to: dayOf(held), log: Math.log(low) });
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

/** A crash day's low (from the calendar's lows): the minute it printed and its log. */
export interface CrashLow {
  minute: number;
  log: number;
}

/** The day and the minute of the day of a calendar instant ("YYYY-MM-DDTHH:MM", UTC). */
function dayAndMinute(t: string): { day: number; minute: number } {
  const ms = Date.parse(`${t}:00Z`);
  return { day: Math.floor(ms / DAY_MS), minute: Math.round((ms % DAY_MS) / 60_000) };
}

const crashLows = new Map<string, Map<number, CrashLow>>();

/** A base's crash-day lows by day (the calendar's crash lows, then its all-time lows on other days; read on first use). */
function crashLowsOf(base: string): Map<number, CrashLow> {
  let lows = crashLows.get(base);
  if (!lows) {
    const byDay = ([t, price]: readonly [string, number, ...unknown[]]) => {
      const { day, minute } = dayAndMinute(t);
      return [day, { minute, log: Math.log(price) }] as const;
    };
    lows = new Map(lowsOf(base).map(byDay));
    for (const [day, low] of allTimeLowsOf(base).map(byDay)) if (!lows.has(day)) lows.set(day, low);
    crashLows.set(base, lows);
  }
  return lows;
}

/** Days of a base's known crash-day lows. */
export function crashLowDays(base: string): number[] {
  return [...crashLowsOf(base).keys()];
}

/** A base's known crash-day lows, by day (undefined when it has none). */
export function crashLowOf(base: string): ((day: number) => CrashLow | undefined) | undefined {
  const lows = crashLowsOf(base);
  return lows.size ? (day) => lows.get(day) : undefined;
}

const peaks = new Map<string, Map<number, CrashLow>>();

/** When in a record day the high printed, where the calendar does not say: midday (UTC). */
const RECORD_MINUTE = 720;

/**
 * A base's known highs by day: the calendar's cycle highs at their minute, and each all-time high
 * (a new record of its highs or highest prints) at midday where no cycle high holds that day; each
 * at most its day's ceiling.
 */
function peaksByDay(base: string): Map<number, CrashLow> {
  let map = peaks.get(base);
  if (!map) {
    map = new Map();
    for (const [t, price] of peaksOf(base)) {
      const { day, minute } = dayAndMinute(t);
      map.set(day, { minute, log: Math.min(Math.log(price), ceilingLog(base, day)) });
    }
    const records = [...highsOf(base), ...ceilingRowsOf(base).filter(([, high], i, rows) => i === 0 || high > rows[i - 1]![1])];
    for (const [day, high] of records)
      if (!map.has(day)) map.set(day, { minute: RECORD_MINUTE, log: Math.min(Math.log(high), ceilingLog(base, day)) });
    peaks.set(base, map);
  }
  return map;
}

/** Days of a base's known highs. */
export function peakDays(base: string): number[] {
  return [...peaksByDay(base).keys()];
}

/** A base's known highs, by day (undefined when it has none). */
export function peakOf(base: string): ((day: number) => CrashLow | undefined) | undefined {
  const map = peaksByDay(base);
  return map.size ? (day) => map.get(day) : undefined;
}
