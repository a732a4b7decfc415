// `crypto-metrics-mcp call TOOL --name value …`: one tool call through a real MCP client and server
// in memory; the text result goes to stdout, an error's text to stderr with exit code 1.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { z } from "zod";
import { nearestEndpoints } from "./catalog/index.js";
import type { Config } from "./config.js";
import { createBackend, createServer, SERVER_NAME, SERVER_VERSION } from "./server.js";
import type { Tool } from "./tools/define-tool.js";
import { allTools } from "./tools/index.js";
import { unwrap } from "./tools/validation.js";

/** Command-line values are strings: numbers and booleans are converted where the tool's schema wants them. */
export function coerceArgs(tool: Tool, raw: Readonly<Record<string, string>>): Record<string, unknown> {
  const shape = tool.input.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const field = shape[name];
    const inner = field ? unwrap(field) : undefined;
    if (inner instanceof z.ZodNumber && /^-?\d+(\.\d+)?$/.test(value.trim())) out[name] = Number(value);
    else if (inner instanceof z.ZodBoolean && /^(true|false)$/i.test(value.trim())) out[name] = value.trim().toLowerCase() === "true";
    // Anything else is passed as given, so the tool's own validation names the problem.
    else out[name] = value;
  }
  return out;
}

export async function runCall(config: Config): Promise<void> {
  const spec = config.call;
  if (!spec) throw new Error("call needs a tool name");
  const tool = allTools.find((t) => t.name === spec.tool);
  if (!tool) {
    const names = allTools.map((t) => t.name);
    const near = nearestEndpoints(spec.tool, names, 1);
    process.stderr.write(`unknown tool "${spec.tool}"${near.length ? ` (did you mean ${near[0]}?)` : ""}; tools: ${names.join(", ")}\n`);
    process.exitCode = 2;
    return;
  }
  const backend = await createBackend(config);
  const server = createServer({ backend, config });
  const client = new Client({ name: `${SERVER_NAME}-call`, version: SERVER_VERSION });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await Promise.all([client.connect(clientSide), server.connect(serverSide)]);
    const result = await client.callTool({ name: tool.name, arguments: coerceArgs(tool, spec.args) });
    const text = (result.content as Array<{ type: string; text?: string }>)
      .filter((c) => c.type === "text")
      .map((c) => c.text ?? "")
      .join("\n");
    if (result.isError) {
      process.stderr.write(`${text}\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(`${text}\n`); // stdout-ok: the call command's output is the tool's text
    }
  } finally {
    await client.close().catch(() => undefined);
    await server.close().catch(() => undefined);
    await backend.close();
  }
}
