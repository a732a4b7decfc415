// The SDK's HTTP entry checks a 2026-07-28 request's Mcp-Param-* headers against the called tool's
// input schema before dispatch, reading it through `McpServer.toolInputSchemaJson` (an internal
// method that looks among the tools registered with `registerTool`). This server answers tools/list
// and tools/call with its own handlers, so it hands the SDK the schema each era lists instead. The
// check it enables is pinned by test/mcp/eras.test.ts (a missing or mismatched Mcp-Param-Asset).
import type { McpServer } from "@modelcontextprotocol/server";

export function checkParamHeadersAgainst(server: McpServer, inputSchemaOf: (tool: string) => Record<string, unknown> | undefined): void {
  server.toolInputSchemaJson = inputSchemaOf;
}
