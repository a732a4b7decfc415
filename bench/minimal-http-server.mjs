// Baseline for the MCP-over-HTTP rows: the smallest stateless Streamable HTTP server the SDK
// documents (a new McpServer and transport per request, SDK defaults) with one trivial tool, on
// node:http. Prints `listening on http://HOST:PORT` to stderr once ready, like `crypto-metrics-mcp http`.
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function build() {
  const server = new McpServer({ name: "minimal", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echo the text back.", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

const http = createServer(async (req, res) => {
  const server = build();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
http.listen(0, "127.0.0.1", () => {
  const { port } = http.address();
  process.stderr.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on("SIGTERM", () => http.close(() => process.exit(0)));
