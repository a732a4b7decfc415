// Unicode sparklines and a trend label for short series such as the 7-day values of metrics-variation.

const BARS = "▁▂▃▄▅▆▇█";

/**
 * One bar per value scaled min→▁ … max→█; a constant series is all ▄, a non-finite value a space.
 * With `minSpan` (a share of the level, the largest |value|), the bars span at least that much
 * around the middle, so a move too small to call a trend stays a small wiggle.
 */
export function sparkline(values: ArrayLike<number | null>, minSpan = 0): string {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== "number" || !Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const constant = hi === lo;
  const span = minSpan * Math.max(Math.abs(lo), Math.abs(hi));
  if (!constant && hi - lo < span) {
    const mid = (hi + lo) / 2;
    lo = mid - span / 2;
    hi = mid + span / 2;
  }
  let out = "";
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== "number" || !Number.isFinite(v)) out += " ";
    else if (constant) out += BARS[3];
    else out += BARS[Math.round(((v - lo) / (hi - lo)) * (BARS.length - 1))];
  }
  return out;
}

export const TRENDS = ["rising", "falling", "flat", "volatile", "n/a"] as const;
export type Trend = (typeof TRENDS)[number];

/** Range below this share of the level (largest |value|) reads as flat. */
export const FLAT_RANGE_SHARE = 0.005;
/** Least-squares change over the window must cover this share of the range to be a trend. */
export const TREND_SHARE = 0.6;

/** The rule, in words, for legends next to the labels. */
export const TREND_RULE = `trend: flat when the 7-day range is under ${FLAT_RANGE_SHARE * 100} % of the level; rising/falling when the least-squares line's change over the window is at least ${TREND_SHARE * 100} % of the range; otherwise volatile`;

/**
 * Trend of a short series from its finite values (position = index): "n/a" with fewer than 2;
 * "flat" when max − min < 0.5 % of max |value| (or 0); else slope × span / range ≥ 0.6 → "rising",
 * ≤ −0.6 → "falling", otherwise "volatile" (it moved, but not steadily one way).
 */
export function trendLabel(values: ArrayLike<number | null>): Trend {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let lo = Infinity;
  let hi = -Infinity;
  let firstX = -1;
  let lastX = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== "number" || !Number.isFinite(v)) continue;
    n++;
    sx += i;
    sy += v;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if (firstX < 0) firstX = i;
    lastX = i;
  }
  if (n < 2) return "n/a";
  const range = hi - lo;
  const level = Math.max(Math.abs(lo), Math.abs(hi));
  if (range === 0 || range < FLAT_RANGE_SHARE * level) return "flat";
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== "number" || !Number.isFinite(v)) continue;
    sxy += (i - mx) * (v - my);
    sxx += (i - mx) * (i - mx);
  }
  const fitted = (sxy / sxx) * (lastX - firstX);
  const ratio = fitted / range;
  if (ratio >= TREND_SHARE) return "rising";
  if (ratio <= -TREND_SHARE) return "falling";
  return "volatile";
}
