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

/** A line longer than the cap: skipped as it streams, never held; `id` is the request's when it could be read. */
export interface TooLong {
  tooLong: true;
  id: string | number | null;
}

/**
 * Finds the top-level "id" of a JSON object fed in pieces, without keeping the text: what lets a line
 * over the size cap be answered under its own id. Keys are compared as written (an escaped "\u0069d"
 * is not seen); an id that is not a string or a number is null, as JSON-RPC answers it.
 */
class IdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private text = "";
  private key: string | undefined;
  private capture: "none" | "await" | "string" | "number" = "none";
  id: string | number | null = null;

  feed(chunk: string): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === "\\") this.escaped = true;
        else if (c === '"') {
          this.inString = false;
          this.endString();
          continue;
        }
        if (this.text.length < 256) this.text += c;
        continue;
      }
      if (this.capture === "number") {
        if (/[-+0-9.eE]/.test(c)) {
          this.text += c;
          continue;
        }
        const n = Number(this.text);
        if (Number.isFinite(n)) this.id = n;
        this.capture = "none";
      }
      if (c === " " || c === "\t" || c === "\r") continue;
      if (this.capture === "await") {
        this.capture = c === '"' ? "string" : /[-0-9]/.test(c) ? "number" : "none";
        this.text = this.capture === "number" ? c : "";
        if (c === '"') this.inString = true;
        if (this.capture !== "none") continue;
      }
      if (c === '"') {
        this.inString = true;
        this.text = "";
      } else if (c === "{" || c === "[") {
        this.depth++;
        this.expectKey = c === "{" && this.depth === 1;
      } else if (c === "}" || c === "]") this.depth--;
      else if (c === "," && this.depth === 1) this.expectKey = true;
      else if (c === ":" && this.depth === 1 && this.key === "id") this.capture = "await";
    }
  }

  private endString(): void {
    if (this.capture === "string") {
      try {
        this.id = JSON.parse(`"${this.text}"`) as string;
      } catch {
        this.id = null;
      }
      this.capture = "none";
    } else if (this.depth === 1 && this.expectKey) {
      this.key = this.text;
      this.expectKey = false;
    }
  }
}

/**
 * Splits decoded stdin text into lines. A line longer than `max` characters is never held whole:
 * once its unfinished part passes the cap it is read through to its line break while only its id
 * is looked for, and it comes out as a TooLong in its place.
 */
export class LineSplitter {
  private buffer = "";
  private skipping: IdScanner | undefined;

  constructor(private readonly max: number) {}

  /** The lines this text completes, in order. */
  push(text: string): (string | TooLong)[] {
    const out: (string | TooLong)[] = [];
    if (this.skipping) {
      const nl = text.indexOf("\n");
      if (nl < 0) {
        this.skipping.feed(text);
        return out;
      }
      this.skipping.feed(text.slice(0, nl));
      out.push({ tooLong: true, id: this.skipping.id });
      this.skipping = undefined;
      text = text.slice(nl + 1);
    }
    this.buffer += text;
    let nl: number;
    while ((nl = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, "");
      this.buffer = this.buffer.slice(nl + 1);
      out.push(line.length > this.max ? tooLong(line) : line);
    }
    if (this.buffer.length > this.max) {
      this.skipping = new IdScanner();
      this.skipping.feed(this.buffer);
      this.buffer = "";
    }
    return out;
  }

  /** The last line when the input ended without a line break (a client's final message is still one). */
  end(): (string | TooLong)[] {
    const out: (string | TooLong)[] = [];
    if (this.skipping) out.push({ tooLong: true, id: this.skipping.id });
    else if (this.buffer.trim()) out.push(this.buffer.length > this.max ? tooLong(this.buffer) : this.buffer.replace(/\r$/, ""));
    this.skipping = undefined;
    this.buffer = "";
    return out;
  }
}

function tooLong(line: string): TooLong {
  const scanner = new IdScanner();
  scanner.feed(line);
  return { tooLong: true, id: scanner.id };
}

/** The answer to a line over the cap: the session goes on. */
export function tooLongReply(id: string | number | null, max: number): ErrorReply {
  return reply(
    id,
    -32600,
    `Invalid Request: the message exceeded the maximum size of ${max} bytes per line and was not read; send smaller messages (one per line)`,
  );
}

interface Issue {
  path?: (string | number)[];
  message?: string;
  errors?: Issue[][];
}

/**
 * One line naming what is wrong with a message the SDK refused (its error is a zod issue list, ~40
 * lines as JSON): the first issue of the first alternative, with the field it is about.
 */
export function describeInvalid(error: unknown): string {
  let issues = (error as { issues?: Issue[] } | undefined)?.issues;
  if (!Array.isArray(issues)) {
    try {
      issues = JSON.parse((error as Error).message) as Issue[];
    } catch {
      return String((error as Error)?.message ?? error)
        .split("\n")[0]!
        .slice(0, 200);
    }
  }
  let issue = Array.isArray(issues) ? issues[0] : undefined;
  const path: (string | number)[] = [];
  while (issue?.errors?.[0]?.[0]) {
    path.push(...(issue.path ?? []));
    issue = issue.errors[0][0];
  }
  if (!issue) return "not a JSON-RPC message";
  const field = [...path, ...(issue.path ?? [])].join(".");
  return `${field ? `field "${field}": ` : ""}${issue.message ?? "invalid"}`;
}
