// What both views share: the handshake, host theme and size, turning a tool result into something
// to draw or a clear message, re-drawing on resize, and tool calls back through the host.
import { captionSourceOf, sourceCaption } from "../src/charts/model/caption.js";
import { DARK, LIGHT, type Theme } from "../src/charts/model/types.js";
import { Bridge, type HostContext } from "./bridge.js";
import { loadViewData } from "./data.js";

export interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  isError?: boolean;
}

export type Accepted<V> = { view: V } | { message: string };

export interface Size {
  width: number;
  height: number;
}

export interface ViewApp<V> {
  name: string;
  /** What to draw from a result, the loaded chart data placed in its `structuredContent.view` by the shell. */
  accept(result: ToolResult): Accepted<V>;
  /** A coarse drawing from the digest alone, for hosts that pass no detail; null when it has nothing to draw. */
  preview(result: ToolResult): V | null;
  /** `caption`: where the figures come from, drawn on the picture (it is screenshotted without the text). */
  render(root: HTMLElement, view: V, size: Size, theme: Theme, shell: Shell, caption: string): void;
}

export interface Shell {
  callTool(name: string, args: Record<string, unknown>): Promise<void>;
  status(text: string): void;
}

/** The picture's source line, from the answer's `source` (every answer of ours carries one). */
function sourceLabel(result: ToolResult): string {
  const source = captionSourceOf(result.structuredContent?.["source"]);
  return source ? sourceCaption(source) : "";
}

/** The first line of a result's text: the model's view says why there is nothing to draw. */
export function firstText(result: ToolResult): string {
  const text = result.content?.find((c) => c.type === "text" && typeof c.text === "string")?.text ?? "";
  return text.split("\n")[0]!.slice(0, 300);
}

/**
 * The checks every view makes before drawing: an error result, a result without a `view` of this
 * kind, or one whose payload `check` finds wrong, each becomes the message shown instead.
 */
export function viewOf(
  result: ToolResult,
  kind: string,
  noun: { missing: string; title: string; subject: string },
  check: (v: Record<string, unknown>) => string | null,
): { view: Record<string, unknown> } | { message: string } {
  if (result.isError) return { message: firstText(result) || "The tool reported an error." };
  const v = result.structuredContent?.["view"] as Record<string, unknown> | undefined;
  if (!v || typeof v !== "object") {
    const why = firstText(result);
    return { message: why ? `Nothing to draw. ${why}` : `Nothing to draw: the result carries no ${noun.missing}.` };
  }
  if (v["kind"] !== kind) return { message: `This result is not a ${noun.title}.` };
  const problem = check(v);
  return problem ? { message: `This ${noun.subject} cannot be drawn: ${problem}.` } : { view: v };
}

export function showMessage(root: HTMLElement, text: string, kind: "info" | "error" = "info"): void {
  root.replaceChildren();
  const box = document.createElement("div");
  box.className = `msg ${kind}`;
  box.textContent = text;
  root.append(box);
}

export function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A host colour (which may be a light-dark() pair) resolved to what the page shows. */
function resolveColor(variable: string, fallback: string): string {
  const probe = document.createElement("span");
  probe.style.color = `var(${variable}, ${fallback})`;
  probe.style.display = "none";
  document.body.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color || fallback;
}

function hostTheme(context: HostContext): Theme {
  const dark = context.theme ? context.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  const root = document.documentElement;
  root.style.colorScheme = dark ? "dark" : "light";
  root.dataset.theme = dark ? "dark" : "light";
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (name.startsWith("--") && typeof value === "string") root.style.setProperty(name, value);
  }
  const base = dark ? DARK : LIGHT;
  const font = getComputedStyle(root).getPropertyValue("--font-sans").trim();
  return {
    ...base,
    background: resolveColor("--color-background-primary", base.background),
    text: resolveColor("--color-text-primary", base.text),
    muted: resolveColor("--color-text-secondary", base.muted),
    grid: resolveColor("--color-border-tertiary", base.grid),
    font: font || "system-ui, -apple-system, 'Segoe UI', sans-serif",
  };
}

export function start<V>(app: ViewApp<V>): void {
  const root = document.getElementById("app")!;
  const bridge = new Bridge();
  let context: HostContext = {};
  let theme = hostTheme(context);
  let current: V | null = null;
  let caption = "";
  let note = "";
  let serverTools = false;
  let shown = 0;
  let lastSize = "";

  const size = (): Size => {
    const width = Math.max(320, Math.floor(root.clientWidth || window.innerWidth || 640));
    const fixed = context.containerDimensions?.height;
    const max = context.containerDimensions?.maxHeight;
    let height = Math.round(Math.min(520, Math.max(300, width * 0.58)));
    if (fixed) height = Math.max(240, fixed - 44);
    else if (max) height = Math.min(height, Math.max(240, max - 44));
    return { width, height };
  };

  // The content's own height, not the frame's: scrollHeight never drops below the frame, so a pane
  // opened taller than a result (or a message after a chart) could only grow.
  const reportSize = () => {
    const el = document.documentElement;
    const before = el.style.height;
    el.style.height = "max-content";
    const height = Math.ceil(el.getBoundingClientRect().height);
    el.style.height = before;
    const width = el.scrollWidth;
    const next = `${width}x${height}`;
    if (next === lastSize) return;
    lastSize = next;
    bridge.notify("ui/notifications/size-changed", { width, height });
  };

  const draw = () => {
    if (current === null) return reportSize();
    try {
      app.render(root, current, size(), theme, shell, caption);
      if (note) {
        const box = document.createElement("div");
        box.className = "note";
        box.textContent = note;
        root.prepend(box);
      }
    } catch (error) {
      current = null;
      showMessage(root, `This result cannot be drawn: ${error instanceof Error ? error.message : String(error)}`, "error");
    }
    reportSize();
  };

  const show = async (received: unknown) => {
    const seq = ++shown;
    const result = (received && typeof received === "object" ? received : {}) as ToolResult;
    let accepted: Accepted<V>;
    let why = "";
    try {
      caption = sourceLabel(result);
      let loaded = result;
      if (!result.isError) {
        const got = await loadViewData(result, bridge, serverTools);
        if (seq !== shown) return;
        if ("view" in got) loaded = { ...result, structuredContent: { ...result.structuredContent, view: got.view } };
        else why = got.note;
      }
      const preview = why ? app.preview(result) : null;
      accepted = preview ? { view: preview } : app.accept(loaded);
    } catch (error) {
      accepted = { message: `This result cannot be drawn: ${error instanceof Error ? error.message : String(error)}.` };
    }
    if ("message" in accepted) {
      current = null;
      showMessage(root, why && !result.isError ? `${accepted.message} ${why}` : accepted.message, result.isError ? "error" : "info");
      reportSize();
      return;
    }
    note = why;
    current = accepted.view;
    draw();
  };

  const shell: Shell = {
    async callTool(name, args) {
      shell.status("Loading…");
      try {
        await show(await bridge.request("tools/call", { name, arguments: args }));
      } catch (error) {
        shell.status(`The host could not run ${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    status(text) {
      const el = root.querySelector<HTMLElement>(".status");
      if (el) el.textContent = text;
    },
  };

  bridge.on("ui/notifications/tool-input", () => {
    if (current === null) showMessage(root, "Loading…");
  });
  bridge.on("ui/notifications/tool-result", (params) => void show(params));
  bridge.on("ui/notifications/tool-cancelled", (params) => {
    current = null;
    const reason = typeof params?.["reason"] === "string" ? `: ${params["reason"]}` : "";
    showMessage(root, `The tool call was cancelled${reason}.`);
    reportSize();
  });
  bridge.on("ui/notifications/host-context-changed", (params) => {
    context = { ...context, ...(params as HostContext) };
    theme = hostTheme(context);
    draw();
  });

  let pending = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(draw);
  });
  // Content that changes without a redraw (a status line, a font arriving) is reported too.
  let measuring = 0;
  new ResizeObserver(() => {
    cancelAnimationFrame(measuring);
    measuring = requestAnimationFrame(reportSize);
  }).observe(root);

  showMessage(root, "Waiting for the tool result…");
  bridge
    .connect(app.name)
    .then((connected) => {
      context = connected.context;
      serverTools = connected.serverTools;
      theme = hostTheme(context);
      draw();
    })
    .catch((error: unknown) => {
      showMessage(root, `Could not connect to the host: ${error instanceof Error ? error.message : String(error)}`, "error");
    });
}

/** A tooltip and crosshair over a chart; returns the element to fill. */
function hoverLayer(container: HTMLElement): { tip: HTMLElement; vline: HTMLElement; hline: HTMLElement; hide(): void } {
  const tip = document.createElement("div");
  tip.className = "tip";
  const vline = document.createElement("div");
  vline.className = "cross v";
  const hline = document.createElement("div");
  hline.className = "cross h";
  container.append(vline, hline, tip);
  const hide = () => {
    tip.style.display = vline.style.display = hline.style.display = "none";
  };
  hide();
  return { tip, vline, hline, hide };
}

function placeTip(tip: HTMLElement, x: number, y: number, bounds: Size): void {
  tip.style.display = "block";
  const w = tip.offsetWidth;
  const h = tip.offsetHeight;
  tip.style.left = `${x + 14 + w > bounds.width ? x - 14 - w : x + 14}px`;
  tip.style.top = `${Math.min(bounds.height - h - 4, Math.max(4, y - h / 2))}px`;
}

/**
 * A tooltip and crosshair that follow the pointer over a chart's plot area. `describe` answers, for
 * the pointer at (x, y) inside the plot, the tip's HTML and the x the vertical line stands at;
 * outside the plot, or off the chart, both are hidden.
 */
export function plotHover(
  chart: HTMLElement,
  plot: { x0: number; x1: number; y0: number; y1: number },
  bounds: Size,
  describe: (x: number, y: number) => { html: string; x: number },
): void {
  const hover = hoverLayer(chart);
  chart.addEventListener("mouseleave", hover.hide);
  chart.addEventListener("mousemove", (event) => {
    const box = chart.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    const { x0, x1, y0, y1 } = plot;
    if (x < x0 || x > x1 || y < y0 || y > y1) return hover.hide();
    const shown = describe(x, y);
    hover.tip.innerHTML = shown.html;
    hover.vline.style.cssText = `display:block;left:${shown.x}px;top:${y0}px;height:${y1 - y0}px`;
    hover.hline.style.cssText = `display:block;top:${y}px;left:${x0}px;width:${x1 - x0}px`;
    placeTip(hover.tip, shown.x, y, bounds);
  });
}
