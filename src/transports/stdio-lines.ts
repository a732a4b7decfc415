// Lines of JSON-RPC on stdin: decoded as one UTF-8 stream (a character split across two reads stays
// one character), and the answer owed to a line that is not a message: -32700 for one that is not
// JSON, -32600 for a batch array (MCP has had none since 2025-06-18) or an object that is not a
// JSON-RPC message. Kept apart from the transport so any transport can use it.
import { StringDecoder } from "node:string_decoder";

export class Utf8Lines {
  private readonly decoder = new StringDecoder("utf8");

  /** Text of the next chunk, any bytes of an unfinished character held for the next one. */
  decode(chunk: Buffer | string): string {
    return typeof chunk === "string" ? chunk : this.decoder.write(chunk);
  }
}

export interface ErrorReply {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

const reply = (id: string | number | null, code: number, message: string): ErrorReply => ({ jsonrpc: "2.0", id, error: { code, message } });

/**
 * The error response for a line the server could not take as a message, or undefined when none is
 * owed (a blank line, or a notification: JSON-RPC answers no notification, even a bad one).
 */
export function invalidLineReply(line: string): ErrorReply | undefined {
  if (!line.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return reply(null, -32700, "Parse error: the line is not JSON; send one JSON-RPC message per line");
  }
  if (Array.isArray(value))
    return reply(
      null,
      -32600,
      "Invalid Request: JSON-RPC batches are not accepted (MCP has none since 2025-06-18); send one message per line",
    );
  if (typeof value !== "object" || value === null) return reply(null, -32600, "Invalid Request: a line must be a JSON-RPC message object");
  const m = value as { id?: unknown; method?: unknown };
  const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
  if (id === null && typeof m.method === "string" && !("id" in m)) return undefined;
  return reply(id, -32600, `Invalid Request: not a JSON-RPC 2.0 message (it needs "jsonrpc": "2.0", and "method" or "result"/"error")`);
}
