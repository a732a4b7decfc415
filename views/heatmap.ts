// Liquidation heatmap view: the matrix drawn from the result's chart data (views/data.ts says where
// it comes from), hover for price, time and notional, and controls that ask the server for another
// timeframe, lookback or venue; where the host passes no detail, the digest's clusters as a ladder.
import { matrixPixels } from "../src/charts/colormap.js";
import { priceLabel, timeFull, usdCompact } from "../src/charts/format.js";
import { heatmapLayout } from "../src/charts/heatmap-scene.js";
import { heatmapSvg } from "../src/charts/heatmap-svg.js";
import { decodeCells, type HeatmapView } from "../src/charts/model/types.js";
import { ladderSvg } from "./ladder.js";
import { type HeatmapPreview, heatmapPreview } from "./preview.js";
import { type Accepted, decodeBase64, plotHover, start, type ToolResult, viewOf } from "./shell.js";

type Prepared = { kind: "matrix"; view: HeatmapView; cells: Float64Array; image: string } | HeatmapPreview;

function check(v: Record<string, unknown>): string | null {
  const int = (k: string) => Number.isInteger(v[k]) && (v[k] as number) > 0;
  if (!int("rows") || !int("cols")) return "the matrix has no rows or columns";
  const cols = v["cols"] as number;
  if (!Array.isArray(v["times"]) || v["times"].length !== cols) return "the column times do not match the matrix";
  const c = v["candles"] as Record<string, unknown> | undefined;
  if (!c || !["open", "high", "low", "close"].every((k) => Array.isArray(c[k]) && (c[k] as unknown[]).length === cols))
    return "the candles do not match the columns";
  if (!(typeof v["priceStep"] === "number" && v["priceStep"] > 0) || typeof v["priceLow"] !== "number") return "the price axis is missing";
  if (!(typeof v["zMax"] === "number" && v["zMax"] >= 0) || typeof v["z"] !== "string") return "the cell values are missing";
  if (!Array.isArray(v["marks"]) || typeof v["choices"] !== "object") return "the cluster marks are missing";
  return null;
}

function accept(result: ToolResult): Accepted<Prepared> {
  const got = viewOf(result, "heatmap", { missing: "heatmap", title: "liquidation heatmap", subject: "heatmap" }, check);
  if ("message" in got) return got;
  const view = got.view as unknown as HeatmapView;
  const cells = decodeCells(view, decodeBase64);
  const canvas = document.createElement("canvas");
  canvas.width = view.cols;
  canvas.height = view.rows;
  const ctx = canvas.getContext("2d")!;
  ctx.putImageData(new ImageData(new Uint8ClampedArray(matrixPixels(cells, view.rows, view.cols, view.zMax)), view.cols, view.rows), 0, 0);
  return { view: { kind: "matrix", view, cells, image: canvas.toDataURL("image/png") } };
}

function select(label: string, options: string[], value: string, onChange: (v: string) => void): HTMLElement {
  const wrap = document.createElement("label");
  wrap.textContent = label;
  const sel = document.createElement("select");
  for (const o of options) sel.append(new Option(o, o, o === value, o === value));
  sel.addEventListener("change", () => onChange(sel.value));
  wrap.append(sel);
  return wrap;
}

start<Prepared>({
  name: "crypto-metrics heatmap",
  accept,
  preview: (result) => heatmapPreview(result.structuredContent),
  render(root, prepared, size, theme, shell, caption) {
    root.replaceChildren();
    if (prepared.kind === "ladder") {
      const chart = document.createElement("div");
      chart.className = "chart";
      chart.style.height = `${size.height}px`;
      chart.innerHTML = ladderSvg(prepared, { width: size.width, height: size.height, theme, caption });
      root.append(chart);
      return;
    }
    const { view, cells, image } = prepared;
    const call = (args: { timeframe: string; lookback?: string; exchange?: string }) => {
      for (const el of root.querySelectorAll("select")) el.disabled = true;
      const scoped = args.exchange && args.exchange !== "all venues";
      void shell.callTool("get_liquidation_heatmap", {
        asset: view.asset,
        timeframe: args.timeframe,
        ...(args.lookback ? { lookback: args.lookback } : {}),
        ...(scoped ? { scope: "exchange", exchange: args.exchange } : {}),
      });
    };
    const venue = view.scope === "exchange" ? view.exchange : "all venues";
    const bar = document.createElement("div");
    bar.className = "controls";
    // A new timeframe takes its own default lookback; the lookback list is the timeframe's own.
    bar.append(
      select("Timeframe", view.choices.timeframes, view.timeframe, (tf) => call({ timeframe: tf, exchange: venue })),
      select("Lookback", view.choices.lookbacks[view.timeframe] ?? [view.lookback], view.lookback, (lb) =>
        call({ timeframe: view.timeframe, lookback: lb, exchange: venue }),
      ),
      select("Venue", ["all venues", ...view.choices.exchanges], venue, (ex) =>
        call({ timeframe: view.timeframe, lookback: view.lookback, exchange: ex }),
      ),
    );
    const status = document.createElement("span");
    status.className = "status";
    status.textContent = `${view.rows} × ${view.cols} cells`;
    status.title = view.cellRule;
    bar.append(status);

    const chart = document.createElement("div");
    chart.className = "chart";
    chart.style.height = `${size.height}px`;
    chart.innerHTML = heatmapSvg(view, { width: size.width, height: size.height, theme, imageHref: image, caption });
    root.append(bar, chart);

    const L = heatmapLayout(view, size.width, size.height);
    plotHover(chart, L.plot, size, (x, y) => {
      const { x0, x1 } = L.plot;
      const col = Math.min(view.cols - 1, Math.floor(((x - x0) / (x1 - x0)) * view.cols));
      const row = Math.min(view.rows - 1, Math.max(0, Math.round((L.y.invert(y) - view.priceLow) / view.priceStep)));
      const centre = view.priceLow + row * view.priceStep;
      const fine = view.priceStep / 10;
      const lines = [
        `<b>${priceLabel(centre - view.priceStep / 2, fine)} – ${priceLabel(centre + view.priceStep / 2, fine)}</b>`,
        view.columnMs > 0 ? `${timeFull(view.times[col]!)} + ${duration(view.columnMs)}` : timeFull(view.times[col]!),
        `Liquidation notional <b>${usdCompact(cells[row * view.cols + col]!)}</b>`,
      ];
      const o = view.candles.open[col],
        h = view.candles.high[col],
        l = view.candles.low[col],
        c = view.candles.close[col];
      if (o != null && h != null && l != null && c != null)
        lines.push(`O ${priceLabel(o, fine)} H ${priceLabel(h, fine)} L ${priceLabel(l, fine)} C ${priceLabel(c, fine)}`);
      return { html: lines.join("<br>"), x };
    });
  },
});

function duration(ms: number): string {
  const h = ms / 3_600_000;
  return h >= 24 && h % 24 === 0 ? `${h / 24}d` : h >= 1 && Number.isInteger(h) ? `${h}h` : `${Math.round(ms / 60_000)}m`;
}
