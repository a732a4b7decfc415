// What resources need of the tools, handed to them by the server: a tool's argument names, a run by
// name (a view's PNG is a tool's chart) and the tools' full output schemas (the catalog document).
import type { CallToolResult } from "@modelcontextprotocol/server";

import type { BackendContext } from "../backend/types.js";

export interface ToolRunner {
  /** The argument names a tool takes. */
  argumentsOf(name: string): readonly string[];
  /** Runs a tool against the server's backend; `secret` is redacted from any error text. */
  run(name: string, args: Record<string, unknown>, context: { call: BackendContext; secret?: string }): Promise<CallToolResult>;
  /** Every tool's output schema in full, by tool name. */
  outputSchemas(): Record<string, unknown>;
}
