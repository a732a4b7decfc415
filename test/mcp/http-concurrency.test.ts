// Stateless HTTP requests served at once: concurrent callers with overlapping JSON-RPC ids each get
// their own answers, metered on their own keys.
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { NOW, tempDir, writeKeys } from "../../harness/mcp.js";
import { rpcAnswer } from "../../harness/rpc-answer.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import { type RunningHttpServer, startHttpServer } from "../../src/transports/http.js";

describe("concurrent callers over HTTP", () => {
  let backend: InProcessBackend;
  let http: RunningHttpServer;
  beforeAll(async () => {
    const dir = tempDir("cm-http-pool-");
    backend = await InProcessBackend.create({ apiKey: "demo-key", keysFile: writeKeys(dir), stateDir: join(dir, "state"), now: () => NOW });
    http = await startHttpServer({ backend, host: "127.0.0.1", port: 0, requireKey: true });
  });
  afterAll(async () => {
    await http.close();
    await backend.close();
  });

  async function call(key: string, id: number, asset: string): Promise<{ id: number; text: string; remaining: number }> {
    const res = await fetch(`${http.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}` },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "get_series", arguments: { metric: "mining/DiffLast", asset, startDate: "2025-12-01" } },
      }),
    });
    const body = await res.text();
    const msg = rpcAnswer<{
      id: number;
      result: { isError?: boolean; content: { text: string }[]; structuredContent: { credits: { remaining: number } } };
    }>(body);
    expect(msg.result.isError, body).toBeFalsy();
    return { id: msg.id, text: msg.result.content[0]!.text, remaining: msg.result.structuredContent.credits.remaining };
  }

  it("answers each caller with its own result and meters each key on its own", async () => {
    const before = { a: (await backend.service.creditsRemaining("demo-key"))!, b: (await backend.service.creditsRemaining("second-key"))! };
    const rounds = 12;
    // Both keys at once, reusing the same JSON-RPC ids, at the same endpoint.
    const results = await Promise.all(
      Array.from({ length: rounds }, (_, i) => [call("demo-key", i % 3, "btc"), call("second-key", i % 3, "zec")]).flat(),
    );
    for (const [i, r] of results.entries()) {
      expect(r.id).toBe(Math.floor(i / 2) % 3);
      // Even entries are the first key's btc calls, odd ones the second key's zec calls.
      expect(r.text).toMatch(i % 2 === 0 ? /^btc / : /^zec /);
    }
    // One credit per call (a month of a daily series), each key charged for its own calls only.
    expect(before.a - (await backend.service.creditsRemaining("demo-key"))!).toBe(rounds);
    expect(before.b - (await backend.service.creditsRemaining("second-key"))!).toBe(rounds);
  });
});
