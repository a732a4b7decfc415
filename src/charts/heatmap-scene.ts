// Where everything of the liquidation heatmap goes, in pixels: the plot and its scales, candles,
// axis ticks, the last price, the nearest and largest clusters and the colour bar's ticks, and
// every text with its extent. The SVG (for the view) writes the scene out; the PNG paints the
// shapes itself and has resvg draw only the texts.
import { colorPosition } from "./colormap.js";
import { esc, priceLabel, timeTickLabels, usdCompact } from "./format.js";
import type { ColumnCandles, HeatmapView, Theme } from "./model/types.js";
import { type Linear, linear, niceTicks, timeTicks } from "./scale.js";
import { type Box, type ChartText, chartText, type TextAnchor } from "./text-atlas.js";

export interface HeatmapLayout {
  width: number;
  height: number;
  plot: { x0: number; y0: number; x1: number; y1: number };
  /** Price → y pixel. */
  y: Linear;
  /** Time (epoch ms) → x pixel. */
  x: Linear;
  colorBar: { x: number; y0: number; y1: number; w: number };
}

/** Pixels below the time axis for the picture's source caption (see charts/model/caption.ts). */
export const CAPTION_ROW = 14;

export function heatmapLayout(view: HeatmapView, width: number, height: number): HeatmapLayout {
  const plot = { x0: 8, y0: 34, x1: width - 132, y1: height - CAPTION_ROW - 24 };
  const lo = view.priceLow - view.priceStep / 2;
  const hi = view.priceLow + (view.rows - 1) * view.priceStep + view.priceStep / 2;
  const t0 = view.times[0] ?? 0;
  const t1 = (view.times[view.cols - 1] ?? t0) + view.columnMs;
  return {
    width,
    height,
    plot,
    y: linear([lo, hi], [plot.y1, plot.y0]),
    x: linear([t0, t1], [plot.x0, plot.x1]),
    colorBar: { x: width - 58, y0: plot.y0, y1: plot.y1, w: 10 },
  };
}

/**
 * Everything drawn over the matrix, placed in pixels once: the SVG writes it out, and the PNG
 * painter fills the shapes itself and leaves only the text to resvg.
 */
export interface HeatmapScene {
  layout: HeatmapLayout;
  /** Candle wick and body; the body's colour says up or down. */
  candles: Array<{ up: boolean; wick: Box; body: Box }>;
  priceTicks: Array<{ y: number; label: string }>;
  timeTicks: Array<{ x: number; label: string; anchor: "start" | "middle" | "end" }>;
  /** The last price's dashed line and its tag at the right edge of the plot, when inside the plot. */
  last: { y: number; label: string; tag: Box } | null;
  /** One outlined band per distinct cluster at the plot's right edge, and its label box. */
  marks: Array<{ box: Box; color: string }>;
  labels: Array<{ box: Box; text: string; color: string }>;
  colorTicks: Array<{ y: number; label: string }>;
}

/** White and red read over every part of the colour ramp; viridis' greens would hide green candles. */
export const HEATMAP_CANDLE_UP = "#f4f4f5";
export const HEATMAP_CANDLE_DOWN = "#ff4d5e";
/** The last price's line: dashes of 4 px, gaps of 3 px, at this opacity. */
export const LAST_DASH = [4, 3] as const;
export const LAST_OPACITY = 0.9;
/** Pixels a character of a cluster label (11 px) takes, at most. */
const LABEL_CHAR = 6;
/** Cluster labels sit on black at this opacity. */
export const LABEL_OPACITY = 0.62;

export function heatmapScene(view: HeatmapView, width: number, height: number, theme: Theme): HeatmapScene {
  const L = heatmapLayout(view, width, height);
  const { plot } = L;
  let last: HeatmapScene["last"] = null;
  if (view.last) {
    const y = L.y(view.last.price);
    if (y >= plot.y0 && y <= plot.y1) {
      const label = priceLabel(view.last.price, view.priceStep / 10);
      last = { y: r(y), label, tag: { x0: plot.x1 + 2, y0: r(y - 8), x1: plot.x1 + 2 + (label.length * 6.4 + 8), y1: r(y - 8) + 16 } };
    }
  }
  const { marks, labels } = markShapes(view, L, theme);
  return {
    layout: L,
    candles: candleShapes(view, L, Math.max(1, Math.floor((plot.x1 - plot.x0) / 5))),
    // An axis label the last price's tag would cover is left out.
    priceTicks: priceTicks(view, L).filter((t) => !last || Math.abs(t.y - last.y) >= 13),
    timeTicks: timeTickList(view, L),
    last,
    marks,
    labels,
    colorTicks: colorTicks(view, L),
  };
}

const r = (v: number) => Math.round(v * 10) / 10;

/** The chart's texts by what they label, each as SVG and with the extent its glyphs can take. */
export interface HeatmapTexts {
  title: ChartText[];
  price: ChartText[];
  time: ChartText[];
  last: ChartText[];
  labels: ChartText[];
  colorBar: ChartText[];
  /** Where the figures come from, in the last row. */
  caption: ChartText[];
}

export function heatmapTexts(view: HeatmapView, S: HeatmapScene, theme: Theme, caption = ""): HeatmapTexts {
  const L = S.layout;
  const { plot, colorBar: bar } = L;
  const where = view.scope === "exchange" ? view.exchange : "all venues";
  const heading = `${view.asset.toUpperCase()} liquidation heatmap`;
  const price = view.last ? priceLabel(view.last.price, view.priceStep / 10) : "";
  const lastWidth = view.last ? (5 + price.length) * 6.8 + 12 : 0;
  // In a narrow pane the title gives up the venue, then the timeframe and lookback, before it would
  // run into the last price; that label moves right, up to the colour bar's label, when the plot is short of room.
  const details = [` · ${view.timeframe} · ${view.lookback} · ${where}`, ` · ${view.timeframe} · ${view.lookback}`, ""];
  const fits = (detail: string, right: number) => plot.x0 + heading.length * 8.4 + detail.length * 7.2 + lastWidth <= right;
  const right = fits(details[0]!, plot.x1) ? plot.x1 : L.colorBar.x - 6;
  const detail = details.find((d) => fits(d, right)) ?? "";
  const title = [
    chartText(
      plot.x0,
      20,
      14,
      "start",
      heading + detail,
      `font-weight="600" fill="${theme.text}">${esc(heading)}<tspan font-weight="400" fill="${theme.muted}">${esc(detail)}</tspan>`,
    ),
  ];
  if (view.last) {
    title.push(
      chartText(
        right,
        20,
        12,
        "end",
        `last ${price}`,
        `fill="${theme.muted}">last <tspan fill="${theme.text}" font-weight="600">${price}</tspan>`,
      ),
    );
  }
  const muted = (x: number, y: number, size: number, anchor: TextAnchor, text: string) =>
    chartText(x, y, size, anchor, text, `fill="${theme.muted}">${esc(text)}`);
  return {
    title,
    price: S.priceTicks.map((t) => muted(plot.x1 + 7, r(t.y + 4), 11, "start", t.label)),
    time: S.timeTicks.map((t) => muted(t.x, plot.y1 + 16, 11, t.anchor, t.label)),
    last: S.last
      ? [chartText(plot.x1 + 6, r(S.last.y + 4), 11, "start", S.last.label, `font-weight="600" fill="#111">${esc(S.last.label)}`)]
      : [],
    labels: S.labels.map((l) => chartText(r(l.box.x0 + 5), r(l.box.y0 + 12), 11, "start", l.text, `fill="${l.color}">${esc(l.text)}`)),
    colorBar: [
      muted(bar.x, bar.y0 - 8, 10, "start", "USD"),
      ...S.colorTicks.map((t) => muted(bar.x + bar.w + 5, r(t.y + 4), 10, "start", t.label)),
    ],
    caption: caption ? [muted(plot.x0, L.height - 5, 10, "start", caption)] : [],
  };
}

function priceTicks(view: HeatmapView, L: HeatmapLayout): HeatmapScene["priceTicks"] {
  const [lo, hi] = L.y.domain;
  return niceTicks(lo, hi, Math.max(3, Math.floor((L.plot.y1 - L.plot.y0) / 48))).map((p) => ({
    y: r(L.y(p)),
    label: priceLabel(p, view.priceStep),
  }));
}

function timeTickList(view: HeatmapView, L: HeatmapLayout): HeatmapScene["timeTicks"] {
  const [t0, t1] = L.x.domain;
  const ticks = timeTicks(t0, t1, Math.max(4, Math.floor((L.plot.x1 - L.plot.x0) / 110)));
  const labels = timeTickLabels(ticks, t1 - t0);
  const out: HeatmapScene["timeTicks"] = [];
  let right = -Infinity;
  ticks.forEach((t, k) => {
    const x = r(L.x(t));
    const anchor = x < L.plot.x0 + 30 ? "start" : x > L.plot.x1 - 30 ? "end" : "middle";
    // In a narrow plot a label that would run into the one before it is left out.
    const w = labels[k]!.length * 6.2;
    const left = anchor === "start" ? x : anchor === "end" ? x - w : x - w / 2;
    if (left < right + 6) return;
    right = left + w;
    out.push({ x, label: labels[k]!, anchor });
  });
  return out;
}

/** Candles re-bucketed to at most `buckets` so each stays readable (≥ ~4 px wide). */
export function bucketCandles(
  c: ColumnCandles,
  n: number,
  buckets: number,
): Array<{ from: number; to: number; o: number; h: number; l: number; c: number } | null> {
  const k = Math.max(1, Math.ceil(n / Math.max(1, buckets)));
  const out: Array<{ from: number; to: number; o: number; h: number; l: number; c: number } | null> = [];
  for (let s = 0; s < n; s += k) {
    let o = NaN,
      h = -Infinity,
      l = Infinity,
      cl = NaN;
    for (let j = s; j < Math.min(n, s + k); j++) {
      const oj = c.open[j],
        hj = c.high[j],
        lj = c.low[j],
        cj = c.close[j];
      if (oj == null || hj == null || lj == null || cj == null) continue;
      if (Number.isNaN(o)) o = oj;
      h = Math.max(h, hj);
      l = Math.min(l, lj);
      cl = cj;
    }
    out.push(Number.isNaN(o) ? null : { from: s, to: Math.min(n, s + k), o, h, l, c: cl });
  }
  return out;
}

function candleShapes(view: HeatmapView, L: HeatmapLayout, buckets: number): HeatmapScene["candles"] {
  const { times, columnMs } = view;
  const out: HeatmapScene["candles"] = [];
  // Fills only (a 1-px rectangle for the wick): stroking hundreds of subpaths was most of the
  // rasteriser's time for a heatmap chart.
  for (const b of bucketCandles(view.candles, times.length, buckets)) {
    if (!b) continue;
    const xa = L.x(times[b.from]!);
    const xb = L.x(times[b.to - 1]! + columnMs);
    const mid = (xa + xb) / 2;
    const bw = Math.max(1, (xb - xa) * 0.62);
    const top = r(L.y(Math.max(b.o, b.c)));
    const bottom = L.y(Math.min(b.o, b.c));
    const bx = r(mid - bw / 2);
    out.push({
      up: b.c >= b.o,
      wick: { x0: r(mid - 0.5), y0: r(L.y(b.h)), x1: r(mid - 0.5) + 1, y1: r(L.y(b.l)) },
      body: { x0: bx, y0: top, x1: bx + r(bw), y1: top + r(Math.max(1, bottom - top)) },
    });
  }
  return out;
}

function markShapes(view: HeatmapView, L: HeatmapLayout, theme: Theme): Pick<HeatmapScene, "marks" | "labels"> {
  const marks: HeatmapScene["marks"] = [];
  const labels: Array<{ y: number; text: string; color: string }> = [];
  const seen = new Set<string>();
  for (const m of view.marks) {
    const key = `${m.side}:${m.low}:${m.high}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const color = m.side === "above" ? theme.markAbove : theme.markBelow;
    const yTop = L.y(m.high + view.priceStep / 2);
    const yBottom = L.y(m.low - view.priceStep / 2);
    marks.push({ box: { x0: L.plot.x1 - 10, y0: r(yTop), x1: L.plot.x1, y1: r(yTop) + r(Math.max(2, yBottom - yTop)) }, color });
    const kinds = view.marks
      .filter((o) => `${o.side}:${o.low}:${o.high}` === key)
      .map((o) => o.kind)
      .join(" & ");
    const band =
      m.low === m.high ? priceLabel(m.low, view.priceStep) : `${priceLabel(m.low, view.priceStep)}–${priceLabel(m.high, view.priceStep)}`;
    const arrow = m.side === "above" ? "▲" : "▼";
    // The longest wording that fits left of the marks: a narrow plot drops the amount, then the kind.
    const room = (L.plot.x1 - 14 - L.plot.x0 - 10) / LABEL_CHAR;
    const wordings = [
      `${kinds} ${arrow} ${band} · ${usdCompact(m.intensity)}`,
      `${kinds} ${arrow} ${band}`,
      `${arrow} ${band} · ${usdCompact(m.intensity)}`,
      `${arrow} ${band}`,
    ];
    labels.push({ y: (yTop + yBottom) / 2, text: wordings.find((w) => w.length <= room) ?? wordings.at(-1)!, color });
  }
  // Keep labels 15 px apart, in price order, inside the plot.
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) labels[i]!.y = Math.max(labels[i]!.y, labels[i - 1]!.y + 15);
  const overflow = (labels.at(-1)?.y ?? 0) - (L.plot.y1 - 8);
  if (overflow > 0) for (const l of labels) l.y -= overflow;
  return {
    marks,
    labels: labels.map((l) => {
      const w = l.text.length * LABEL_CHAR + 10;
      const x = Math.max(L.plot.x0, L.plot.x1 - 14 - w);
      return { box: { x0: r(x), y0: r(l.y - 8), x1: r(x) + r(w), y1: r(l.y - 8) + 16 }, text: l.text, color: l.color };
    }),
  };
}

function colorTicks(view: HeatmapView, L: HeatmapLayout): HeatmapScene["colorTicks"] {
  if (!(view.zMax > 0)) return [];
  const { y0, y1 } = L.colorBar;
  return niceTicks(0, view.zMax, 5)
    .filter((v) => v > 0 && colorPosition(v, view.zMax) > 0.12)
    .map((v) => ({ y: r(y1 - colorPosition(v, view.zMax) * (y1 - y0)), label: usdCompact(v) }));
}
