// What a view or a PNG draws: the chart data a tool result carries in structuredContent.view.
// Plain data (no functions), the same in Node and in the browser.

export interface HeatmapMark {
  kind: "nearest" | "largest";
  side: "above" | "below";
  low: number;
  high: number;
  /** USD notional of the cluster in the latest column. */
  intensity: number;
  distancePercent: number;
}

/** Column-aligned OHLC; null where a column has no candle. */
export interface ColumnCandles {
  open: Array<number | null>;
  high: Array<number | null>;
  low: Array<number | null>;
  close: Array<number | null>;
}

export interface HeatmapView {
  kind: "heatmap";
  asset: string;
  timeframe: string;
  lookback: string;
  scope: string;
  exchange: string;
  rows: number;
  cols: number;
  /** Price at the centre of row 0 (the lowest band) and the price distance between rows. */
  priceLow: number;
  priceStep: number;
  /** Start of each column (epoch ms), ascending; a column lasts columnMs. */
  times: number[];
  columnMs: number;
  /** USD value of the largest cell. */
  zMax: number;
  /** Base64 of little-endian uint16 cells, row-major from the lowest price: value = q / 65535 × zMax. */
  z: string;
  /** How a cell was formed from the service's matrix. */
  cellRule: string;
  candles: ColumnCandles;
  last: { price: number; time: number } | null;
  marks: HeatmapMark[];
  /** What the view may ask for next: timeframes, the lookbacks each one accepts, venue ids. */
  choices: { timeframes: string[]; lookbacks: Record<string, string[]>; exchanges: string[] };
}

export interface SeriesLine {
  label: string;
  unit: string;
  times: number[];
  values: number[];
  /** Each value is an amount per bucket (a flow): drawn as bars. */
  bars?: boolean;
}

export interface SeriesView {
  kind: "series";
  title: string;
  series: SeriesLine[];
  candles?: { times: number[] } & ColumnCandles;
  /** One series; several rebased to 100 at their first common time; or two units on twin axes. */
  layout: "single" | "rebased" | "twin";
}

export type ChartView = HeatmapView | SeriesView;

export interface Theme {
  background: string;
  text: string;
  muted: string;
  grid: string;
  up: string;
  down: string;
  last: string;
  markAbove: string;
  markBelow: string;
  palette: string[];
  font: string;
}

export const LIGHT: Theme = {
  background: "#ffffff",
  text: "#1d1d1f",
  muted: "#6b6f76",
  grid: "#e6e7ea",
  up: "#14a37f",
  down: "#e0464e",
  last: "#f2f2f2",
  markAbove: "#ff6b6b",
  markBelow: "#4fd1ff",
  palette: ["#2f6fed", "#e8590c", "#12a594", "#c2255c", "#7048e8", "#b08900", "#495057", "#2b8a3e"],
  font: "Inter, sans-serif",
};

export const DARK: Theme = {
  ...LIGHT,
  background: "#18181b",
  text: "#ececef",
  muted: "#9a9ca3",
  grid: "#2e2f34",
  palette: ["#5b9bff", "#ff922b", "#3bc9db", "#f06595", "#9775fa", "#fcc419", "#adb5bd", "#69db7c"],
};

/** Cells of a heatmap view as numbers (USD), row-major from the lowest price. */
export function decodeCells(view: Pick<HeatmapView, "z" | "rows" | "cols" | "zMax">, fromBase64: (b64: string) => Uint8Array): Float64Array {
  const bytes = fromBase64(view.z);
  const n = view.rows * view.cols;
  if (bytes.length < n * 2) throw new Error(`matrix data holds ${Math.floor(bytes.length / 2)} cells, ${n} expected`);
  const out = new Float64Array(n);
  const scale = view.zMax / 65535;
  for (let i = 0; i < n; i++) out[i] = (bytes[2 * i]! | (bytes[2 * i + 1]! << 8)) * scale;
  return out;
}
