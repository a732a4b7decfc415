// Leverage-tier liquidation model: positions open at each candle's close, split over leverage
// tiers, each tier's liquidation price holds notional until a later candle trades through it.
// One pass over the columns with incremental state: O(columns × levels).
import { cellMatrix } from "../../../catalog/heatmap-typed.js";

/** Leverage tiers and their share of new notional (the common open reconstruction's defaults). */
export const TIERS: ReadonlyArray<readonly [leverage: number, weight: number]> = [
  [5, 0.15],
  [10, 0.3],
  [25, 0.25],
  [50, 0.2],
  [100, 0.1],
];
/** Maintenance margin rate (Binance BTCUSDT's lower tiers are 0.4–0.5 %). */
export const MMR = 0.005;

/** Spread of one tier's notional over neighbouring levels (liquidation prices scatter with entries). */
const SPREAD = [0.5, 0.3, 0.2];

/** Candles as columns: the model reads each column's high, low and close. */
export interface CandleRange {
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

export interface LiquidationInput {
  candles: CandleRange;
  /** New leveraged notional per column (USD). */
  entries: Float64Array;
  /** Long share of new notional per column (0..1). */
  longShare: Float64Array;
  /** Fraction of open notional still open after one column (voluntary closes). */
  keep: number;
  /** Price levels, uniform and increasing. */
  levels: Float64Array;
  /** Columns before this index only warm the state up; the output starts here. */
  firstOutput: number;
}

export interface LiquidationOutput {
  /** Open long liquidation notional, [level][column]. */
  longs: Float64Array[];
  /** Open short liquidation notional, [level][column]. */
  shorts: Float64Array[];
}

/** Which side's notional a matrix holds: both summed (the heatmap), or one (to look at a side alone). */
export type Sides = "both" | "long" | "short";

/**
 * A candle's new positions at the bins of their liquidation prices: each leverage tier's share of the
 * notional, long and short, spread over the bins next to it.
 */
function openPositions(
  book: { long: Float64Array; short: Float64Array; lo: number; step: number },
  close: number,
  notional: number,
  longShare: number,
): void {
  const { long, short, lo, step } = book;
  const n = long.length;
  const closeBin = Math.floor((close - lo) / step);
  const longPart = notional * longShare;
  const shortPart = notional - longPart;
  for (const [leverage, weight] of TIERS) {
    // The bin holding the liquidation price; a short's bin is above the close's own (whose level
    // reads as below the price), so neither side lands on the wrong one.
    const longLevel = Math.floor((close * (1 - 1 / leverage + MMR) - lo) / step);
    const shortLevel = Math.max(closeBin + 1, Math.floor((close * (1 + 1 / leverage - MMR) - lo) / step));
    for (let s = 0; s < SPREAD.length; s++) {
      const li = longLevel - s;
      if (li >= 0 && li < n) long[li]! += longPart * weight * SPREAD[s]!;
      const si = shortLevel + s;
      if (si >= 0 && si < n) short[si]! += shortPart * weight * SPREAD[s]!;
    }
  }
}

/**
 * Runs the model and writes the open liquidation notional per level and output column into one
 * row-major matrix (levels × output columns); returns it with its largest cell. A column is
 * written in the same pass over the levels that decays it into the next one: one pass per column.
 */
export function liquidationMatrix(input: LiquidationInput, sides: Sides = "both"): { cells: Float64Array; peak: number } {
  const { candles, entries, longShare, keep, levels, firstOutput } = input;
  const n = levels.length;
  const total = candles.close.length;
  const cols = Math.max(0, total - firstOutput);
  const lo = levels[0]!;
  const step = n > 1 ? levels[1]! - lo : 1;
  // × 1 and + 0 are exact: a one-sided matrix holds that side's values bit for bit.
  const wl = sides === "short" ? 0 : 1;
  const ws = sides === "long" ? 0 : 1;
  const cells = cellMatrix(n * cols);
  let peak = 0;
  const long = new Float64Array(n);
  const short = new Float64Array(n);
  const book = { long, short, lo, step };
  for (let c = 0; c <= total; c++) {
    // The state now holds column c − 1 in full: write it if it is an output column.
    const out = c - 1 - firstOutput;
    if (c === total) {
      if (out >= 0) {
        for (let i = 0, k = out; i < n; i++, k += cols) {
          const v = wl * long[i]! + ws * short[i]!;
          cells[k] = v;
          if (v > peak) peak = v;
        }
      }
      break;
    }
    // Level i is the bin [levels[i], levels[i] + step). Longs liquidate at or above the low, shorts at
    // or below the high: a bin the candle reaches into is swept.
    const firstAlive = Math.max(0, Math.floor((candles.low[c]! - lo) / step));
    const lastAlive = Math.min(n - 1, Math.floor((candles.high[c]! - lo) / step));
    if (out >= 0) {
      for (let i = 0, k = out; i < n; i++, k += cols) {
        const l = long[i]!;
        const s = short[i]!;
        const v = wl * l + ws * s;
        cells[k] = v;
        if (v > peak) peak = v;
        long[i] = i >= firstAlive ? 0 : l * keep;
        short[i] = i <= lastAlive ? 0 : s * keep;
      }
    } else {
      for (let i = 0; i < n; i++) {
        long[i] = i >= firstAlive ? 0 : long[i]! * keep;
        short[i] = i <= lastAlive ? 0 : short[i]! * keep;
      }
    }
    const notional = entries[c]!;
    if (notional > 0) openPositions(book, candles.close[c]!, notional, longShare[c]!);
  }
  return { cells, peak };
}

/** Each side on its own, [level][column]. */
export function simulateLiquidations(input: LiquidationInput): LiquidationOutput {
  const rows = (sides: Sides) => {
    const { cells } = liquidationMatrix(input, sides);
    const cols = cells.length / input.levels.length;
    return Array.from({ length: input.levels.length }, (_, i) => cells.slice(i * cols, (i + 1) * cols));
  };
  return { longs: rows("long"), shorts: rows("short") };
}
