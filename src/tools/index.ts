// Every tool the server exposes, in the order tools/list shows them.
import { compare } from "./compare.js";
import type { Tool } from "./define-tool.js";
import { getLiquidationHeatmap } from "./get-liquidation-heatmap.js";
import { getMetricsVariation } from "./get-metrics-variation.js";
import { getOhlcv } from "./get-ohlcv.js";
import { getSeries } from "./get-series.js";
import { listAssets } from "./list-assets.js";
import { rankAssets } from "./rank-assets.js";

export const allTools: readonly Tool[] = [listAssets, getSeries, getOhlcv, getMetricsVariation, getLiquidationHeatmap, compare, rankAssets];
