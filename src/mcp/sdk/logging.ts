// The MCP logging capability of the 2025 era: logging/setLevel and notifications/message carrying
// what the server logs (2026-07-28 deprecates both; there the server logs to stderr only). Opt-in: nothing is sent until the client sets a level (clients that never ask are not sent
// log traffic), then every event at or above it. A configured or caller key is cut out of the text
// as a last guard (log lines carry key digests' prefixes only).
import type { LoggingLevel, McpServer } from "@modelcontextprotocol/server";

import { clientSafe } from "../../incidents.js";
import { addLogSink, type EmittedLevel } from "../../log.js";

/** RFC 5424 severities as MCP names them, most verbose first. */
const SEVERITY: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

const AS_MCP: Record<EmittedLevel, LoggingLevel> = { debug: "debug", info: "info", warn: "warning", error: "error" };

export interface McpLogChannel {
  /** The level this client asked for, undefined until it asks. */
  level(): LoggingLevel | undefined;
  /** Forget the client's choice (a pooled server passes to another caller). */
  reset(): void;
  /** Start forwarding log events to the connected client (stdio: one client for the process). */
  forward(secret?: string): () => void;
}

export function installLogging(server: McpServer): McpLogChannel {
  let level: LoggingLevel | undefined;
  // Replaces the SDK's own handler, which keeps levels per session in its internals and sends to
  // clients that never asked.
  server.server.setRequestHandler("logging/setLevel", (request) => {
    level = request.params.level;
    return {};
  });
  return {
    level: () => level,
    reset: () => void (level = undefined),
    forward(secret) {
      return addLogSink((emitted, line) => {
        const mcpLevel = AS_MCP[emitted];
        if (level === undefined || SEVERITY[mcpLevel] < SEVERITY[level] || !server.isConnected()) return;
        // The operator's detail (paths, host names) stays in the server's own log.
        const data = clientSafe(secret ? line.split(secret).join("[redacted]") : line);
        void server.server
          .notification({ method: "notifications/message", params: { level: mcpLevel, logger: "crypto-metrics-mcp", data } })
          .catch(() => undefined);
      });
    },
  };
}
