// Baseline for the MCP-over-HTTP rows: the smallest stateless Streamable HTTP server the SDK (v2)
// documents (createMcpHandler over a factory, a new McpServer per request, both protocol eras, SDK
// defaults) with one trivial tool, on node:http through the SDK's own Node adapter. Prints
// `listening on http://HOST:PORT` to stderr once ready, like `crypto-metrics-mcp http`.
// `--pad N`: the tool's answer carries N more characters ("x", one byte each in JSON), so that its
// response is as large as another server's (the fair-size baseline); nothing else changes.
import { createServer } from "node:http";

import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

const padAt = process.argv.indexOf("--pad");
const padding = padAt === -1 ? "" : "x".repeat(Number(process.argv[padAt + 1]));

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "minimal", version: "1.0.0" });
  server.registerTool("echo", { description: "Echo the text back.", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: "text", text: text + padding }],
  }));
  return server;
});

const http = createServer(toNodeHandler(handler));
http.listen(0, "127.0.0.1", () => {
  const { port } = http.address();
  process.stderr.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on("SIGTERM", () => http.close(() => process.exit(0)));
