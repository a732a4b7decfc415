// A tool is a plain object passed through defineTool so types flow; runTool is the one wrapper
// that validates arguments, runs the handler and turns anything it throws into an isError result.
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { z } from "zod";

import type { Backend, BackendContext } from "../backend/types.js";
import { sourceCaption } from "../charts/model/caption.js";
import type { ChartView } from "../charts/model/types.js";
import { log } from "../log.js";
import { errorResult } from "../mcp/errors.js";
import { recordingBackend, type Source, sourceLine, sourceOf, sourceSchema } from "./provenance.js";
import { droppedArgument, oversized, parseArgs } from "./validation.js";
import { VIEW_META_KEY, viewMeta, type ViewStore } from "./view-data.js";

export interface ToolContext {
  backend: Backend;
  /** Passed to every backend call: the caller's key (HTTP transport), abort signal, progress. */
  call: BackendContext;
  /** A key to redact from any error text (the caller's, else the server's configured one). */
  secret?: string;
  /** The client renders MCP Apps views: results carry the chart data in `_meta`, never in the model's fields. */
  ui?: boolean;
  /** Where views' data is kept and its handles signed (with `ui`). */
  views?: ViewStore;
  /** Set by runTool: build `view` (for the client's view or a PNG requested with `chart`). */
  wantView?: boolean;
}

export interface ToolOutput<S> {
  /** The model's view: compact text (clients often forward only this). */
  text: string;
  /** Typed result matching the tool's output schema. */
  structured: S;
  /** What a view or PNG draws; null when the result holds nothing to draw (an empty range). */
  view?: ChartView | null;
}

export interface Tool<In extends z.ZodObject = z.ZodObject, Out extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** Flat and strict: every field is a top-level argument; unknown fields are refused. */
  input: In;
  output: Out;
  /** One typical call: `call TOOL --help` shows it and a test runs it, so it stays valid. */
  example?: z.input<In>;
  /** The endpoint a tool always calls (tools selecting one by `metric` leave this out). */
  endpoint?: string;
  /** The MCP Apps view that draws this tool's results. */
  view?: "heatmap" | "chart";
  // Method syntax keeps parameters bivariant, so specific tools fit in one `Tool[]`.
  handle(args: z.output<In>, context: ToolContext): Promise<ToolOutput<z.input<Out>>>;
}

/** Every answer also carries its `source` (added by runTool), so every output schema declares it. */
export function defineTool<In extends z.ZodObject, Out extends z.ZodObject>(tool: Tool<In, Out>): Tool<In, Out> {
  return { ...tool, output: tool.output.extend({ source: sourceSchema }) as unknown as Out };
}

/**
 * Validate, run, and map failures: tools never catch, this is the only place that does. Every
 * answer ends with the line saying where its figures come from; an error has no figures, so none.
 */
export async function runTool(tool: Tool, rawArgs: unknown, context: ToolContext): Promise<CallToolResult> {
  // Before any parsing, on every path (stdio, HTTP, call, the library): arguments too large to
  // validate, and a name the SDK's own parsing would drop, are refused as they are.
  const refused = oversized(tool.name, rawArgs) ?? droppedArgument(tool, rawArgs);
  if (refused) return errorResult(refused, { tool: tool.name });
  try {
    const args = parseArgs(tool, rawArgs);
    const chart = (args as { chart?: unknown }).chart === true;
    const { backend, reach } = recordingBackend(context.backend);
    const out = await tool.handle(args, { ...context, backend, wantView: context.ui === true || chart });
    const nowMs = Date.now();
    const source = sourceOf(context.backend.origin, reach, nowMs);
    const structured: Record<string, unknown> = { ...(out.structured as Record<string, unknown>), source };
    const text = `${out.text}\n${sourceLine(source)}`;
    const result: CallToolResult = { content: [{ type: "text", text }], structuredContent: structured };
    if (chart && out.view) result.content.push(await chartContent(out.view, source));
    if (context.ui && context.views && out.view) {
      const { chart: _, ...own } = args as Record<string, unknown>;
      const asOfMs = reach.asOfMs ?? (Number.isFinite(reach.receivedMs) ? reach.receivedMs : nowMs);
      const call = { tool: tool.name, args: own, asOfMs, key: context.secret, backendKind: context.backend.kind };
      result._meta = { [VIEW_META_KEY]: viewMeta(context.views, out.view, call) };
    }
    return result;
  } catch (error) {
    const metric = (rawArgs as { metric?: unknown } | undefined)?.metric;
    const endpoint = tool.endpoint ?? (typeof metric === "string" ? metric : undefined);
    return errorResult(error, { tool: tool.name, endpoint, secret: context.secret ?? context.call.apiKey });
  }
}

/**
 * The PNG block of a result. The renderer is imported on the first chart only; a failure to draw
 * becomes a line of text, since the data the model asked for is still there.
 */
async function chartContent(view: ChartView, source: Source): Promise<CallToolResult["content"][number]> {
  try {
    const { chartPng } = await import("../charts/png.js");
    const png = await chartPng(view, sourceCaption(source));
    return { type: "image", data: Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString("base64"), mimeType: "image/png" };
  } catch (error) {
    log.warn(`chart rendering failed: ${error instanceof Error ? error.message : String(error)}`);
    return { type: "text", text: "(The chart could not be drawn on this server; the text above holds the data.)" };
  }
}
