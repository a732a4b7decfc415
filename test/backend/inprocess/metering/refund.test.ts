// A request charged but not served (its generator failed) gives back both what it took: its
// credits and its place in the rate window, so the key can make exactly as many requests as before.
import { afterAll, describe, expect, it, vi } from "vitest";

import { type ServiceRig, serviceRig } from "../../../../harness/service.js";

// The one fault injected: generating a series that starts on 2025-06-03 fails after the charge.
vi.mock("../../../../src/backend/inprocess/readings/index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../../src/backend/inprocess/readings/index.js")>();
  return {
    ...real,
    generateColumns: (q: Parameters<typeof real.generateColumns>[0]) => {
      if (q.startMs === Date.parse("2025-06-03")) throw new Error("generator fault");
      return real.generateColumns(q);
    },
  };
});

const SERVED = "startDate=2025-06-01&endDate=2025-06-02";
const FAILING = "startDate=2025-06-03&endDate=2025-06-04";
const rigs: ServiceRig[] = [];
afterAll(async () => {
  for (const r of rigs) await r.close();
});

function get(rig: ServiceRig, query: string) {
  return rig.service.handle({
    method: "GET",
    path: "/btc/lifespan/Lth_mvrv",
    query: new URLSearchParams(query),
    headers: { "x-api-key": "k" },
  });
}

describe("a failed request is taken back whole", () => {
  it("answers 500 and returns the credits and the window's place it took", async () => {
    const rig = serviceRig({ keys: [{ key: "k", credits: 10, rateLimit: { requests: 2, windowSeconds: 60 } }] });
    rigs.push(rig);
    const failed = await get(rig, FAILING);
    expect(failed.status).toBe(500);
    expect(failed.error?.code).toBe("internal");
    expect(failed.headers["X-Credits-Remaining"]).toBe("10");
    expect(failed.headers["RateLimit"]).toBe('"custom";r=2;t=0');
    // Both places of the window are still there: two requests go through, the third waits.
    expect((await get(rig, SERVED)).status).toBe(200);
    const second = await get(rig, SERVED);
    expect(second.status).toBe(200);
    expect(second.headers["X-Credits-Remaining"]).toBe("8");
    expect((await get(rig, SERVED)).status).toBe(429);
  });
});
