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
} from "./format.js";
export { sanitizeText, DEFAULT_TEXT_MAX } from "./text.js";
export { formatCount, groupedFixed } from "./grouped.js";
export { lttb } from "./lttb.js";
export { seriesFromRecords } from "./records.js";
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
} from "./series.js";
export { renderSeriesText, type SeriesTextMeta } from "./series-text.js";
export { BAND_PERCENTS, bandSums, DEFAULT_CLUSTER_FRACTION, findClusters, type Band, type Cluster } from "./heatmap-column.js";
export { rebin, MAX_BINS } from "./heatmap-matrix.js";
export { DEFAULT_TOP_K, digestHeatmap, MAX_TOP_K, type HeatmapDigestOptions } from "./heatmap.js";
export { heatmapDigestSchema, type HeatmapCluster, type HeatmapDigest } from "./heatmap-schema.js";
export { cellLevel, renderHeatmapText, type HeatmapTextMeta } from "./heatmap-text.js";
export { sparkline, TREND_RULE, TRENDS, trendLabel, type Trend } from "./sparkline.js";
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
} from "./variation.js";
export { candleFacts, candleFactsSchema, renderCandleFacts, type CandleFacts, type CandleInput } from "./candles.js";
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
} from "./compare.js";
export { coSample } from "./co-sample.js";
export { compareDigestSchema, defaultComparePoints, digestCompare, type CompareDigest, type CompareMember } from "./compare-digest.js";
export { renderCompareText } from "./compare-text.js";
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
} from "./nature.js";
export { coverageOf, coverageSchema, parseDateArg, type Coverage, type CoverageInput } from "./range-coverage.js";
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
} from "./resample.js";
export { answerScale, displayUnit, type AnswerScale } from "./scale.js";
export { defined, groupedPoints, num, pair, pairSchema, pointsSchema, timeField, when, type Pair } from "./compact.js";
export {
  compactCandleFacts,
  compactCandleFactsSchema,
  compactSeriesDigest,
  compactSeriesDigestSchema,
  type CompactSeriesDigest,
} from "./series-compact.js";
export { compactVariation, compactVariationSchema, VARIATION_COLUMNS, type CompactVariation } from "./variation-compact.js";
export { compactHeatmapDigest, compactHeatmapDigestSchema, type CompactHeatmapDigest } from "./heatmap-compact.js";
export { compactCompareDigest, compactCompareDigestSchema, type CompactCompareDigest } from "./compare-compact.js";
