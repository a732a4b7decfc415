// Hostile input never reaches a 500, never charges on a refusal, and never echoes the key.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

import { createInProcessService } from "../../../src/backend/inprocess/backend.js";
import { ENDPOINTS, LOOKBACKS, TIMEFRAMES, VENUES } from "../../../src/catalog/index.js";

const KEY = "cdk_test_CANARY_fuzz";
const dir = mkdtempSync(join(tmpdir(), "cm-fuzz-"));
const keysFile = join(dir, "keys.json");
writeFileSync(keysFile, JSON.stringify({ keys: [{ key: KEY, credits: 1_000_000, rateLimit: { requests: 100_000, windowSeconds: 60 } }] }));
const service = await createInProcessService({
  apiKey: undefined,
  keysFile,
  stateDir: join(dir, "state"),
  now: () => Date.parse("2025-12-31T12:00:00Z"),
});
afterAll(async () => service.close());

const names = [
  "startDate",
  "endDate",
  "timeframe",
  "exchange",
  "symbol",
  "market_type",
  "entity_name",
  "asset",
  "lookback",
  "scope",
  "x",
  "__proto__",
];
const value = fc.oneof(
  fc.constantFrom(
    ...TIMEFRAMES,
    ...LOOKBACKS,
    ...VENUES.slice(0, 5),
    "all",
    "exchange",
    "spot",
    "BTCUSDT",
    "btc",
    "eth",
    "2025-01-01",
    "2025-12-31T23:59:59Z",
    "2025-02-29",
    "1970-01-01",
    "9999-12-31",
    "",
  ),
  fc.string({ maxLength: 40 }),
);
const segment = fc.oneof(fc.constantFrom("btc", "eth", "BTC", "leo_eos", "", "%", "%zz", ".."), fc.string({ maxLength: 12 }));
const path = fc.oneof(
  fc
    .tuple(segment, fc.constantFrom(...ENDPOINTS.map((e) => e.id)))
    .map(([a, id]) => (id.startsWith("liquidation") ? `/${id}` : `/${a}/${id}`)),
  fc.array(segment, { maxLength: 5 }).map((parts) => `/${parts.join("/")}`),
);

describe("service pipeline under fuzzed requests", () => {
  it("answers every request with a documented status and a well-formed body", async () => {
    await fc.assert(
      fc.asyncProperty(
        path,
        fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 5 }),
        fc.constantFrom("GET", "GET", "POST"),
        async (p, pairs, method) => {
          const query = new URLSearchParams();
          for (const [n, v] of pairs) query.append(n, v);
          const before = (await service.creditsRemaining(KEY))!;
          const res = await service.handle({ method, path: p, query, headers: { "x-api-key": KEY } });
          expect([200, 400, 404, 405]).toContain(res.status);
          const text = JSON.stringify(res.body);
          expect(text).not.toContain("CANARY");
          if (res.status !== 200) {
            expect(await service.creditsRemaining(KEY)).toBe(before);
            expect((res.body as { error: { code: string; message: string } }).error.message.length).toBeGreaterThan(10);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
