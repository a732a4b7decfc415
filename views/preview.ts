// Coarse previews built from a result's structuredContent, for hosts that pass views no detail:
// the digest's sampled points as a line chart, and the heatmap digest's clusters as a price ladder.
// Only the model's own figures are drawn, so the preview can never disagree with the text.
import type { SeriesLine, SeriesView } from "../src/charts/model/types.js";

type Json = Record<string, unknown>;

/** A digest's points, grouped as the compact digests write them ("YYYY-MM" → [["DD" or "DD HH:MM", …values]]). */
function pointRows(points: unknown): Array<{ t: number; values: number[] }> {
  const rows: Array<{ t: number; values: number[] }> = [];
  if (!points || typeof points !== "object") return rows;
  for (const [group, items] of Object.entries(points as Record<string, unknown>)) {
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      if (!Array.isArray(item) || typeof item[0] !== "string") continue;
      const within = item[0];
      const iso =
        group.length === 4
          ? `${group}-${within}-01T00:00:00Z`
          : within.includes(" ")
            ? `${group}-${within.slice(0, 2)}T${within.slice(3)}:00Z`
            : within.length > 2
              ? within
              : `${group}-${within}T00:00:00Z`;
      const t = Date.parse(iso);
      const values = item.slice(1).map((v) => (typeof v === "number" ? v : NaN));
      if (Number.isFinite(t)) rows.push({ t, values });
    }
  }
  return rows.sort((a, b) => a.t - b.t);
}

function line(label: string, unit: string, rows: Array<{ t: number; values: number[] }>, k: number, scale: number): SeriesLine {
  const times: number[] = [];
  const values: number[] = [];
  for (const r of rows) {
    const v = r.values[k]! * scale;
    if (Number.isFinite(v)) {
      times.push(r.t);
      values.push(v);
    }
  }
  return { label, unit, times, values };
}

/** The series a get_series, get_ohlcv or compare answer's digest samples; null when it holds none. */
export function seriesPreview(s: Json | undefined): SeriesView | null {
  const digest = s?.["digest"] as Json | undefined;
  if (!s || !digest) return null;
  const rows = pointRows(digest["points"]);
  if (rows.length === 0) return null;
  const timeframe = typeof s["timeframe"] === "string" ? ` · ${s["timeframe"]}` : "";
  const columns = digest["pointColumns"];
  if (Array.isArray(columns)) {
    const members = (digest["members"] as Json[] | undefined) ?? [];
    const scales = (digest["pointScales"] as number[] | undefined) ?? [];
    const series = columns.slice(1).map((label, k) => {
      const m = members[k] ?? {};
      // Rebased members are written at 1,000 = the first time; the view rebases all to 100 anyway.
      const unit = m["rebased"] ? "rebased" : String(m["unit"] ?? "");
      return line(String(label), unit, rows, k, scales[k] ?? 1);
    });
    const title = `Compare · ${series.map((x) => x.label).join(", ")}${timeframe}`;
    return { kind: "series", title, series: series.filter((x) => x.times.length > 0), layout: series.length > 1 ? "rebased" : "single" };
  }
  const unit = String(s["unit"] ?? "");
  const asset = String(s["asset"] ?? "").toUpperCase();
  const field = String(s["field"] ?? s["metric"] ?? "value");
  const scale = typeof digest["pointScale"] === "number" ? digest["pointScale"] : 1;
  const title = `${asset} · ${field}${unit ? ` (${unit})` : ""}${timeframe}`;
  return { kind: "series", title, series: [line(field, unit, rows, 0, scale)], layout: "single" };
}

export interface ClusterBand {
  side: "above" | "below";
  low: number;
  high: number;
  intensity: number;
}

export interface HeatmapPreview {
  kind: "ladder";
  asset: string;
  title: string;
  last: { price: number; time: string } | null;
  bands: ClusterBand[];
}

/** The clusters above and below the last price a heatmap digest names; null when it names none. */
export function heatmapPreview(s: Json | undefined): HeatmapPreview | null {
  const digest = s?.["digest"] as Json | undefined;
  const latest = digest?.["latest"] as Json | undefined;
  if (!s || !digest || !latest) return null;
  const bands: ClusterBand[] = [];
  const seen = new Set<string>();
  for (const side of ["above", "below"] as const) {
    const part = latest[side] as Json | undefined;
    const top = Array.isArray(part?.["also"]) ? (part!["also"] as Json[]) : [];
    const named = ["nearest", "largest"].map((k) => part?.[k]).filter((c): c is Json => !!c && typeof c === "object");
    for (const c of [...top, ...named]) {
      const low = Number(c["low"]);
      const high = Number(c["high"]);
      const intensity = Number(c["intensity"]);
      const key = `${side}:${low}:${high}`;
      if (![low, high, intensity].every(Number.isFinite) || seen.has(key)) continue;
      seen.add(key);
      bands.push({ side, low, high, intensity });
    }
  }
  const anchor = digest["anchor"];
  const last =
    Array.isArray(anchor) && typeof anchor[0] === "string" && typeof anchor[1] === "number" ? { time: anchor[0], price: anchor[1] } : null;
  if (bands.length === 0 && !last) return null;
  const asset = String(s["asset"] ?? "").toUpperCase();
  const title = `${asset} liquidation clusters · ${String(digest["timeframe"] ?? "")} · ${String(digest["lookback"] ?? "")}`;
  return { kind: "ladder", asset, title, last, bands };
}
