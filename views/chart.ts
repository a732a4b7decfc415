// Series view: line or candle chart of the result's chart data (views/data.ts says where it comes
// from); several series rebased to 100 or on twin axes (switchable), hover for the values at a time.
import { priceLabel, timeFull, valueLabel } from "../src/charts/format.js";
import type { SeriesView } from "../src/charts/model/types.js";
import { seriesLayout, seriesSvg } from "../src/charts/series-svg.js";
import { seriesPreview } from "./preview.js";
import { type Accepted, plotHover, start, type ToolResult, viewOf } from "./shell.js";

function check(v: Record<string, unknown>): string | null {
  if (!Array.isArray(v["series"])) return "the series are missing";
  for (const s of v["series"] as Array<Record<string, unknown>>) {
    if (!s || !Array.isArray(s["times"]) || !Array.isArray(s["values"]) || s["times"].length !== s["values"].length)
      return "a series' times and values do not match";
  }
  const c = v["candles"] as Record<string, unknown> | undefined;
  if (c !== undefined) {
    const n = Array.isArray(c["times"]) ? c["times"].length : -1;
    if (n < 0 || !["open", "high", "low", "close"].every((k) => Array.isArray(c[k]) && (c[k] as unknown[]).length === n))
      return "the candles are malformed";
  }
  const points =
    (v["series"] as Array<{ times: unknown[] }>).reduce((n, s) => n + s.times.length, 0) + (c ? (c["times"] as unknown[]).length : 0);
  if (points === 0) return "it holds no points";
  return null;
}

function accept(result: ToolResult): Accepted<SeriesView> {
  const got = viewOf(result, "series", { missing: "series", title: "series chart", subject: "chart" }, check);
  return "message" in got ? got : { view: got.view as unknown as SeriesView };
}

let chosenLayout: SeriesView["layout"] | null = null;

start<SeriesView>({
  name: "crypto-metrics chart",
  accept,
  preview: (result) => seriesPreview(result.structuredContent),
  render(root, original, size, theme, _shell, caption) {
    const view =
      chosenLayout && original.series.length >= 2 && (chosenLayout !== "twin" || original.series.length === 2)
        ? { ...original, layout: chosenLayout }
        : original;
    root.replaceChildren();
    if (original.series.length >= 2) {
      const bar = document.createElement("div");
      bar.className = "controls";
      const modes: Array<[SeriesView["layout"], string]> = [["rebased", "Rebased to 100"]];
      if (original.series.length === 2) modes.push(["twin", "Own axes"]);
      for (const [mode, label] of modes) {
        const b = document.createElement("button");
        b.textContent = label;
        b.className = view.layout === mode ? "on" : "";
        b.addEventListener("click", () => {
          chosenLayout = mode;
          this.render(root, original, size, theme, undefined as never, caption);
        });
        bar.append(b);
      }
      root.append(bar);
    }
    const chart = document.createElement("div");
    chart.className = "chart";
    chart.style.height = `${size.height}px`;
    chart.innerHTML = seriesSvg(view, { width: size.width, height: size.height, theme, caption });
    root.append(chart);

    const L = seriesLayout(view, size.width, size.height, theme.palette);
    plotHover(chart, L.plot, size, (x) => {
      const t = L.x.invert(x);
      const lines: string[] = [];
      let at = t;
      const c = view.candles;
      if (c && c.times.length) {
        const i = nearest(c.times, t);
        at = c.times[i]!;
        const [o, h, l, cl] = [c.open[i], c.high[i], c.low[i], c.close[i]];
        if (o != null && h != null && l != null && cl != null) {
          const step = Math.abs(cl) / 1e4;
          lines.push(`O ${priceLabel(o, step)} H ${priceLabel(h, step)} L ${priceLabel(l, step)} <b>C ${priceLabel(cl, step)}</b>`);
        }
      }
      for (const line of L.lines) {
        if (!line.times.length) continue;
        const i = nearest(line.times, t);
        if (!c) at = line.times[i]!;
        const shown = view.layout === "rebased" ? ` (${line.shown[i]!.toFixed(1)})` : "";
        lines.push(
          `<span style="color:${line.color}">■</span> ${escapeHtml(line.label)} <b>${valueLabel(line.values[i]!, line.unit)}</b>${shown}`,
        );
      }
      return { html: [timeFull(at), ...lines].join("<br>"), x: L.x(at) };
    });
  },
});

function nearest(times: number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid;
  }
  return Math.abs(times[hi]! - t) < Math.abs(times[lo]! - t) ? hi : lo;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
