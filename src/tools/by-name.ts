// The tools by name, each loaded on its own: a one-shot call loads the tool it calls (its schemas,
// its digest) and no other. index.ts holds them all, in order; a test keeps the two lists equal.
import type { Tool } from "./define-tool.js";

/** Each tool's module, loaded on first ask, in the order tools/list shows them. */
const LOADERS = {
  list_assets: async () => (await import("./list-assets.js")).listAssets,
  get_series: async () => (await import("./get-series.js")).getSeries,
  get_ohlcv: async () => (await import("./get-ohlcv.js")).getOhlcv,
  get_metrics_variation: async () => (await import("./get-metrics-variation.js")).getMetricsVariation,
  get_liquidation_heatmap: async () => (await import("./get-liquidation-heatmap.js")).getLiquidationHeatmap,
  compare: async () => (await import("./compare.js")).compare,
  rank_assets: async () => (await import("./rank-assets.js")).rankAssets,
} satisfies Record<string, () => Promise<Tool>>;
type ToolName = keyof typeof LOADERS;

/** Every tool's name, in the order tools/list shows them. */
export const TOOL_NAMES = Object.keys(LOADERS) as readonly ToolName[];

/** The tool of that name, loading its module alone; undefined for a name no tool has. */
export async function loadTool(name: string): Promise<Tool | undefined> {
  return Object.hasOwn(LOADERS, name) ? LOADERS[name as ToolName]() : undefined;
}
