// Plays the host's side of MCP Apps in headless Chromium (Debian's package, driven by
// playwright-core): the view's HTML in an iframe, ui/initialize answered with a host context,
// the tool input and result sent, the view's tools/call proxied to a real MCP client. Collects
// console errors and every network request the page makes.
import { existsSync } from "node:fs";

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Browser, Frame, Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Why browser tests cannot run here, or null when they can. */
export function browserUnavailable(): string | null {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is absent (apt-get install -y chromium)`;
  return null;
}

export async function launch(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export interface HostOptions {
  html: string;
  result: unknown;
  args: Record<string, unknown>;
  theme?: "light" | "dark";
  variables?: Record<string, string>;
  width?: number;
  /** Answers the view's tools/call. */
  callTool?: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;
  /**
   * The host played: "full" grants serverTools and passes the whole result; "strips-meta" drops the
   * result's _meta and refuses every tool call of the view (as Cursor does today); "no-server-tools"
   * passes _meta but grants no serverTools and fails the view's calls (as the Codex app does today).
   */
  host?: "full" | "strips-meta" | "no-server-tools" | "appbridge";
}

let appBridgeScript: Promise<string> | undefined;

/** The official ext-apps AppBridge host page's script, bundled once for the browser. */
function appBridgeBundle(): Promise<string> {
  appBridgeScript ??= (async () => {
    const esbuild = await import("esbuild");
    const out = await esbuild.build({
      entryPoints: [new URL("./app-bridge-page.ts", import.meta.url).pathname],
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2022",
      logLevel: "warning",
    });
    return out.outputFiles[0]!.text.replace(/<\/(script)/gi, "<\\/$1");
  })();
  return appBridgeScript;
}

export interface HostedView {
  page: Page;
  frame: Frame;
  errors: string[];
  requests: string[];
  sizes: Array<{ width: number; height: number }>;
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>;
}

const HOST_SCRIPT = `
window.__sizes = []; window.__calls = [];
const frame = document.getElementById("view");
function send(msg) { frame.contentWindow.postMessage(msg, "*"); }
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  if (!m || m.jsonrpc !== "2.0") return;
  if (m.method === "ui/initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "test-host", version: "1" },
      hostCapabilities: window.__host === "full" ? { serverTools: {} } : {}, hostContext: window.__context } });
  } else if (m.method === "ui/notifications/initialized") {
    send({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: window.__args } });
    send({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: window.__result });
  } else if (m.method === "ui/notifications/size-changed") {
    window.__sizes.push(m.params);
  } else if (m.method === "tools/call") {
    window.__calls.push(m.params);
    if (window.__host === "strips-meta") { send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Tool not found" } }); return; }
    if (window.__host === "no-server-tools") { send({ jsonrpc: "2.0", id: m.id, error: { code: -32000, message: "proxy error" } }); return; }
    try { send({ jsonrpc: "2.0", id: m.id, result: await window.hostCallTool(m.params.name, m.params.arguments) }); }
    catch (e) { send({ jsonrpc: "2.0", id: m.id, error: { code: -32000, message: String(e) } }); }
  } else if (m.id !== undefined) {
    send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "not supported by the test host" } });
  }
});
`;

export async function hostView(browser: Browser, opts: HostOptions): Promise<HostedView> {
  const width = opts.width ?? 800;
  const page = await browser.newPage({ viewport: { width: width + 20, height: 720 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") errors.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  page.on("request", (req) => {
    if (!/^(data|about|blob):/.test(req.url())) requests.push(req.url());
  });
  await page.route("**/*", (route) => (/^(data|about|blob):/.test(route.request().url()) ? route.continue() : route.abort()));
  await page.exposeFunction("hostCallTool", async (name: string, args: Record<string, unknown>) => {
    if (!opts.callTool) throw new Error("no tool calls in this test");
    return opts.callTool(name, args);
  });
  const host = opts.host ?? "full";
  // What this host hands the view of the result: all of it, or all but _meta.
  const passed = host === "strips-meta" ? stripMeta(opts.result) : opts.result;
  const context = {
    theme: opts.theme ?? "light",
    styles: { variables: opts.variables ?? {} },
    containerDimensions: { width, maxHeight: 700 },
    displayMode: "inline",
  };
  if (host === "appbridge") {
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:#888"><iframe id="view" style="width:${width}px;height:660px;border:0"></iframe><script>${await appBridgeBundle()}</script></body></html>`,
    );
    await page.evaluate((o) => (window as unknown as { startAppBridge(o: unknown): Promise<void> }).startAppBridge(o), {
      html: opts.html,
      args: opts.args,
      result: opts.result,
      context,
    });
    return framed(page, errors, requests);
  }
  await page.setContent(`<!doctype html><html><body style="margin:0;background:#888"><iframe id="view" style="width:${width}px;height:660px;border:0"></iframe>
<script>window.__context = ${JSON.stringify(context)}; window.__args = ${JSON.stringify(opts.args)}; window.__result = ${JSON.stringify(passed)}; window.__host = ${JSON.stringify(host)};${HOST_SCRIPT}</script></body></html>`);
  // srcdoc after the host script listens: the view's first message must find it.
  await page.evaluate((html) => {
    (document.getElementById("view") as HTMLIFrameElement).srcdoc = html;
  }, opts.html);
  return framed(page, errors, requests);
}

async function framed(page: Page, errors: string[], requests: string[]): Promise<HostedView> {
  const handle = await page.waitForSelector("#view");
  let frame = await handle.contentFrame();
  for (let i = 0; i < 50 && (!frame || frame.url() !== "about:srcdoc"); i++) {
    await page.waitForTimeout(20);
    frame = await handle.contentFrame();
  }
  if (!frame) throw new Error("the view's frame did not load");
  return { page, frame, errors, requests, sizes: [], toolCalls: [] };
}

export async function collect(h: HostedView): Promise<void> {
  h.sizes = await h.page.evaluate(() => (window as unknown as { __sizes: Array<{ width: number; height: number }> }).__sizes);
  h.toolCalls = await h.page.evaluate(
    () => (window as unknown as { __calls: Array<{ name: string; arguments: Record<string, unknown> }> }).__calls,
  );
}

function stripMeta(result: unknown): unknown {
  if (!result || typeof result !== "object") return result;
  const { _meta: _, ...rest } = result as Record<string, unknown>;
  return rest;
}
