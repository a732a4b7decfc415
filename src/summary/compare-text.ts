// The model's view of a compare digest: the grid, one line per member, the correlation triangle,
// a lead/lag line when one is clear, and the co-sampled points as one row per time.
import type { CompareDigest } from "./compare-digest.js";
import { formatDuration, formatNumber, formatPercent, formatSigned, formatTime, isDaily, seriesValueFormatter } from "./format.js";
import { formatCount } from "./grouped.js";
import { sanitizeText } from "./text.js";

type Member = CompareDigest["members"][number];

/** Units a reader gains nothing from seeing after each number. */
const UNSHOWN = new Set(["ratio", ""]);

function value(x: number, unit: string): string {
  return unit === "USD" ? formatNumber(x, "USD") : `${formatNumber(x)}${UNSHOWN.has(unit) ? "" : ` ${unit}`}`;
}

function changeText(m: Member, showUnit: boolean): string {
  const unit = showUnit ? m.unit : m.unit === "USD" ? "USD" : "";
  if (m.change === null) return "change n/a (first is 0)";
  switch (m.basis) {
    case "percent":
      return formatPercent(m.change);
    case "points":
      return `${formatSigned(m.change)} pts`;
    case "sum":
      return `total ${value(m.change, unit)}`;
    default:
      return `${m.change > 0 ? "+" : ""}${value(m.change, unit)}`;
  }
}

export function renderCompareText(meta: { title: string; query: Readonly<Record<string, string>>; notes: readonly string[] }, d: CompareDigest): string {
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
  lines.push("member: first → last, change, rank");
  for (const m of d.members) {
    const unit = showUnit ? m.unit : m.unit === "USD" ? "USD" : "";
    const rank = m.rank === null ? "" : `, #${m.rank}`;
    lines.push(`${m.label}: ${value(m.first!.value, unit)} → ${value(m.last!.value, unit)}, ${changeText(m, showUnit)}${rank}`);
  }
  if (d.correlation) {
    lines.push(`correlation of ${step} ${d.correlation.of} (Pearson, ${d.correlation.changes} changes):`);
    const labels = d.members.map((m) => m.label);
    lines.push(`columns: ${labels.slice(0, -1).join(" ")}`);
    for (let i = 1; i < labels.length; i++) {
      const row = d.correlation.matrix[i]!.slice(0, i).map((r) => (r === null ? "n/a" : r.toFixed(2)));
      lines.push(`${labels[i]}: ${row.join(" ")}`);
    }
  }
  if (d.leadLag) {
    const l = d.leadLag;
    lines.push(
      `lead/lag: ${l.leader} leads ${l.follower} by ${l.lagBuckets} bucket${l.lagBuckets === 1 ? "" : "s"} (${formatDuration(l.lagBuckets * d.grid.timeframeMs)}): ` +
        `r ${l.r.toFixed(2)} vs ${l.rSameBucket.toFixed(2)} in the same bucket`,
    );
  }
  lines.push(...pointsBlock(d, daily));
  return lines.join("\n");
}

function pointsBlock(d: CompareDigest, daily: boolean): string[] {
  const { returned, total, method } = d.points;
  const formats = d.members.map((_, i) => seriesValueFormatter(d.points.values[i]!));
  const rebased = d.members.filter((m) => m.rebased).map((m) => m.label);
  // Members sharing a scale are named together: "btc, eth in M USD".
  const byScale = new Map<string, string[]>();
  d.members.forEach((m, i) => {
    const scale = [formats[i]!.suffix, m.rebased || UNSHOWN.has(m.unit) ? "" : m.unit].filter(Boolean).join(" ");
    if (scale) byScale.set(scale, [...(byScale.get(scale) ?? []), m.label]);
  });
  const scaled = [...byScale].map(([scale, labels]) => `${labels.length === d.members.length ? "all" : labels.join(", ")} in ${scale}`);
  const how = method === "all" ? "all points" : `${returned} of ${formatCount(total)}, one LTTB selection shared by all, each member's min and max kept`;
  const notes = [rebased.length ? `${rebased.join(", ")} rebased to 100 at the first time` : "", ...scaled].filter(Boolean).join("; ");
  const lines = [`points (${how})${notes ? `; ${notes}` : ""}; rows "${daily ? "DD" : "DD HH:MM"} ${d.members.map((m) => m.label).join(" ")}" under YYYY-MM, UTC:`];
  let month = "";
  d.points.times.forEach((iso, p) => {
    if (iso.slice(0, 7) !== month) {
      month = iso.slice(0, 7);
      lines.push(`${month}:`);
    }
    const when = daily ? iso.slice(8, 10) : `${iso.slice(8, 10)} ${iso.slice(11, 16)}`;
    lines.push(`${when} ${d.members.map((_, i) => formats[i]!.format(d.points.values[i]![p]!)).join(" ")}`);
  });
  return lines;
}
