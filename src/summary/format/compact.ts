// What every structured result shares: numbers at a model's precision, times in their shortest
// exact ISO form, [time, value] pairs, and no nulls. A host that gives the model
// JSON.stringify(structuredContent) instead of the text pays for every character of it.
import { z } from "zod";

import { seriesValueFormatter } from "./format.js";

/**
 * A statistic at 6 significant digits, or whole from 100,000 up (never zeros standing in for
 * digits: 36,409,745,925.6 is 36409745926, not 36410000000); integers as they are.
 */
export function num(x: number): number {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x + 0;
  if (Math.abs(x) >= 100_000) return Math.round(x) + 0;
  return Number(x.toPrecision(6)) + 0;
}

/** An ISO time at its own precision: "2025-12-27" at midnight UTC, else "2025-12-27T14:05Z" (seconds when present). */
export function when(iso: string): string {
  if (iso.length < 20 || !iso.endsWith("Z")) return iso;
  if (iso.endsWith("T00:00:00.000Z")) return iso.slice(0, 10);
  if (iso.endsWith(":00.000Z")) return `${iso.slice(0, 16)}Z`;
  return iso.endsWith(".000Z") ? `${iso.slice(0, 19)}Z` : iso;
}

/** A time: ISO 8601 UTC, a date alone meaning midnight (said once, on the pairs, to keep the schemas short). */
export const timeField = z.string();
export const pairSchema = z.tuple([timeField, z.number()]).describe("[time, value]; times are ISO 8601 UTC, a date alone meaning midnight");
export type Pair = z.infer<typeof pairSchema>;

export function pair(p: { time: string; value: number }): Pair {
  return [when(p.time), num(p.value)];
}

export const pointsSchema = z
  .record(z.string(), z.array(z.tuple([z.string(), z.number()])))
  .describe(
    'points grouped under their UTC month "YYYY-MM" as ["DD", value] (daily) or ["DD HH:MM", value]; monthly points under "YYYY" as ["MM", value]',
  );

/**
 * Points grouped by month as the text prints them, with the text's numbers raw in the unit (79.6B
 * is 79600000000): its precision (a 200th of their range), never a scale to apply. The same cost
 * per point whatever the range.
 */
export function groupedPoints(
  points: ReadonlyArray<{ time: string; value: number }>,
  at: "day" | "minute" | "month",
): z.infer<typeof pointsSchema> {
  const block = seriesValueFormatter(points.map((p) => p.value));
  const out: Record<string, Array<[string, number]>> = {};
  for (const p of points) {
    const t = p.time;
    const key = at === "month" ? t.slice(0, 4) : t.slice(0, 7);
    const within = at === "month" ? t.slice(5, 7) : at === "day" ? t.slice(8, 10) : `${t.slice(8, 10)} ${t.slice(11, 16)}`;
    (out[key] ??= []).push([within, block.value(p.value)]);
  }
  return out;
}

/** The object without its null and undefined members. */
export function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out as { [K in keyof T]: Exclude<T[K], null> };
}
