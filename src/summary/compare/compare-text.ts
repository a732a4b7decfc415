// The model's view of a compare digest: the grid, one line per member, the correlation triangle,
// a lead/lag line when one is clear, and the co-sampled points as one row per time.
import { formatDuration, formatNumber, formatPercent, formatSigned, formatTime, isDaily, seriesValueFormatter } from "../format/format.js";
import { formatCount } from "../format/grouped.js";
import { sanitizeText } from "../format/text.js";
import type { CompareDigest } from "./compare-digest.js";

type Member = CompareDigest["members"][number];

/** Units a reader gains nothing from seeing after each number. */
const UNSHOWN = new Set(["ratio", ""]);

function value(x: number, unit: string): string {
  return unit === "USD" ? formatNumber(x, "USD") : `${formatNumber(x)}${UNSHOWN.has(unit) ? "" : ` ${unit}`}`;
}

function changeText(m: Member, showUnit: boolean, write: (x: number) => string): string {
  if (m.change === null) return "change n/a (first is 0)";
  switch (m.basis) {
    case "percent":
      return formatPercent(m.change);
    case "points":
      return `${formatSigned(m.change)} pts`;
    case "sum":
      return `total ${write(m.change)}`;
    default:
      return `${m.change > 0 ? "+" : ""}${write(m.change)}`;
  }
}

export function renderCompareText(
  meta: { title: string; query: Readonly<Record<string, string>>; notes: readonly string[] },
  d: CompareDigest,
): string {
  const query = Object.entries(meta.query).map(([k, v]) => `${k}=${sanitizeText(v, 40)}`);
  const lines = [`compare ${meta.title}${query.length ? ` ${query.join(" ")}` : ""}`, ...meta.notes];
  const step = formatDuration(d.grid.timeframeMs);
  if (!d.grid.first || !d.grid.last) {
    const had = d.members.map((m) => `${m.label} ${m.fetched}`).join(", ");
    lines.push(`No timestamp is shared by every member (points per member: ${had}); pick a range where all have data.`);
    return lines.join("\n");
  }
  const daily = isDaily(d.grid.timeframeMs, Date.parse(d.grid.first));
  const at = (iso: string) => formatTime(Date.parse(iso), daily);
  const dropped = d.members.filter((m) => m.fetched !== d.grid.count);
  lines.push(
    `grid: ${formatCount(d.grid.count)} shared ${step} buckets, ${at(d.grid.first)} → ${at(d.grid.last)} UTC` +
      (dropped.length ? `; before alignment ${dropped.map((m) => `${m.label} had ${formatCount(m.fetched)}`).join(", ")}` : ""),
  );
  const units = new Set(d.members.map((m) => m.unit));
  const showUnit = units.size > 1;
  const ranked = d.members.some((m) => m.rank !== null);
  // Ranks exist only among members of one metric (compare's assets mode): "rank" says it all there.
  lines.push(`member: first → last, change${ranked ? ", rank" : ""}`);
  for (const m of d.members) {
    const unit = showUnit ? m.unit : m.unit === "USD" ? "USD" : "";
    // Each figure in its own suffix ("$40.75B → $13.27B, total $35.50T"): no "$0.0407T".
    const write = (x: number) => value(x, unit);
    const rank = m.rank === null ? "" : `, #${m.rank}`;
    lines.push(`${m.label}: ${write(m.first!.value)} → ${write(m.last!.value)}, ${changeText(m, showUnit, write)}${rank}`);
  }
  if (d.correlation) lines.push(...correlationLines(d, step));
  if (d.leadLag) {
    const l = d.leadLag;
    const need = l.threshold === null ? "" : `needs |r| ≥ ${r2(l.threshold)} at ${pct(l.level)} over all pairs and lags`;
    const f = l.found;
    lines.push(
      f
        ? `lead/lag (±${l.maxLagBuckets} buckets; ${need}): ${f.leader} leads ${f.follower} by ${f.lagBuckets} bucket${f.lagBuckets === 1 ? "" : "s"} ` +
            `(${formatDuration(f.lagBuckets * d.grid.timeframeMs)}): r ${f.r.toFixed(2)} vs ${f.rSameBucket.toFixed(2)} in the same bucket, ${f.changes} changes`
        : `lead/lag (±${l.maxLagBuckets} buckets): no significant relation${need ? ` (${need})` : ""}`,
    );
  }
  lines.push(...pointsBlock(d, daily));
  return lines.join("\n");
}

/** A threshold with two significant digits (0.062, 0.17): two decimals would move a small one by several %. */
const r2 = (x: number) => String(Number(x.toPrecision(2)));
const pct = (level: number) => `${Number((level * 100).toPrecision(3))} %`;

/** A correlation as statistics writes it, without the leading zero: ".77", "-.12", "1.00" (1 token fewer for each "0."). */
const rText = (r: number) => r.toFixed(2).replace(/^(-?)0\./, "$1.");

/** The same-bucket correlations that clear the threshold; the others as "·", or one line when none does. */
function correlationLines(d: CompareDigest, step: string): string[] {
  const c = d.correlation!;
  const labels = d.members.map((m) => m.label);
  const pairs = (labels.length * (labels.length - 1)) / 2;
  const over = pairs > 1 ? ` over ${pairs} pairs` : "";
  const shown = (r: number | null) => r !== null && c.threshold !== null && Math.abs(r) >= c.threshold;
  const head = `correlation of ${step} ${c.of} (Pearson r, ${c.changes} changes`;
  if (c.threshold === null) return [`${head}): too few changes to test`];
  const rule = `|r| ≥ ${r2(c.threshold)} is significant at ${pct(c.level)}${over}`;
  const any = c.matrix.some((row, i) => row.some((r, j) => j < i && shown(r)));
  if (!any) return [`${head}; ${rule}): no significant relation`];
  const lines = [`${head}; shown where ${rule}, else "·"):`, `columns: ${labels.slice(0, -1).join(" ")}`];
  for (let i = 1; i < labels.length; i++)
    lines.push(
      `${labels[i]}: ${c.matrix[i]!.slice(0, i)
        .map((r) => (shown(r) ? rText(r!) : "·"))
        .join(" ")}`,
    );
  return lines;
}

/** The text's rebase (1,000) over the digest's (100). */
const REBASE_TEXT = 10;

function pointsBlock(d: CompareDigest, daily: boolean): string[] {
  const { returned, total, method } = d.points;
  // Rebased members are written rebased to 1,000 (the digest's 100 × 10): three-digit integers
  // ("929", 1 token) where 100 would need a decimal for three significant digits ("92.9", 3 tokens).
  const values = d.members.map((m, i) => (m.rebased ? Array.from(d.points.values[i]!, (v) => v * REBASE_TEXT) : d.points.values[i]!));
  const formats = values.map((v) => seriesValueFormatter(v));
  const rebased = d.members.filter((m) => m.rebased).map((m) => m.label);
  // Each value carries its own suffix (M, B, T); members sharing a unit are named together: "btc, eth in USD".
  const byUnit = new Map<string, string[]>();
  d.members.forEach((m) => {
    if (!m.rebased && !UNSHOWN.has(m.unit)) byUnit.set(m.unit, [...(byUnit.get(m.unit) ?? []), m.label]);
  });
  const units = [...byUnit].map(([unit, labels]) => `${labels.length === d.members.length ? "all" : labels.join(", ")} in ${unit}`);
  const how =
    method === "all"
      ? "all points"
      : `${returned} of ${formatCount(total)}, one LTTB selection shared by all, each member's min and max kept`;
  const who = rebased.length === d.members.length ? "all" : rebased.join(", ");
  const notes = [rebased.length ? `${who} rebased to 1,000 at the first time` : "", ...units].filter(Boolean).join("; ");
  const lines = [
    `points (${how})${notes ? `; ${notes}` : ""}; rows "${daily ? "DD" : "DD HH:MM"} ${d.members.map((m) => m.label).join(" ")}" under YYYY-MM, UTC:`,
  ];
  let month = "";
  d.points.times.forEach((iso, p) => {
    if (iso.slice(0, 7) !== month) {
      month = iso.slice(0, 7);
      lines.push(`${month}:`);
    }
    const when = daily ? iso.slice(8, 10) : `${iso.slice(8, 10)} ${iso.slice(11, 16)}`;
    lines.push(`${when} ${d.members.map((_, i) => formats[i]!.format(values[i]![p]!)).join(" ")}`);
  });
  return lines;
}
