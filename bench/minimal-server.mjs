// Baseline for the cold-start figure: the smallest useful MCP server the SDK (v2) allows (one
// trivial tool over stdio, served by serveStdio for both protocol eras, as the SDK documents it),
// run with plain node so it pays exactly what any SDK server pays to start.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

serveStdio(() => {
  const server = new McpServer({ name: "minimal", version: "1.0.0" });
  server.registerTool("echo", { description: "Echo the text back.", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
});
