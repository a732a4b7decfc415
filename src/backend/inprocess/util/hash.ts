// Counter-based noise: every value is a hash of (seed, index), so any bucket can be generated
// without replaying a sequence from some start date (range independence by construction).

/** A 32-bit integer finalizer (lowbias32): good avalanche, cheap, pure. */
export function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Hash of a seed and one integer index (indices up to ±2^31). */
export function hash2(seed: number, i: number): number {
  return mix32((seed ^ mix32((i | 0) + 0x9e3779b9)) >>> 0);
}

/** Seed from a string (FNV-1a, then mixed). */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return mix32(h >>> 0);
}

/** Uniform in [0, 1) from a hash. */
export function unit(h: number): number {
  return h / 4294967296;
}

/** Uniform in [0, 1) at (seed, i). */
export function u01(seed: number, i: number): number {
  return hash2(seed, i) / 4294967296;
}

/** Uniform in [-1, 1) at (seed, i). */
export function s11(seed: number, i: number): number {
  return hash2(seed, i) / 2147483648 - 1;
}

/**
 * Approximately standard normal at (seed, i): the sum of four 16-bit uniforms (Irwin–Hall),
 * rescaled. Tails stop at ±3.46σ, which keeps generated series free of absurd outliers.
 */
export function gauss(seed: number, i: number): number {
  const a = hash2(seed, i);
  const b = mix32(a ^ 0x5bd1e995);
  const sum = (a & 0xffff) + (a >>> 16) + (b & 0xffff) + (b >>> 16);
  return (sum / 65536 - 2) * 1.7320508075688772;
}

/** Smoothly interpolated hashed values in [-1, 1) with one knot every `period` units of x. */
export function valueNoise(seed: number, x: number, period: number): number {
  const p = x / period;
  const k = Math.floor(p);
  const f = p - k;
  const a = s11(seed, k);
  if (f === 0) return a;
  const b = s11(seed, k + 1);
  const t = f * f * (3 - 2 * f);
  return a + (b - a) * t;
}

export interface Octave {
  period: number;
  amplitude: number;
}

/**
 * Sum of value-noise octaves. `pinDistance` (≥ 0, in x units) is the distance to the nearest
 * pinned point: each octave fades linearly to 0 within one period of it, so the sum is exactly 0
 * at pins and fine octaves survive right next to them (a bridge that keeps daily texture).
 */
export function octaveNoise(seed: number, x: number, octaves: readonly Octave[], pinDistance = Infinity): number {
  let sum = 0;
  for (let o = 0; o < octaves.length; o++) {
    const { period, amplitude } = octaves[o]!;
    const fade = pinDistance >= period ? 1 : pinDistance / period;
    if (fade === 0) continue;
    sum += amplitude * fade * valueNoise(seed + o * 0x632be5ab, x, period);
  }
  return sum;
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 via erf; |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}
