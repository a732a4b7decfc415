// Order statistics and number formatting shared by the bench sections (pure functions).

export function sorted(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

/** Nearest-rank quantile (q in [0, 1]) of an ascending array. */
export function quantile(asc: readonly number[], q: number): number {
  if (asc.length === 0) return NaN;
  const rank = Math.ceil(q * asc.length) - 1;
  return asc[Math.min(asc.length - 1, Math.max(0, rank))]!;
}

export function median(xs: readonly number[]): number {
  const s = sorted(xs);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface Latency {
  n: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function latency(samplesMs: readonly number[]): Latency {
  const s = sorted(samplesMs);
  return {
    n: s.length,
    min: round(s[0] ?? NaN),
    p50: round(quantile(s, 0.5)),
    p95: round(quantile(s, 0.95)),
    p99: round(quantile(s, 0.99)),
    max: round(s[s.length - 1] ?? NaN),
  };
}

/** Three significant digits at most (results.json stays readable; the noise is larger anyway). */
export function round(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  return Number(x.toFixed(Math.min(digits, 6)));
}

/** Milliseconds from a process.hrtime.bigint() reading to now. */
export function msSince(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** 1234567 → "1.23 M", 12345 → "12,345", 1440 → "1,440", 3 → "3", 12.345 → "12.3". */
export function human(x: number): string {
  if (!Number.isFinite(x)) return "—";
  const a = Math.abs(x);
  if (a >= 1e6) return `${(x / 1e6).toFixed(a >= 1e8 ? 0 : 2)} M`;
  if (a >= 1e4 || Number.isInteger(x)) return Math.round(x).toLocaleString("en-US");
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  return x.toFixed(3);
}
