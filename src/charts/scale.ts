// Scales and tick choice for the charts: linear value ticks at 1/2/5 steps, UTC time ticks at
// calendar-friendly steps.

export interface Linear {
  (v: number): number;
  domain: [number, number];
  range: [number, number];
  invert(px: number): number;
}

export function linear(domain: [number, number], range: [number, number]): Linear {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  const f = ((v: number) => r0 + ((v - d0) / span) * (r1 - r0)) as Linear;
  f.domain = domain;
  f.range = range;
  f.invert = (px: number) => d0 + ((px - r0) / (r1 - r0 || 1)) * span;
  return f;
}

/** About `count` round ticks inside [lo, hi]. */
export function niceTicks(lo: number, hi: number, count: number): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi <= lo) return Number.isFinite(lo) ? [lo] : [];
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return ticks;
}

/** A value range padded by `pad` of its span (a flat series gets ±1 % of its level). */
export function padded(lo: number, hi: number, pad = 0.05): [number, number] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi === lo) {
    const d = Math.abs(lo) * 0.01 || 1;
    return [lo - d, hi + d];
  }
  const d = (hi - lo) * pad;
  return [lo - d, hi + d];
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const TIME_STEPS = [MIN, 5 * MIN, 15 * MIN, 30 * MIN, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY];

/** About `count` UTC ticks in [t0, t1]: minute/hour/day steps, then month starts, then year starts. */
export function timeTicks(t0: number, t1: number, count: number): number[] {
  if (!(t1 > t0)) return Number.isFinite(t0) ? [t0] : [];
  const raw = (t1 - t0) / Math.max(1, count);
  const step = TIME_STEPS.find((s) => s >= raw);
  if (step !== undefined) {
    const ticks: number[] = [];
    for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) ticks.push(t);
    return ticks;
  }
  const months = [1, 2, 3, 6, 12, 24, 48].find((m) => m * 30 * DAY >= raw) ?? 96;
  const monthStep = Math.min(months, 12);
  const ticks: number[] = [];
  const d = new Date(t0);
  let y = d.getUTCFullYear();
  // Month index (0-based) of the first aligned month start at or after t0.
  let m = Math.ceil(d.getUTCMonth() / monthStep) * monthStep;
  if (Date.UTC(y, m, 1) < t0) m += monthStep;
  for (;;) {
    y += Math.floor(m / 12);
    m %= 12;
    const t = Date.UTC(y, m, 1);
    if (t > t1) break;
    if (months <= 12 || y % (months / 12) === 0) ticks.push(t);
    m += monthStep;
  }
  return ticks;
}
