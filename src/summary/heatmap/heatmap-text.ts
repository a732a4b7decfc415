// The model's view of a heatmap digest: the liquidation map around the price in a few lines, and
// the optional coarse matrix as one digit per cell (≤ 2,000 tokens in all).
import { formatDuration, formatPercent, formatPrice, formatSigned, formatTime, levelPriceFormatter } from "../format/format.js";
import { formatCount } from "../format/grouped.js";
import { amountScale } from "../format/scale.js";
import { sanitizeText } from "../format/text.js";
import type { HeatmapCluster, HeatmapDigest } from "./heatmap-schema.js";

export interface HeatmapTextMeta {
  asset: string;
  timeframe?: string;
  lookback?: string;
  scope?: string;
  exchange?: string;
}

const price = formatPrice;
const venueName = (id: string) => (id === "binance" ? "Binance" : sanitizeText(id, 32));
type Fmt = (x: number) => string;
const time = (iso: string | null) => (iso === null ? "n/a" : formatTime(Date.parse(iso), false));

/** A version that is a UTC time on a whole minute reads as one ("2025-12-31 06:00Z"); any other is printed as given. */
function versionText(version: string | null | undefined): string {
  if (!version) return "n/a";
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:00(\.0+)?)?Z$/.test(version)) return `${version.slice(0, 10)} ${version.slice(11, 16)}Z`;
  return sanitizeText(version, 64) || "n/a";
}

/** Compact plain text for a heatmap digest. */
export function renderHeatmapText(meta: HeatmapTextMeta, d: HeatmapDigest): string {
  const s = d.source;
  // One scale for every amount of the answer, set by the latest column's hottest level.
  const usd = amountScale(d.latest?.maxCell || d.peak?.intensity || 0, { usd: true });
  const pick = (value: string | undefined, fallback: string, max: number) => sanitizeText(value || fallback, max) || "n/a";
  const lines = [
    `Liquidation heatmap ${pick(meta.asset, s.asset, 32)} · timeframe ${pick(meta.timeframe, s.timeframe, 16)} · lookback ${pick(meta.lookback, s.lookback, 16)}` +
      ` · scope ${pick(meta.scope, s.scope, 16)} · exchange ${pick(meta.exchange, s.exchange, 64)} · price source ${s.priceSource || "n/a"} · version ${versionText(s.version)}`,
  ];
  const sh = d.shape;
  // Level prices (bands, clusters, bins) get the precision of the price step; closes stay exact.
  const level = levelPriceFormatter(sh.priceStep ?? Number.NaN);
  if (sh.rows === 0 || sh.cols === 0) {
    lines.push(`Empty matrix (${sh.rows} price levels × ${formatCount(sh.cols)} columns): no liquidation levels to report.`);
  } else {
    lines.push(
      `Matrix ${sh.rows} price levels ${level(sh.priceLow!)}–${level(sh.priceHigh!)} (step ${sh.priceStep === null ? "n/a" : `${level(sh.priceStep)}, each level its price up one step`}) × ` +
        `${formatCount(sh.cols)} columns ${time(sh.timeFrom)} → ${time(sh.timeTo)} UTC`,
    );
    const t = sh.columnTotals;
    // Each column is the whole map at one time: totals are per column, never summed over time.
    if (t)
      lines.push(
        `Column totals (open notional at one time): latest ${usd(t.latest)}, mean ${usd(t.mean)}, largest ${usd(t.max)} (${time(t.maxTime)})`,
      );
  }
  const a = d.anchor;
  lines.push(
    a.price === null
      ? "Anchor price: none (no candles, no price axis)"
      : a.source === "df_close"
        ? `Anchor: last candle close ${price(a.price)} (${a.time !== null && a.time === d.latest?.time ? "latest column" : time(a.time)})`
        : `Anchor: middle of the price axis ${price(a.price)} (no candles)`,
  );
  // The latest column's total is said once: in the column totals when they are there.
  if (d.latest) lines.push(...latestLines(d.latest, a.price!, level, usd, sh.priceStep, !sh.columnTotals));
  if (d.peak) {
    // The age (before the latest column) in time when the columns are dated, else in columns.
    const age =
      d.peak.ageColumns === 0
        ? "in the latest column"
        : `${d.peak.ageMs === null ? `${d.peak.ageColumns.toLocaleString("en-US")} columns` : formatDuration(d.peak.ageMs)} earlier`;
    lines.push(`Peak cell of the matrix: ${usd(d.peak.intensity)} at ${level(d.peak.price)} on ${time(d.peak.time)} (${age})`);
  }
  const l = d.topTraderLsr;
  lines.push(
    l
      ? `${venueName(l.venue)} top-trader long/short ratio: latest ${l.latest.toFixed(2)}${l.latestTime !== null && l.latestTime === d.latest?.time ? "" : ` (${time(l.latestTime)})`}; range ${l.min.toFixed(2)}–${l.max.toFixed(2)}, mean ${l.mean.toFixed(2)} over ${formatCount(l.count)} readings`
      : "Top-trader long/short ratio: no readings",
  );
  const c = d.candles;
  lines.push(
    c
      ? `Candles (${c.count.toLocaleString("en-US")}): open ${price(c.open)} → close ${price(c.close)} (${c.changePercent === null ? "n/a" : formatPercent(c.changePercent)}); high ${price(c.high)}, low ${price(c.low)}`
      : "Candles: none",
  );
  if (d.matrix) lines.push(...matrixLines(d.matrix, a.price, level, usd));
  return lines.join("\n");
}

function latestLines(
  l: NonNullable<HeatmapDigest["latest"]>,
  anchor: number,
  level: Fmt,
  usd: Fmt,
  step: number | null,
  withTotal: boolean,
): string[] {
  const bands = l.bands;
  const narrow = bands.filter((b) => b.narrowerThanSpacing);
  // A band narrower than the level spacing holds one level a side at most: its $0 would read as "no liquidations".
  const spacing =
    narrow.length && step !== null
      ? ` (levels ${price(step)} apart, ${width((step / anchor) * 100)} of the price: ${narrow.map((b) => `±${b.percent} %`).join(", ")} narrower, n/a)`
      : "";
  const amount = (b: (typeof bands)[number], v: number) => (b.narrowerThanSpacing ? "n/a" : usd(v));
  const hottest =
    l.maxCellPrice === null ? "" : ` at ${level(l.maxCellPrice)} (${formatPercent(((l.maxCellPrice - anchor) / anchor) * 100)})`;
  const lines = [
    `Latest column (${time(l.time)}): ${withTotal ? `total ${usd(l.total)}, ` : ""}hottest level ${usd(l.maxCell)}${hottest}`,
    `Within ±${bands.map((b) => b.percent).join("/")} % of ${price(anchor)}${spacing}:`,
    `  above (short liquidations) ${bands.map((b) => amount(b, b.above)).join(" / ")}`,
    `  below (long liquidations) ${bands.map((b) => amount(b, b.below)).join(" / ")}`,
    l.imbalance === null
      ? "Imbalance ±10 %: n/a (nothing within ±10 %)"
      : `Imbalance ±10 % (above−below)/(above+below): ${formatSigned(l.imbalance)}, ${l.imbalance >= 0.005 ? "more above" : l.imbalance <= -0.005 ? "more below" : "balanced"}`,
    `Clusters (peak level ≥ ${Math.round(l.clusterFraction * 100)} % of hottest = ${usd(l.clusterThreshold)}, plus neighbours ≥ ${l.clusterEdgeFraction === 0.5 ? "half" : `${Math.round(l.clusterEdgeFraction * 100)} %`} of it): band low–high edge (width % of price): notional (share), distance from price:`,
  ];
  for (const [name, side] of [
    ["above", l.above],
    ["below", l.below],
  ] as const) {
    if (!side.largest || !side.nearest) {
      lines.push(`  ${name}: none`);
      continue;
    }
    const same = side.largest === side.nearest || (side.largest.low === side.nearest.low && side.largest.high === side.nearest.high);
    lines.push(
      same ? `  ${name} nearest & largest ${cluster(side.largest, level, usd)}` : `  ${name} nearest ${cluster(side.nearest, level, usd)}`,
    );
    if (!same) lines.push(`  ${name} largest ${cluster(side.largest, level, usd)}`);
    // Per side, top_k clusters in all (nearest and largest always): the most intense of the rest fill up.
    const others = side.top
      .filter((c) => c.low !== side.largest!.low && c.low !== side.nearest!.low)
      .slice(0, Math.max(0, side.top.length - (same ? 1 : 2)));
    if (others.length) lines.push(`  ${name} also ${others.map((c) => cluster(c, level, usd)).join("; ")}`);
  }
  return lines;
}

/** A width in % of the price, with two significant digits below 1 %. */
function width(percent: number): string {
  return `${percent < 1 ? percent.toPrecision(2) : percent.toFixed(1)} %`;
}

function cluster(c: HeatmapCluster, level: Fmt, usd: Fmt): string {
  const band = `${level(c.low)}–${level(c.high)}`;
  const edge = formatPercent(c.distanceEdgePercent);
  const peak = formatPercent(c.distancePeakPercent);
  // Above the price the peak is often the band's low edge, the near one: then one distance says both.
  const where = c.side === "above" && c.peak === c.low ? `peak ${level(c.peak)} ${peak}` : `edge ${edge}, peak ${level(c.peak)} ${peak}`;
  return `${band} (${width(c.widthPercent)}): ${usd(c.intensity)} (${(c.share * 100).toFixed(1)} %), ${where}`;
}

/** Digit per cell: 0 = empty, k = (k−1)/9 to k/9 of the hottest bin (linear), so any non-empty bin shows ≥ 1. */
export function cellLevel(v: number, max: number): number {
  if (!(v > 0) || !(max > 0)) return 0;
  return Math.min(9, Math.max(1, Math.ceil((9 * v) / max)));
}

/** "3" or "3–4": the sizes of bins that differ by at most one. */
function span(sizes: number[]): string {
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  return lo === hi ? `${lo}` : `${lo}–${hi}`;
}

function matrixLines(m: NonNullable<HeatmapDigest["matrix"]>, anchor: number | null, level: Fmt, usd: Fmt): string[] {
  if (m.rows.length === 0 || m.cols.length === 0) return ["Coarse matrix: empty"];
  let max = 0;
  for (const row of m.cells) for (const v of row) if (v > max) max = v;
  const widths = m.cols.map((c) => c.columns);
  const first = m.cols[0]!.start;
  const last = m.cols[m.cols.length - 1]!.start;
  const lines = [
    `Coarse matrix ${m.rows.length} price bins × ${m.cols.length} time bins (${span(m.rows.map((r) => r.levels))} levels × ${span(widths)} columns each; first starts ${time(first)}, last starts ${time(last)}).`,
    `One digit per bin, oldest → latest: its mean cell (per level and column), 0 = empty, k (1–9) = in ((k−1)/9, k/9] of the hottest bin's mean (${usd(max)}). Price bins high → low:`,
  ];
  const top = m.rows[m.rows.length - 1]!.high;
  for (let r = m.rows.length - 1; r >= 0; r--) {
    const row = m.rows[r]!;
    const digits = m.cells[r]!.map((v) => cellLevel(v, max)).join("");
    // A bin owns prices from its low up to the next bin's low, so the price lands in exactly one.
    const upper = r === m.rows.length - 1 ? top : m.rows[r + 1]!.low;
    const inside = anchor !== null && anchor >= row.low && (anchor < upper || (r === m.rows.length - 1 && anchor <= top));
    const here = inside ? " ◀ price" : "";
    lines.push(`${level(row.low)}–${level(row.high)} ${digits}${here}`);
  }
  return lines;
}
