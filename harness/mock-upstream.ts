// Fixtures for the HTTP backend tests: a scripted upstream on undici's MockAgent, a virtual clock,
// and bodies in the service's shapes.
import { MockAgent } from "undici";

import { HttpBackend, type HttpBackendOptions } from "../src/backend/http/index.js";
import { ServiceError } from "../src/backend/types.js";

export const ORIGIN = "http://upstream.test";

export const SILENT = { warn: () => {}, info: () => {}, debug: () => {} };

export interface SeenRequest {
  path: string;
  headers: Record<string, string>;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Replies in order (the last one repeats), or computed per request; every request is recorded. */
export function scriptedUpstream(replies: Reply[] | ((req: SeenRequest) => Reply), delayMs = 0) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const seen: SeenRequest[] = [];
  const scope = agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: "GET" })
    .reply((opts) => {
      const headers = Object.fromEntries(
        Object.entries((opts.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      const req = { path: opts.path, headers };
      seen.push(req);
      const reply = typeof replies === "function" ? replies(req) : replies[Math.min(seen.length - 1, replies.length - 1)]!;
      const data =
        reply.body === undefined
          ? ""
          : typeof reply.body === "string" || Buffer.isBuffer(reply.body)
            ? reply.body
            : JSON.stringify(reply.body);
      const isJson = reply.body !== undefined && typeof reply.body !== "string" && !Buffer.isBuffer(reply.body);
      return {
        statusCode: reply.status,
        data: data as string,
        responseOptions: { headers: { ...(isJson && { "content-type": "application/json" }), ...reply.headers } },
      };
    });
  scope.persist();
  if (delayMs > 0) scope.delay(delayMs);
  return { agent, seen };
}

/** A clock that only moves when the backend sleeps (or the test advances it). */
export function virtualClock(start = Date.UTC(2025, 11, 28, 12, 0, 0)) {
  const clock = {
    t: start,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      clock.sleeps.push(ms);
      clock.t += ms;
    },
  };
  return clock;
}

export function backendOn(agent: MockAgent, clock: ReturnType<typeof virtualClock>, extra: Partial<HttpBackendOptions> = {}): HttpBackend {
  return new HttpBackend({
    baseUrl: ORIGIN,
    apiKey: "test-key",
    dispatcher: agent,
    now: clock.now,
    sleep: clock.sleep,
    timeouts: { headersMs: 300, attemptMs: 800, callMs: 20_000 },
    log: SILENT,
    ...extra,
  });
}

export function records(field: string, days: number, from = Date.UTC(2025, 0, 1)): { time: string; [k: string]: number | string }[] {
  return Array.from({ length: days }, (_, i) => ({ time: new Date(from + i * 86_400_000).toISOString(), [field]: 1 + i / 10 }));
}

/** The ServiceError a promise rejects with (fails the test when it resolves or throws something else). */
export async function serviceError(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error("expected a ServiceError, the call succeeded");
}

export const LTH = { endpoint: "lifespan/Lth_mvrv", asset: "btc", query: {} } as const;
