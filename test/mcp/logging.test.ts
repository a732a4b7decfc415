// The logging capability: announced, logging/setLevel accepted (bad levels refused naming the field),
// nothing sent before the client asks, then what the server logs at or above the level, never a key.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  EmptyResultSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";

import { SIMULATED_ORIGIN } from "../../src/backend/inprocess/origin.js";
import { log, setLogLevel } from "../../src/log.js";
import { createServer, loggingOf } from "../../src/server.js";

const SECRET = "sk-live-0123456789abcdef";
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function session(): Promise<{ client: Client; messages: LoggingMessageNotification["params"][] }> {
  const backend = {
    kind: "inprocess" as const,
    origin: SIMULATED_ORIGIN,
    fetch: () => Promise.reject(new Error("unused")),
    close: () => Promise.resolve(),
  };
  const server = createServer({ backend, config: { apiKey: SECRET } });
  const client = new Client({ name: "log-test", version: "1" });
  const messages: LoggingMessageNotification["params"][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([client.connect(a), server.connect(b)]);
  const stop = loggingOf(server).forward(SECRET);
  closers.push(async () => {
    stop();
    await client.close();
    await server.close();
  });
  return { client, messages };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe("MCP logging", () => {
  it("is announced as a capability", async () => {
    const { client } = await session();
    expect(client.getServerCapabilities()?.logging).toEqual({});
  });

  it("sends nothing until the client sets a level, then what is at or above it, with no key in it", async () => {
    setLogLevel("silent"); // stderr quiet; the client's level is its own
    try {
      const { client, messages } = await session();
      log.warn("before any level");
      await settle();
      expect(messages).toEqual([]);
      await client.setLoggingLevel("warning");
      log.info("below the level");
      log.warn("upstream slow", { key: SECRET, digest: "ab12cd34" });
      log.error("upstream down");
      await settle();
      expect(messages.map((m) => [m.level, m.logger])).toEqual([
        ["warning", "crypto-metrics-mcp"],
        ["error", "crypto-metrics-mcp"],
      ]);
      expect(JSON.stringify(messages)).not.toContain(SECRET);
      expect(messages[0]!.data).toBe("upstream slow key=[redacted] digest=ab12cd34");
      await client.setLoggingLevel("debug");
      log.debug("now verbose");
      await settle();
      expect(messages.at(-1)).toMatchObject({ level: "debug", data: "now verbose" });
    } finally {
      setLogLevel("info");
    }
  });

  it("refuses an unknown level naming the field", async () => {
    const { client } = await session();
    const error = await client
      .request({ method: "logging/setLevel", params: { level: "loud" as never } }, EmptyResultSchema)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toMatch(/level/);
    await expect(client.request({ method: "logging/setLevel", params: { level: "error" } }, EmptyResultSchema)).resolves.toEqual({});
  });
});
