// Deterministic data of the in-process service: pure functions of (asset, endpoint, params, time).
// CONTRACT for the service layer (implementations live in sibling modules):
//
//   inceptionMs(asset): number
//       First instant with data for the asset (UTC ms, aligned to a day).
//   seriesEndMs(endpoint, asset): number | undefined
//       Last instant with data when the history ends (ETH mining metrics end at the Merge), else undefined.
//   countBuckets(query): number
//       Records generateRecords(query) will return, computed without generating them (cost, caps).
//   generateColumns(query): { times: Float64Array; values: Float64Array }
//       Bucket start times (UTC ms) ascending and their values; only buckets inside
//       [max(startMs, inception), min(endMs, seriesEnd)] aligned to the timeframe grid.
//   generateRecords(query): TimeRecord[]
//       The same as `{time: ISO string, [endpoint.field]: value}` records.
//   generateVariation(asset, nowMs): VariationRecord[]
//   generateHeatmap(query: HeatmapQuery): Heatmap
export {};
