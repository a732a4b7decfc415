// When a correlation is more than noise: the |r| a Pearson correlation of n pairs must reach to be
// significant at a two-sided level, Bonferroni-corrected for the number of correlations tried.

/** The level every compare answer states: 5 %, two-sided, over all correlations tried together. */
export const SIGNIFICANCE = 0.05;

/** Standard normal quantile for an upper tail p in (0, 0.5] (Abramowitz & Stegun 26.2.23, error < 4.5e-4). */
export function normalUpperQuantile(p: number): number {
  const t = Math.sqrt(-2 * Math.log(p));
  return t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
}

/** Student's t quantile for an upper tail p with df degrees of freedom (Cornish-Fisher from the normal's). */
export function tUpperQuantile(p: number, df: number): number {
  const z = normalUpperQuantile(p);
  const z3 = z ** 3;
  const z5 = z ** 5;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df);
}

/**
 * Smallest |r| of n pairs significant at `level` (two-sided) when `tests` correlations are tried
 * and the best is kept: r = t / √(df + t²), df = n − 2, t at level / (2 · tests). NaN below 4 pairs.
 */
export function criticalR(n: number, tests = 1, level = SIGNIFICANCE): number {
  if (!(n >= 4)) return Number.NaN;
  const df = n - 2;
  const t = tUpperQuantile(level / (2 * Math.max(1, tests)), df);
  return t / Math.sqrt(df + t * t);
}
