// Shared pieces of the data-truth checks: the check type, fixed seeds and small helpers.
import fc from "fast-check";

import { generateColumns } from "../../src/backend/inprocess/readings/index.js";
import { DAY_MS, endpointById } from "../../src/catalog/index.js";

export interface CheckResult {
  ok: boolean;
  /** What was checked: how many assets, dates, points. */
  checked: string;
  /** The worst deviation found, in the check's own terms. */
  worst: string;
}

export interface Check {
  id: string;
  group: "calibration" | "invariant" | "time";
  claim: string;
  run(): CheckResult;
}

export const SEED = 20251228;
export const REF = Math.round(Date.parse("2025-12-28T00:00:00Z") / DAY_MS);
/** A "now" well past the reference day, as the real clock is. */
export const NOW = Date.parse("2026-11-23T06:00:00Z");
/** Deterministic draws: the same cases on every run. */
export const sample = <T>(arb: fc.Arbitrary<T>, numRuns: number, salt = 0): T[] => fc.sample(arb, { seed: SEED + salt, numRuns });
export const ep = (id: string) => endpointById(id)!;
export const values = (id: string, asset: string, fromDay: number, toDay: number, extra = {}) =>
  generateColumns({ endpoint: ep(id), asset, timeframe: "1d", startMs: fromDay * DAY_MS, endMs: toDay * DAY_MS, ...extra });
export const fmt = (x: number, d = 3) => (Number.isFinite(x) ? Number(x.toPrecision(d)).toString() : String(x));
export const iso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
