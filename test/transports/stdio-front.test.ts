// The stdio front: answers initialize and tools/list from the recorded handshake before the server
// exists, queues everything else in order, replays the initialize to the server once attached (its
// answer dropped) and then hands every message to the server. Real server, real streams.
import { PassThrough } from "node:stream";

import { deserializeMessage } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { NOW, tempDir, writeKeys } from "../../harness/mcp.js";
import { recordHandshake } from "../../scripts/handshake.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { createServer } from "../../src/server.js";
import { expander, type Handshake, MODERN_METHODS, packHandshake, type WireHandshake } from "../../src/transports/handshake.js";
import { StdioFront, writeMessage } from "../../src/transports/stdio-front.js";
import { withAllVersions } from "../../src/transports/versions.js";

let handshake: Handshake;
let wire: WireHandshake;
beforeAll(async () => {
  handshake = await recordHandshake();
  wire = JSON.parse(JSON.stringify(packHandshake(handshake))) as WireHandshake;
});

describe("the recorded handshake in the bundle", () => {
  it("holds each large value once and expands to exactly the record's JSON, answer by answer", () => {
    expect(JSON.stringify(wire).length).toBeLessThan(JSON.stringify(handshake).length / 2);
    const expand = expander(wire.pieces);
    for (const kind of ["inprocess", "http"] as const) {
      const recorded = handshake.byKind[kind];
      const packed = wire.byKind[kind];
      expect(expand(packed.initialize)).toBe(JSON.stringify(recorded.initialize));
      for (const [method, result] of Object.entries(recorded.lists))
        expect(expand(packed.lists[method as never]!)).toBe(JSON.stringify(result));
      for (const [method, result] of Object.entries(recorded.modern))
        expect(expand(packed.modern[method as never]!)).toBe(JSON.stringify(result));
      expect(Object.keys(packed.lists)).toEqual(Object.keys(recorded.lists));
      expect(Object.keys(packed.modern)).toEqual(Object.keys(recorded.modern));
    }
    expect(expand(wire.byKind.http.modern["tools/list"]!)).not.toContain("\u0000");
  });
});

interface Rig {
  front: StdioFront;
  send(message: unknown): void;
  /** Every JSON-RPC line written so far, parsed. */
  out: () => Array<{ id?: unknown; result?: any; error?: any; method?: string }>;
  waitFor(id: unknown): Promise<{ id?: unknown; result?: any; error?: any }>;
  /** Connects the server: directly (a 2025-era session), or through the SDK's serveStdio (either era). */
  attach(how?: "connect" | "serve"): Promise<void>;
  close(): Promise<void>;
}

let rigs: Rig[] = [];
afterEach(async () => {
  await Promise.all(rigs.map((r) => r.close()));
  rigs = [];
});

function rig(withHandshake = true): Rig {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let text = "";
  stdout.on("data", (b: Buffer) => (text += b.toString("utf8")));
  const front = new StdioFront(withHandshake ? wire : undefined, withHandshake ? wire.byKind.inprocess : undefined, stdin, stdout);
  front.listen();
  const out = () =>
    text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  const dir = tempDir();
  let backend: InProcessBackend | undefined;
  let server: ReturnType<typeof createServer> | undefined;
  let served: { close(): Promise<void> } | undefined;
  const r: Rig = {
    front,
    send: (m) => stdin.write(`${JSON.stringify(m)}\n`),
    out,
    waitFor: async (id) => {
      for (let i = 0; i < 500; i++) {
        const hit = out().find((m) => m.id === id);
        if (hit) return hit;
        await new Promise((res) => setTimeout(res, 10));
      }
      throw new Error(`no answer to ${String(id)}; got ${text}`);
    },
    attach: async (how = "connect") => {
      backend = await InProcessBackend.create({ apiKey: "demo-key", keysFile: writeKeys(dir), stateDir: `${dir}/state`, now: () => NOW });
      const b = backend;
      if (how === "serve")
        served = serveStdio(({ era }) => createServer({ backend: b, config: { apiKey: "demo-key" }, era }), { transport: front });
      else {
        server = createServer({ backend, config: { apiKey: "demo-key" } });
        await server.connect(front);
      }
      front.attach(deserializeMessage);
    },
    close: async () => {
      await served?.close();
      await server?.close();
      await backend?.close();
    },
  };
  rigs.push(r);
  return r;
}

const initialize = (id: unknown, protocolVersion = "2025-06-18", extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" }, ...extra },
});
const settle = () => new Promise((res) => setTimeout(res, 30));

describe("the stdio front", () => {
  it("answers initialize and the four lists before the server exists, exactly as the server does", async () => {
    const session = [
      initialize(1),
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "prompts/list" },
      { jsonrpc: "2.0", id: 4, method: "resources/list" },
      { jsonrpc: "2.0", id: 5, method: "resources/templates/list", params: {} },
    ];
    const early = rig();
    for (const m of session) early.send(m);
    const fromFront = [];
    for (const id of [1, 2, 3, 4, 5]) fromFront.push(await early.waitFor(id));

    const live = rig(false);
    await live.attach();
    for (const m of session) live.send(m);
    for (const [i, id] of [1, 2, 3, 4, 5].entries()) expect(fromFront[i], `id ${id}`).toEqual(await live.waitFor(id));
    expect(fromFront[1]!.result.tools.length).toBeGreaterThanOrEqual(5);
    expect(fromFront[3]!.result.resources.length).toBeGreaterThanOrEqual(1);
  });

  it("answers 2026-07-28 server/discover and the four lists before the server exists, exactly as the server does", async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const session = MODERN_METHODS.map((method, i) => ({ jsonrpc: "2.0", id: i + 1, method, params: { _meta: meta } }));
    const early = rig();
    for (const m of session) early.send(m);
    const fromFront = [];
    for (const m of session) fromFront.push(await early.waitFor(m.id));

    const live = rig(false);
    await live.attach("serve");
    for (const m of session) live.send(m);
    for (const [i, m] of session.entries()) expect(fromFront[i], m.method).toEqual(await live.waitFor(m.id));
    expect(fromFront[0]!.result.supportedVersions).toEqual(["2026-07-28"]);
    expect(fromFront[1]!.result).toMatchObject({ resultType: "complete", ttlMs: 3_600_000 });
  });

  it("leaves to the server a 2026-07-28 list for a client that declares extensions, or with a cursor, or at another version", async () => {
    const r = rig();
    const meta = (capabilities: object, version = "2026-07-28") => ({
      "io.modelcontextprotocol/protocolVersion": version,
      "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    // (An opening message at an unsupported version is refused; the connection stays open for another.)
    r.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta({}, "2099-01-01") } });
    r.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: meta({ extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } }) },
    });
    r.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { cursor: "x", _meta: meta({}) } });
    await settle();
    expect(r.out()).toEqual([]);
    await r.attach("serve");
    // Four tools drawn by views, and the views' own app-only view_data.
    expect((await r.waitFor(1)).result.tools.filter((t: { _meta?: unknown }) => t._meta).length).toBe(5);
    expect((await r.waitFor(2)).error).toMatchObject({ code: -32602 });
    expect((await r.waitFor(3)).error).toMatchObject({ code: -32022 });
    // Attached as runStdio attaches it, the error names the versions initialize reaches beside those discover lists.
    expect(
      withAllVersions({ jsonrpc: "2.0", id: 3, error: { code: -32022, message: "m", data: { supported: ["2026-07-28"] } } }),
    ).toMatchObject({
      error: {
        message: expect.stringMatching(/2025-11-25/),
        data: { supported: ["2026-07-28"], initialize: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"] },
      },
    });
  });

  it("answers an unknown protocol version with the latest, as the SDK does", async () => {
    const r = rig();
    r.send(initialize(1, "1999-01-01"));
    expect((await r.waitFor(1)).result.protocolVersion).toBe(handshake.latestProtocolVersion);
  });

  it("keeps every other message, in order, for the server, which then knows the client", async () => {
    const r = rig();
    r.send(initialize(1, "2025-06-18", { capabilities: { roots: {} } }));
    r.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    r.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_assets", arguments: { asset: "btc" } } });
    r.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    await r.waitFor(1);
    await settle();
    expect(r.out().map((m) => m.id)).toEqual([1]);
    await r.attach();
    const call = await r.waitFor(2);
    expect(call.result.isError).toBeFalsy();
    expect(await r.waitFor(3)).toMatchObject({ result: {} });
    // The replayed initialize reached the server (it holds the client's capabilities) and its answer went nowhere.
    expect(r.out().filter((m) => m.id === 1)).toHaveLength(1);
    expect(r.out().every((m) => typeof m.id === "number")).toBe(true);
  });

  it("holds a notification for the server without asking for it, and asks for it at the first request it cannot answer", async () => {
    const r = rig();
    let waits = 0;
    r.front.onwait = () => waits++;
    r.send(initialize(1));
    r.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    r.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    await r.waitFor(2);
    expect(waits).toBe(0);
    expect(r.front.waiting).toBe(1);
    r.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    await settle();
    expect(waits).toBe(1);
    await r.attach();
    expect(await r.waitFor(3)).toMatchObject({ result: {} });
  });

  it("leaves a malformed initialize and tools/list before initialize to the server", async () => {
    const r = rig();
    r.send({ jsonrpc: "2.0", id: 7, method: "tools/list" });
    r.send({ jsonrpc: "2.0", id: 8, method: "initialize", params: { protocolVersion: "2025-06-18" } });
    await settle();
    expect(r.out()).toEqual([]);
    await r.attach();
    expect((await r.waitFor(7)).result.tools.length).toBeGreaterThanOrEqual(5);
    expect((await r.waitFor(8)).error).toMatchObject({ code: -32602 });
  });

  it("after attaching, hands tools/list to the server like everything else", async () => {
    const r = rig();
    await r.attach();
    r.send(initialize(1));
    r.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect((await r.waitFor(2)).result.tools.length).toBeGreaterThanOrEqual(5);
  });
});

describe("writing a message", () => {
  const written = (message: unknown): { chunks: string[]; line: string } => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on("data", (b: Buffer) => chunks.push(b.toString("utf8")));
    writeMessage(out, message);
    return { chunks, line: chunks.join("") };
  };
  const base64 = (bytes: number) => Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 7919) % 256)).toString("base64");

  it("writes a result's long base64 strings as chunks of their own, and the line is the message's JSON", () => {
    const image = base64(60_000);
    const z = base64(30_000);
    const message = {
      jsonrpc: "2.0",
      id: 7,
      result: {
        content: [
          { type: "text", text: "BTC — 6h × 2y, “quoted” \\ back" },
          { type: "image", data: image, mimeType: "image/png" },
        ],
        structuredContent: { asset: "btc", view: { kind: "heatmap", z, rows: 3 } },
      },
    };
    const { chunks, line } = written(message);
    expect(line).toBe(`${JSON.stringify(message)}\n`);
    expect(JSON.parse(line)).toEqual(message);
    expect(chunks).toContain(image);
    expect(chunks).toContain(z);
  });

  it("writes a message without long base64 strings as one line, unchanged", () => {
    const quoted = `${"x".repeat(20_000)}"`;
    for (const message of [
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: quoted }] } },
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "image", data: "aGk=", mimeType: "image/png" }] } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: base64(30_000) } },
      { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "bad" } },
    ]) {
      const { chunks, line } = written(message);
      expect(chunks).toEqual([`${JSON.stringify(message)}\n`]);
      expect(line).toBe(`${JSON.stringify(message)}\n`);
    }
  });

  it("leaves the message it writes as it was", () => {
    const message = { jsonrpc: "2.0", id: 9, result: { content: [{ type: "image", data: base64(40_000), mimeType: "image/png" }] } };
    const before = JSON.stringify(message);
    written(message);
    expect(JSON.stringify(message)).toBe(before);
  });
});
