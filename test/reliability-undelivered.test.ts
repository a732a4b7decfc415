// A response whose client left before its body was written is not charged: the REST face takes the
// charge back whole. Clients abort uncached one-minute series (3-5 credits each, tens of ms to
// build) 3 ms after sending, while they are still being built; the store holds exactly the credits
// of the responses the clients received in full.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../src/backend/inprocess/keys.js";
import { startRestServer, type RestServer } from "../src/backend/rest.js";
import { BIG_RATE, serviceRig, type ServiceRig } from "./helpers/service.js";

let rig: ServiceRig;
let rest: RestServer;
beforeAll(async () => {
  rig = serviceRig({ keys: [{ key: "gone", credits: 1_000_000, rateLimit: BIG_RATE }] });
  rest = await startRestServer(rig.service, { host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await rest.close();
  await rig.store.close();
});

/** Resolves with the credits charged for a response received whole, or 0 once the client gave up. */
function abortedGet(path: string, cost: number, afterMs: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`${rest.url}${path}`, { headers: { "x-api-key": "gone" }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        expect(res.statusCode).toBe(200);
        resolve(cost);
      });
      res.on("error", () => resolve(0));
      res.on("aborted", () => resolve(0));
    });
    req.on("error", () => resolve(0));
    const timer = setTimeout(() => req.destroy(), afterMs);
    req.end();
  });
}

// 1 credit + 1 per 10,000 records: a 1m range of d whole days (both bounds inclusive) has 1,440·(d + 1) records.
const creditsOf = (days: number) => 1 + Math.floor((1440 * (days + 1)) / 10_000);

describe("an undelivered response", () => {
  it("is refunded whole: the store holds the credits of fully received responses only", async () => {
    const outcomes: number[] = [];
    for (let i = 0; i < 30; i++) {
      const days = 20 + (i % 10);
      const start = `2025-0${1 + (i % 9)}-0${1 + (i % 7)}`;
      const end = new Date(Date.parse(start) + days * 86_400_000).toISOString().slice(0, 10);
      const path = `/btc/derivatives/Volume_usd?timeframe=1m&startDate=${start}&endDate=${end}`;
      outcomes.push(await abortedGet(path, creditsOf(days), 3));
    }
    // Refunds of the last aborts finish after their sockets closed.
    await new Promise((r) => setTimeout(r, 300));
    const delivered = outcomes.reduce((a, b) => a + b, 0) + creditsOf(20);
    expect(outcomes.filter((c) => c === 0).length).toBeGreaterThan(10);
    // The same requests let through whole are charged what creditsOf says.
    const whole = await abortedGet("/btc/derivatives/Volume_usd?timeframe=1m&startDate=2024-03-01&endDate=2024-03-21", creditsOf(20), 30_000);
    expect(whole).toBe(creditsOf(20));
    expect(await rig.store.spent(sha256("gone").toString("hex"))).toBe(delivered);
  }, 60_000);
});
