// What a view or a PNG draws: the chart data of a tool result (sent to views outside the model's fields).
// Plain data (no functions), the same in Node and in the browser. The view types are inferred from their
// zod schemas (view-schema.ts), which the tools' output schemas declare.
import type { z } from "zod";

import type {
  chartViewSchema,
  columnCandlesSchema,
  heatmapMarkSchema,
  heatmapViewSchema,
  seriesLineSchema,
  seriesViewSchema,
} from "./view-schema.js";

export type HeatmapMark = z.infer<typeof heatmapMarkSchema>;
/** Column-aligned OHLC; null where a column has no candle. */
export type ColumnCandles = z.infer<typeof columnCandlesSchema>;
export type HeatmapView = z.infer<typeof heatmapViewSchema>;
export type SeriesLine = z.infer<typeof seriesLineSchema>;
export type SeriesView = z.infer<typeof seriesViewSchema>;
export type ChartView = z.infer<typeof chartViewSchema>;

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
export function decodeCells(
  view: Pick<HeatmapView, "z" | "rows" | "cols" | "zMax">,
  fromBase64: (b64: string) => Uint8Array,
): Float64Array {
  const bytes = fromBase64(view.z);
  const n = view.rows * view.cols;
  if (bytes.length < n * 2) throw new Error(`matrix data holds ${Math.floor(bytes.length / 2)} cells, ${n} expected`);
  const out = new Float64Array(n);
  const scale = view.zMax / 65535;
  for (let i = 0; i < n; i++) out[i] = (bytes[2 * i]! | (bytes[2 * i + 1]! << 8)) * scale;
  return out;
}
