// Digests that make large series and matrices fit a model's context: pure functions, zod shapes
// for structuredContent, and plain-text renderers for the model's view.
export {
  formatDuration,
  formatNumber,
  formatPercent,
  formatPrice,
  formatSigned,
  formatTime,
  isoOrNull,
  levelPriceFormatter,
  seriesValueFormatter,
} from "./format/format.js";
export { sanitizeText, DEFAULT_TEXT_MAX } from "./format/text.js";
export { formatCount, groupedFixed } from "./format/grouped.js";
export { lttb } from "./series/lttb.js";
export { seriesFromRecords } from "./series/records.js";
export {
  clampMaxPoints,
  DEFAULT_MAX_POINTS,
  digestSeries,
  MAX_POINTS_LIMIT,
  MIN_POINTS,
  seriesDigestSchema,
  type SeriesDigest,
  type SeriesDigestOptions,
  type TimedValue,
} from "./series/series.js";
export { renderSeriesText, type SeriesTextMeta } from "./series/series-text.js";
export { BAND_PERCENTS, bandSums, DEFAULT_CLUSTER_FRACTION, findClusters, type Band, type Cluster } from "./heatmap/heatmap-column.js";
export { rebin, MAX_BINS } from "./heatmap/heatmap-matrix.js";
export { DEFAULT_TOP_K, digestHeatmap, MAX_TOP_K, type HeatmapDigestOptions } from "./heatmap/heatmap.js";
export { heatmapDigestSchema, type HeatmapCluster, type HeatmapDigest } from "./heatmap/heatmap-schema.js";
export { cellLevel, renderHeatmapText, type HeatmapTextMeta } from "./heatmap/heatmap-text.js";
export { sparkline, TREND_RULE, TRENDS, trendLabel, type Trend } from "./variation/sparkline.js";
export {
  describedDay,
  renderVariationText,
  variationDigestSchema,
  variationPrice,
  variationPriceSchema,
  variationRowSchema,
  variationTable,
  variationTableSchema,
  type VariationDigest,
  type VariationRow,
} from "./variation/variation.js";
export { candleFacts, candleFactsSchema, renderCandleFacts, type CandleFacts, type CandleInput } from "./series/candles.js";
export {
  alignOnGrid,
  changeBasis,
  changesOf,
  correlationMatrix,
  memberStats,
  pearson,
  rankChanges,
  strongestLeadLag,
  type CompareInput,
  type MemberStats,
} from "./compare/compare.js";
export { coSample } from "./compare/co-sample.js";
export {
  compareDigestSchema,
  defaultComparePoints,
  digestCompare,
  type CompareDigest,
  type CompareMember,
} from "./compare/compare-digest.js";
export { renderCompareText } from "./compare/compare-text.js";
export {
  changeOf,
  flowSummary,
  hasDrawdown,
  hasPercent,
  positionOf,
  signFlips,
  WINDOWS,
  windowChanges,
  type Change,
  type ChangeMeasure,
  type Position,
  type WindowChange,
  type WindowName,
} from "./series/nature.js";
export { coverageOf, coverageSchema, parseDateArg, type Coverage, type CoverageInput } from "./series/range-coverage.js";
export {
  digestResampled,
  periodEnd,
  periodStart,
  resample,
  RESAMPLE_MS,
  resampleProblem,
  RESAMPLES,
  type Resample,
  type Resampled,
} from "./series/resample.js";
export { answerScale, displayUnit, type AnswerScale } from "./format/scale.js";
export { defined, groupedPoints, num, pair, pairSchema, pointsSchema, timeField, when, type Pair } from "./format/compact.js";
export {
  compactCandleFacts,
  compactCandleFactsSchema,
  compactSeriesDigest,
  compactSeriesDigestSchema,
  type CompactSeriesDigest,
} from "./series/series-compact.js";
export { compactVariation, compactVariationSchema, VARIATION_COLUMNS, type CompactVariation } from "./variation/variation-compact.js";
export { compactHeatmapDigest, compactHeatmapDigestSchema, type CompactHeatmapDigest } from "./heatmap/heatmap-compact.js";
export { compactCompareDigest, compactCompareDigestSchema, type CompactCompareDigest } from "./compare/compare-compact.js";
