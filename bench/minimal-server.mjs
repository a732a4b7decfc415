// Baseline for the cold-start figure: the smallest useful MCP server the SDK allows (one trivial
// tool over stdio), run with plain node so it pays exactly what any SDK server pays to start.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "minimal", version: "1.0.0" });
server.registerTool(
  "echo",
  { description: "Echo the text back.", inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: "text", text }] }),
);
await server.connect(new StdioServerTransport());
