// The stdio transport, with a front: from the first byte on stdin it answers initialize and the
// tools, prompts and resources lists from the handshake recorded at build time, while the SDK and the tools load; every other
// message waits, in order, for the server. Once the server is attached, the initialize the front
// answered is replayed to it (so it knows the client's capabilities, its answer dropped) and from
// then on every message goes to the server. No SDK import here: this is what runs before it loads.
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";

import {
  expander,
  LIST_METHODS,
  type ListMethod,
  MODERN_METHODS,
  type ModernMethod,
  type WireAnswers,
  type WireHandshake,
} from "./handshake.js";
import { describeInvalid, invalidLineReply, LineSplitter, tooLongReply, Utf8Lines } from "./stdio-lines.js";
import { Outstanding } from "./stdio-pending.js";
import { writeMessage } from "./stdio-write.js";

export { writeMessage };

/** The id under which the front's initialize is replayed: not one a client's numbering can produce. */
const REPLAY_ID = "crypto-metrics-mcp:replayed-initialize";
const MAX_LINE_BYTES = 10 * 1024 * 1024;

interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** A well-formed initialize request; anything less goes to the SDK, which names what is wrong. */
function isInitialize(m: Message): boolean {
  if (m.method !== "initialize" || !isObject(m.params)) return false;
  const { protocolVersion, capabilities, clientInfo } = m.params;
  return (
    typeof protocolVersion === "string" &&
    isObject(capabilities) &&
    isObject(clientInfo) &&
    typeof clientInfo.name === "string" &&
    typeof clientInfo.version === "string"
  );
}

export class StdioFront implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  /** The front closed (the SDK's serving entry owns onclose; this one is the process's). */
  onclosed?: () => void;
  onerror?: (error: Error) => void;
  /** A message is waiting for the server (it must be loaded now). */
  onwait?: () => void;
  /** The front answered a message of the handshake (the server may load once they stop coming). */
  onhandshake?: () => void;

  private readonly text = new Utf8Lines();
  private readonly lines = new LineSplitter(MAX_LINE_BYTES);
  /** Requests handed to the server and not answered yet. */
  readonly outstanding = new Outstanding();
  private queued: string[] = [];
  private initialize: Message | undefined;
  private parse: ((line: string) => JSONRPCMessage) | undefined;
  /** What the server's messages need on their way out (the full list of versions in a -32022). */
  private amend: ((message: JSONRPCMessage) => JSONRPCMessage) | undefined;
  private readonly expand: ((text: string) => string) | undefined;

  constructor(
    private readonly handshake: WireHandshake | undefined,
    private readonly answers: WireAnswers | undefined,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {
    this.expand = handshake && expander(handshake.pieces);
  }

  /** Starts reading stdin at once (called before the server exists). */
  listen(): void {
    this.stdin.on("data", this.ondata);
    this.stdin.on("error", this.onstreamerror);
  }

  /** The SDK calls this from connect(); reading began in listen(). */
  async start(): Promise<void> {}

  /**
   * The server is connected (onmessage set) and `parse` is the SDK's message validation: replay the
   * initialize the front answered, then everything that waited, in arrival order.
   */
  attach(parse: (line: string) => JSONRPCMessage, amend?: (message: JSONRPCMessage) => JSONRPCMessage): void {
    this.parse = parse;
    this.amend = amend;
    if (this.initialize) this.deliver(JSON.stringify({ ...this.initialize, id: REPLAY_ID }));
    const waiting = this.queued;
    this.queued = [];
    for (const line of waiting) this.deliver(line);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if ("id" in message && message.id === REPLAY_ID) return this.outstanding.settled(REPLAY_ID);
    const answered = ("result" in message || "error" in message) && "id" in message ? message.id : undefined;
    try {
      return await this.write(this.amend ? this.amend(message) : message);
    } finally {
      if (typeof answered === "string" || typeof answered === "number") this.outstanding.settled(answered);
    }
  }

  /** Messages still waiting for the server to load. */
  get waiting(): number {
    return this.queued.length;
  }

  /** The input ended: a last line without a line break is still a message; nothing more is read. */
  end(): void {
    this.stdin.off("data", this.ondata);
    this.take(this.lines.end());
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.ondata);
    this.stdin.off("error", this.onstreamerror);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.onclose?.();
    this.onclosed?.();
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (writeMessage(this.stdout, message)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  /** A recorded result's JSON text as a result message (members in the order the SDK's messages have). */
  private writeResult(id: string | number, result: string): void {
    void this.writeLine(`{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
  }

  private writeLine(json: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${json}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  private readonly onstreamerror = (error: Error) => this.onerror?.(error);

  private readonly ondata = (chunk: Buffer | string) => this.take(this.lines.push(this.text.decode(chunk)));

  private take(lines: ReturnType<LineSplitter["push"]>): void {
    for (const line of lines) {
      if (typeof line !== "string") {
        // Too long to read: answered at once under its id, and the session goes on.
        this.onerror?.(new Error(`a line exceeded the maximum size of ${MAX_LINE_BYTES} bytes; it was answered with an error`));
        void this.write(tooLongReply(line.id, MAX_LINE_BYTES));
      } else if (this.parse) this.deliver(line);
      else {
        const answered = this.answer(line);
        if (answered === true) continue;
        this.queued.push(line);
        // A notification needs no answer: it waits for the server without hurrying it (the
        // initialized notification comes between initialize and tools/list, and loading the server
        // then would hold the list back while its modules evaluate).
        if (answered === false) this.onwait?.();
      }
    }
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = this.parse!(line);
    } catch (error) {
      this.onerror?.(new Error(`a line is not a valid JSON-RPC message (${describeInvalid(error)}); it was answered with an error`));
      const answer = invalidLineReply(line);
      if (answer) void this.write(answer);
      return;
    }
    if ("method" in message && "id" in message) this.outstanding.received(message.id);
    else if ("method" in message && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === "string" || typeof id === "number") this.outstanding.settled(id);
    }
    this.onmessage?.(message);
  }

  /**
   * Answers a line from the recorded handshake; false when it must wait for the server, "notification"
   * when it may wait for it (a well-formed notification, while the front answers the handshake).
   */
  private answer(line: string): boolean | "notification" {
    if (!this.handshake || !this.answers) return false;
    let m: Message;
    try {
      m = JSON.parse(line) as Message;
    } catch {
      return false;
    }
    if (isObject(m) && m.jsonrpc === "2.0" && !("id" in m) && typeof m.method === "string") return "notification";
    if (!isObject(m) || m.jsonrpc !== "2.0" || (typeof m.id !== "string" && typeof m.id !== "number")) return false;
    if (this.answerModern(m)) return true;
    if (isInitialize(m) && this.initialize === undefined) {
      const requested = (m.params as { protocolVersion: string }).protocolVersion;
      const protocolVersion = this.handshake.supportedProtocolVersions.includes(requested)
        ? requested
        : this.handshake.latestProtocolVersion;
      this.initialize = m;
      const rest = this.expand!(this.answers.initialize);
      this.writeResult(m.id, `{"protocolVersion":${JSON.stringify(protocolVersion)}${rest === "{}" ? "}" : `,${rest.slice(1)}`}`);
      return true;
    }
    // Lists only after initialize, as a client does, and only whole (no cursor: no second page).
    const list = LIST_METHODS.includes(m.method as ListMethod) ? this.answers.lists[m.method as ListMethod] : undefined;
    // A client declaring extensions (MCP Apps views) may be listed differently: the server answers it.
    const capabilities = (this.initialize?.params as { capabilities?: Record<string, unknown> } | undefined)?.capabilities;
    if (capabilities?.extensions !== undefined) return false;
    if (list && this.initialize && (m.params === undefined || (isObject(m.params) && m.params.cursor === undefined))) {
      this.writeResult(m.id, this.expand!(list));
      this.onhandshake?.();
      return true;
    }
    return false;
  }

  /**
   * A 2026-07-28 server/discover or list: answered from the record when its envelope names that
   * revision and declares capabilities without extensions (a client that renders views is listed
   * differently), and it asks nothing else (no cursor). Anything less goes to the server, which
   * names what is wrong.
   */
  private answerModern(m: Message): boolean {
    const recorded = this.answers?.modern?.[m.method as ModernMethod];
    if (!recorded || !MODERN_METHODS.includes(m.method as ModernMethod) || !isObject(m.params)) return false;
    const { _meta: meta, ...rest } = m.params;
    if (!isObject(meta) || Object.keys(rest).length > 0) return false;
    const version = meta["io.modelcontextprotocol/protocolVersion"];
    const capabilities = meta["io.modelcontextprotocol/clientCapabilities"];
    if (typeof version !== "string" || !this.handshake!.modernProtocolVersions.includes(version)) return false;
    if (!isObject(capabilities) || capabilities.extensions !== undefined) return false;
    this.writeResult(m.id as string | number, this.expand!(recorded)); // checked by answer()
    this.onhandshake?.();
    return true;
  }
}
