// Leverage-tier liquidation model: positions open at each candle's close, split over leverage
// tiers, each tier's liquidation price holds notional until a later candle trades through it.
// One pass over the columns with incremental state: O(columns × levels).

/** Leverage tiers and their share of new notional (the common open reconstruction's defaults). */
export const TIERS: ReadonlyArray<readonly [leverage: number, weight: number]> = [
  [5, 0.15], [10, 0.3], [25, 0.25], [50, 0.2], [100, 0.1],
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

/**
 * Runs the model over the columns; `emit(col, long, short)` receives, for each output column, the
 * open long and short liquidation notional per level. Both arrays are the model's state: read them
 * before returning, they change with the next column.
 */
export function runLiquidations(input: LiquidationInput, emit: (col: number, long: Float64Array, short: Float64Array) => void): void {
  const { candles, entries, longShare, keep, levels, firstOutput } = input;
  const n = levels.length;
  const lo = levels[0]!;
  const step = n > 1 ? levels[1]! - lo : 1;
  const long = new Float64Array(n);
  const short = new Float64Array(n);
  const { high: highs, low: lows, close: closes } = candles;
  for (let c = 0; c < closes.length; c++) {
    const high = highs[c]!;
    const low = lows[c]!;
    const close = closes[c]!;
    // Longs liquidate at or above the low, shorts at or below the high: those levels are swept.
    const firstAlive = Math.max(0, Math.ceil((low - lo) / step));
    const lastAlive = Math.min(n - 1, Math.floor((high - lo) / step));
    for (let i = 0; i < n; i++) {
      long[i] = i >= firstAlive ? 0 : long[i]! * keep;
      short[i] = i <= lastAlive ? 0 : short[i]! * keep;
    }
    const notional = entries[c]!;
    if (notional > 0) {
      const longPart = notional * longShare[c]!;
      const shortPart = notional - longPart;
      for (const [leverage, weight] of TIERS) {
        // Below the close for longs (floor), above it for shorts (ceil): never on the wrong side.
        const longLevel = Math.floor((close * (1 - 1 / leverage + MMR) - lo) / step);
        const shortLevel = Math.ceil((close * (1 + 1 / leverage - MMR) - lo) / step);
        for (let s = 0; s < SPREAD.length; s++) {
          const li = longLevel - s;
          if (li >= 0 && li < n) long[li]! += longPart * weight * SPREAD[s]!;
          const si = shortLevel + s;
          if (si >= 0 && si < n) short[si]! += shortPart * weight * SPREAD[s]!;
        }
      }
    }
    if (c >= firstOutput) emit(c - firstOutput, long, short);
  }
}

/** The model's output per side, [level][column]. */
export function simulateLiquidations(input: LiquidationInput): LiquidationOutput {
  const n = input.levels.length;
  const columns = input.candles.close.length - input.firstOutput;
  const longs = Array.from({ length: n }, () => new Float64Array(columns));
  const shorts = Array.from({ length: n }, () => new Float64Array(columns));
  runLiquidations(input, (col, long, short) => {
    for (let i = 0; i < n; i++) {
      longs[i]![col] = long[i]!;
      shorts[i]![col] = short[i]!;
    }
  });
  return { longs, shorts };
}
