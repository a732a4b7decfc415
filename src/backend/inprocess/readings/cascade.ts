// Multiplicative cascade that splits a daily total into intraday buckets: day → 24 hours →
// 4 quarters → 3 five-minute slots → 5 minutes, each level's weights normalized to sum to 1, so
// sums across timeframes hold by construction and any day can be generated on its own.
import type { Timeframe } from "../../../catalog/index.js";
import { gauss, u01 } from "../util/hash.js";

/** Intraday activity by UTC hour: peak 13–16 (US open over the European afternoon), trough 03–06. */
const SEASON = Float64Array.from({ length: 24 }, (_, h) => {
  const main = Math.cos((2 * Math.PI * (h + 0.5 - 15)) / 24);
  const second = Math.cos((4 * Math.PI * (h + 0.5 - 15)) / 24);
  const usOpen = Math.exp(-((h + 0.5 - 14) ** 2) / 3);
  return 1 + 0.32 * main + 0.08 * second + 0.25 * usOpen;
});

/** Buckets of a timeframe per day. */
export const BUCKETS_PER_DAY: Record<Timeframe, number> = {
  "1m": 1440,
  "5m": 288,
  "15m": 96,
  "30m": 48,
  "1h": 24,
  "4h": 6,
  "6h": 4,
  "12h": 2,
  "1d": 1,
};

/** Scratch buffers, reused: generation is synchronous, so one set per process is enough. */
const hours = new Float64Array(24);
const quarters = new Float64Array(96);
const fives = new Float64Array(288);
const minutes = new Float64Array(1440);

export interface CascadeSeeds {
  /** Shared by every additive series of an asset: volume and trade counts move together. */
  common: number;
  /** Specific to one series: its own texture on top of the shared one. */
  own: number;
  /** Activity multiplier per UTC hour of a day (price moves draw volume); 1 when absent. */
  hourly?: (day: number) => Float64Array;
}

function weight(seeds: CascadeSeeds, index: number, sigma: number): number {
  return Math.exp(sigma * (0.8 * gauss(seeds.common, index) + 0.45 * gauss(seeds.own, index)));
}

/** Normalizes `count` children of each parent in place (children are contiguous). */
function normalizeGroups(values: Float64Array, groups: number, count: number): void {
  for (let g = 0; g < groups; g++) {
    let sum = 0;
    const start = g * count;
    for (let i = start; i < start + count; i++) sum += values[i]!;
    const inv = 1 / sum;
    for (let i = start; i < start + count; i++) values[i]! *= inv;
  }
}

function hourWeights(seeds: CascadeSeeds, day: number): void {
  const activity = seeds.hourly?.(day);
  for (let h = 0; h < 24; h++) {
    const index = day * 24 + h;
    // Occasional bursts (liquidation cascades, news): 2–5× for an hour.
    const burst = u01(seeds.common ^ 0x3c6ef372, index) < 0.02 ? 2 + 3 * u01(seeds.common ^ 0x7f4a7c15, index) : 1;
    hours[h] = SEASON[h]! * burst * (activity ? activity[h]! : 1) * weight(seeds, index, 0.22);
  }
  normalizeGroups(hours, 1, 24);
}

function childWeights(
  seeds: CascadeSeeds,
  out: Float64Array,
  parents: number,
  count: number,
  firstIndex: number,
  sigma: number,
  salt: number,
): void {
  const s = { common: seeds.common ^ salt, own: seeds.own ^ salt };
  for (let i = 0; i < parents * count; i++) out[i] = weight(s, firstIndex + i, sigma);
  normalizeGroups(out, parents, count);
}

/**
 * Writes the day's buckets of `timeframe` (total × cascade weights) into `out` from `offset`;
 * returns the number written (BUCKETS_PER_DAY[timeframe]).
 */
export function fillDay(seeds: CascadeSeeds, day: number, total: number, timeframe: Timeframe, out: Float64Array, offset: number): number {
  if (timeframe === "1d") {
    out[offset] = total;
    return 1;
  }
  hourWeights(seeds, day);
  const perDay = BUCKETS_PER_DAY[timeframe];
  if (perDay <= 24) {
    const span = 24 / perDay;
    for (let b = 0; b < perDay; b++) {
      let w = 0;
      for (let h = b * span; h < (b + 1) * span; h++) w += hours[h]!;
      out[offset + b] = total * w;
    }
    return perDay;
  }
  childWeights(seeds, quarters, 24, 4, day * 96, 0.25, 0x51ed270b);
  if (timeframe === "30m" || timeframe === "15m") {
    for (let q = 0; q < 96; q++) quarters[q]! *= hours[q >> 2]!;
    if (timeframe === "15m") {
      for (let q = 0; q < 96; q++) out[offset + q] = total * quarters[q]!;
    } else {
      for (let b = 0; b < 48; b++) out[offset + b] = total * (quarters[2 * b]! + quarters[2 * b + 1]!);
    }
    return perDay;
  }
  childWeights(seeds, fives, 96, 3, day * 288, 0.3, 0x2d358dcc);
  for (let q = 0; q < 96; q++) {
    const w = total * hours[q >> 2]! * quarters[q]!;
    for (let k = 3 * q; k < 3 * q + 3; k++) fives[k]! *= w;
  }
  if (timeframe === "5m") {
    out.set(fives, offset);
    return 288;
  }
  childWeights(seeds, minutes, 288, 5, day * 1440, 0.35, 0x6a09e667);
  for (let f = 0; f < 288; f++) {
    const w = fives[f]!;
    const base = 5 * f;
    for (let m = base; m < base + 5; m++) out[offset + m] = w * minutes[m]!;
  }
  return 1440;
}

/** Splits the integer `n` over `count` weights (summing to 1) from `from`: whole parts summing to n. */
function splitInto(n: number, weights: Float64Array, from: number, count: number, out: Float64Array, at: number): void {
  let cum = 0;
  let prev = 0;
  for (let i = 0; i < count; i++) {
    cum += weights[from + i]!;
    const next = i === count - 1 ? n : Math.round(n * cum);
    out[at + i] = next - prev;
    prev = next;
  }
}

const hourCounts = new Float64Array(24);
const quarterCounts = new Float64Array(96);
const fiveCounts = new Float64Array(288);

/**
 * The count-valued twin of fillDay: the day's whole count is split into whole hours, each hour
 * into whole quarters, and so on down to minutes, so every bucket at every timeframe is an
 * integer and the sums across timeframes hold exactly.
 */
export function fillDayCounts(
  seeds: CascadeSeeds,
  day: number,
  total: number,
  timeframe: Timeframe,
  out: Float64Array,
  offset: number,
): number {
  const n = Math.round(total);
  if (timeframe === "1d") {
    out[offset] = n;
    return 1;
  }
  hourWeights(seeds, day);
  splitInto(n, hours, 0, 24, hourCounts, 0);
  const perDay = BUCKETS_PER_DAY[timeframe];
  if (perDay <= 24) {
    const span = 24 / perDay;
    for (let b = 0; b < perDay; b++) {
      let c = 0;
      for (let h = b * span; h < (b + 1) * span; h++) c += hourCounts[h]!;
      out[offset + b] = c;
    }
    return perDay;
  }
  childWeights(seeds, quarters, 24, 4, day * 96, 0.25, 0x51ed270b);
  for (let h = 0; h < 24; h++) splitInto(hourCounts[h]!, quarters, 4 * h, 4, quarterCounts, 4 * h);
  if (timeframe === "15m") {
    out.set(quarterCounts, offset);
    return 96;
  }
  if (timeframe === "30m") {
    for (let b = 0; b < 48; b++) out[offset + b] = quarterCounts[2 * b]! + quarterCounts[2 * b + 1]!;
    return 48;
  }
  childWeights(seeds, fives, 96, 3, day * 288, 0.3, 0x2d358dcc);
  for (let q = 0; q < 96; q++) splitInto(quarterCounts[q]!, fives, 3 * q, 3, fiveCounts, 3 * q);
  if (timeframe === "5m") {
    out.set(fiveCounts, offset);
    return 288;
  }
  childWeights(seeds, minutes, 288, 5, day * 1440, 0.35, 0x6a09e667);
  for (let f = 0; f < 288; f++) splitInto(fiveCounts[f]!, minutes, 5 * f, 5, out, offset + 5 * f);
  return 1440;
}
