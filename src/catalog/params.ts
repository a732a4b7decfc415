// Query parameters of the service: their accepted values, defaults and limits.

export const TIMEFRAMES = ["1m", "5m", "15m", "30m", "1h", "4h", "6h", "12h", "1d"] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** Lengths of time in ms: one home for every room. */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export const TIMEFRAME_MS: Record<Timeframe, number> = {
  "1m": MINUTE_MS,
  "5m": 5 * MINUTE_MS,
  "15m": 15 * MINUTE_MS,
  "30m": 30 * MINUTE_MS,
  "1h": 60 * MINUTE_MS,
  "4h": 240 * MINUTE_MS,
  "6h": 360 * MINUTE_MS,
  "12h": 720 * MINUTE_MS,
  "1d": DAY_MS,
};

export function isTimeframe(value: string): value is Timeframe {
  return Object.hasOwn(TIMEFRAME_MS, value);
}

export const LOOKBACKS = ["12h", "24h", "3d", "7d", "14d", "30d", "90d", "180d", "365d", "2y", "4y", "6y"] as const;
export type Lookback = (typeof LOOKBACKS)[number];

export const LOOKBACK_MS: Record<Lookback, number> = {
  "12h": 12 * 3_600_000,
  "24h": DAY_MS,
  "3d": 3 * DAY_MS,
  "7d": 7 * DAY_MS,
  "14d": 14 * DAY_MS,
  "30d": 30 * DAY_MS,
  "90d": 90 * DAY_MS,
  "180d": 180 * DAY_MS,
  "365d": 365 * DAY_MS,
  "2y": 730 * DAY_MS,
  "4y": 1461 * DAY_MS,
  "6y": 2191 * DAY_MS,
};

/** The window used when a heatmap request names no lookback (30m → 30d is the spec's). */
export const CANONICAL_LOOKBACK: Record<Timeframe, Lookback> = {
  "1m": "12h",
  "5m": "3d",
  "15m": "7d",
  "30m": "30d",
  "1h": "90d",
  "4h": "365d",
  "6h": "2y",
  "12h": "4y",
  "1d": "6y",
};

/** A heatmap pairing wider than this many columns is refused (400 naming the allowed lookbacks). */
export const MAX_HEATMAP_COLUMNS = 4_500;

/** Columns of a heatmap: lookback / timeframe + 1 (both ends inclusive). */
export function heatmapColumns(timeframe: Timeframe, lookback: Lookback): number {
  return Math.floor(LOOKBACK_MS[lookback] / TIMEFRAME_MS[timeframe]) + 1;
}

/** Lookbacks a timeframe accepts, shortest first. */
export function allowedLookbacks(timeframe: Timeframe): Lookback[] {
  return LOOKBACKS.filter((l) => heatmapColumns(timeframe, l) <= MAX_HEATMAP_COLUMNS);
}

export const MARKET_TYPES = ["future", "spot", "swap"] as const;
export type MarketType = (typeof MARKET_TYPES)[number];

export const SCOPES = ["all", "exchange"] as const;
export type Scope = (typeof SCOPES)[number];

/** Trading-pair symbol: <BASE><QUOTE> in upper case, e.g. BTCUSDT. */
export const SYMBOL_PATTERN = /^[A-Z0-9]{2,24}$/;

/** Records in one response at most; a larger range is a 400 range_too_large. */
export const MAX_RECORDS = 100_000;

/**
 * An integer with thousands separators, as en-US writes it. Not toLocaleString: the first Intl call
 * of a process initialises ICU (~10–20 ms), and texts built at module load would make every start pay.
 */
export function groupThousands(n: number): string {
  const [int = "", frac] = String(n).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** Buckets returned when a request names no startDate. */
export const DEFAULT_BUCKETS = 1_000;

/** Accepted date input: date only or ISO 8601 date-time (UTC when no offset is given). */
export const DATE_FORMAT_HINT = "YYYY-MM-DD or ISO 8601 date-time, e.g. 2025-01-31 or 2025-01-31T12:00:00Z";

export type ParamName =
  "startDate" | "endDate" | "timeframe" | "exchange" | "symbol" | "market_type" | "entity_name" | "asset" | "lookback" | "scope";

/** One-line descriptions written for a model; tools and docs reuse them. */
export const PARAM_DESCRIPTIONS: Record<ParamName, string> = {
  startDate: `Inclusive start (${DATE_FORMAT_HINT}). Omit for the latest ${groupThousands(DEFAULT_BUCKETS)} buckets.`,
  endDate: `Inclusive end (${DATE_FORMAT_HINT}). Omit for now.`,
  timeframe: `Bucket size: ${TIMEFRAMES.join(", ")}. Default 1d (the liquidation heatmap: 6h).`,
  exchange: "Venue id, lowercase (e.g. binance, okx, bybit). Omit for all venues.",
  symbol: "Trading pair, upper case BASEQUOTE (e.g. BTCUSDT). Omit to aggregate across symbols.",
  market_type: `Market type: ${MARKET_TYPES.join(", ")}. Omit for all.`,
  entity_name: "Exchange entity (a venue id such as binance or coinbase), or all (default).",
  asset: "Lowercase ticker, e.g. btc, eth, sol.",
  lookback: `History window: ${LOOKBACKS.join(", ")}. Omit for the timeframe's canonical window.`,
  scope: "all (default; aggregated across exchanges) or exchange (then exchange is required).",
};
