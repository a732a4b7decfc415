// A canary key never leaves through errors, details or logs, even when the upstream echoes it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { virtualClock } from "../../../harness/mock-upstream.js";
import { HttpBackend } from "../../../src/backend/http/index.js";
import { ServiceError } from "../../../src/backend/types.js";
import { type LogLevel, logLevel, setLogLevel } from "../../../src/log.js";

const CANARY = "ck_CANARY_4f9a0c1e2d3b4a5968778695";
const CALLER_CANARY = "ck_CANARY_caller_77e1d2c3b4a5";

let server: Server;
let baseUrl = "";
const received: { url: string; key: string | undefined }[] = [];

// Each path answers a different failure, every one of them quoting the key it was sent.
const ECHO: Record<string, (key: string) => { status: number; type: string; body: string; headers?: Record<string, string> }> = {
  unauthorized: (key) => ({ status: 401, type: "application/json", body: JSON.stringify({ error: `invalid api key ${key}` }) }),
  invalid: (key) => ({
    status: 400,
    type: "application/json",
    body: JSON.stringify({ message: `startDate is malformed (X-Api-Key: ${key}, url ?api_key=${encodeURIComponent(key)})` }),
  }),
  forbidden: (key) => ({ status: 403, type: "text/html", body: `<html>forbidden for ${key}</html>` }),
  missing: (key) => ({ status: 404, type: "application/json", body: JSON.stringify({ data: { message: `no such asset for ${key}` } }) }),
  broke: (key) => ({ status: 500, type: "application/json", body: JSON.stringify({ status: { error_message: `crash ${key}` } }) }),
  limited: (key) => ({
    status: 429,
    type: "application/json",
    body: JSON.stringify({ msg: `Rate limit exceeded for ${key}` }),
    headers: { "retry-after": "600" },
  }),
  garbage: (key) => ({ status: 200, type: "application/json", body: `{"oops": "${key}"` }),
  shape: (key) => ({ status: 200, type: "application/json", body: JSON.stringify([{ time: key, lth_mvrv: 1 }]) }),
  redirect: (key) => ({ status: 302, type: "text/plain", body: "", headers: { location: `http://evil.test/?k=${key}` } }),
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const key = req.headers["x-api-key"] as string | undefined;
    received.push({ url: req.url ?? "", key });
    const kind = new URL(req.url ?? "/", "http://x").searchParams.get("entity_name") ?? "unauthorized";
    const answer = (ECHO[kind] ?? ECHO.unauthorized!)(key ?? "");
    res.writeHead(answer.status, { "content-type": answer.type, "x-echo": key ?? "", ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("canary key", () => {
  it("appears in no error message, detail, body or stderr line, whatever the upstream echoes", async () => {
    const clock = virtualClock();
    // Default logger at debug level, so every log line the backend can write is captured.
    const backend = new HttpBackend({
      baseUrl,
      apiKey: CANARY,
      now: clock.now,
      sleep: clock.sleep,
      retry: { attempts: 2 },
      timeouts: { callMs: 5000 },
    });
    const previous: LogLevel = logLevel();
    setLogLevel("debug");
    const captured: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      // Captured, not passed on: the run's output is not the place for this test's deliberate failures.
      captured.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const done = rest.find((r): r is () => void => typeof r === "function");
      done?.();
      return true;
    }) as typeof process.stderr.write;
    const errors: ServiceError[] = [];
    try {
      for (const kind of Object.keys(ECHO)) {
        for (const apiKey of [undefined, CALLER_CANARY]) {
          const request = { endpoint: "exchange_flow/exchange_reserve", asset: "btc", query: { entity_name: kind } };
          const outcome = await backend.fetch(request, apiKey ? { apiKey } : {}).catch((e: unknown) => e);
          expect(outcome, kind).toBeInstanceOf(ServiceError);
          errors.push(outcome as ServiceError);
        }
      }
      // Force breaker transitions too, so their log lines are among those checked.
      for (let i = 0; i < 5; i++)
        await backend.fetch({ endpoint: "exchange_flow/exchange_reserve", asset: "btc", query: { entity_name: "broke" } }).catch(() => {});
    } finally {
      process.stderr.write = write;
      setLogLevel(previous);
      await backend.close();
    }
    expect(errors.map((e) => e.code)).toEqual(
      expect.arrayContaining([
        "unauthorized",
        "invalid_parameter",
        "metric_not_allowed",
        "asset_not_supported",
        "upstream_unavailable",
        "rate_limited",
        "upstream_invalid_response",
      ]),
    );
    const everything = [
      ...errors.flatMap((e) => [e.message, String(e), e.stack ?? "", JSON.stringify(e.details), JSON.stringify(e.toBody())]),
      ...captured,
    ].join("\n");
    expect(everything).not.toContain("CANARY");
    expect(everything).not.toContain("4f9a0c1e2d3b");
    expect(captured.join("")).toMatch(/circuit open/);
    // The upstream's own message still gets through, minus the key.
    expect(errors.find((e) => e.code === "invalid_parameter")!.message).toMatch(/^startDate is malformed/);
    // Sent where it belongs, and only there.
    expect(received.every((r) => !r.url.includes("CANARY"))).toBe(true);
    expect(received.some((r) => r.key === CANARY)).toBe(true);
    expect(received.some((r) => r.key === CALLER_CANARY)).toBe(true);
  });
});
