// Deterministic data of the in-process service: pure functions of (asset, endpoint, params, time).
// The service resolves dates, defaults, caps and validation; these generate.
export { inceptionMs, seriesEndMs, seriesExtent, countBuckets, generateColumns, generateRecords, type SeriesQuery } from "./series.js";
export { recordsFromColumns } from "../encoders/series-json.js";
export { generateVariation } from "./variation.js";
export { buildHeatmap, generateHeatmap, type HeatmapQuery } from "./heatmap.js";
export { heatmapBody, heatmapJson } from "../encoders/heatmap-json.js";
export { symbolsOf } from "../world/shares.js";
export { dataClock, lastCompleteDay } from "../world/clock.js";
