// A tool is a plain object passed through defineTool so types flow; runTool is the one wrapper
// that validates arguments, runs the handler and turns anything it throws into an isError result.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Backend, BackendContext } from "../backend/types.js";
import { errorResult } from "./errors.js";
import { parseArgs } from "./validation.js";

export interface ToolContext {
  backend: Backend;
  /** Passed to every backend call: the caller's key (HTTP transport), abort signal, progress. */
  call: BackendContext;
  /** A key to redact from any error text (the caller's, else the server's configured one). */
  secret?: string;
}

export interface ToolOutput<S> {
  /** The model's view: compact text (clients often forward only this). */
  text: string;
  /** Typed result matching the tool's output schema. */
  structured: S;
}

export interface Tool<In extends z.ZodObject = z.ZodObject, Out extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** Flat and strict: every field is a top-level argument; unknown fields are refused. */
  input: In;
  output: Out;
  /** The endpoint a tool always calls (tools selecting one by `metric` leave this out). */
  endpoint?: string;
  // Method syntax keeps parameters bivariant, so specific tools fit in one `Tool[]`.
  handle(args: z.output<In>, context: ToolContext): Promise<ToolOutput<z.input<Out>>>;
}

export function defineTool<In extends z.ZodObject, Out extends z.ZodObject>(tool: Tool<In, Out>): Tool<In, Out> {
  return tool;
}

/** Validate, run, and map failures: tools never catch, this is the only place that does. */
export async function runTool(tool: Tool, rawArgs: unknown, context: ToolContext): Promise<CallToolResult> {
  try {
    const args = parseArgs(tool, rawArgs);
    const out = await tool.handle(args, context);
    return { content: [{ type: "text", text: out.text }], structuredContent: out.structured as Record<string, unknown> };
  } catch (error) {
    const metric = (rawArgs as { metric?: unknown } | undefined)?.metric;
    const endpoint = tool.endpoint ?? (typeof metric === "string" ? metric : undefined);
    return errorResult(error, { tool: tool.name, endpoint, secret: context.secret ?? context.call.apiKey });
  }
}
