// A read repeated within the service clock's day: the in-process service hands on the columns it
// kept and the tools reuse their digest, yet every call is charged and answers exactly what a first
// call answers; a request that differs in anything the digest reads gets its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connect, type Fixture, textOf } from "../../harness/mcp.js";

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

/** The answer without its credits line and credits member, which each call has of its own. */
const answer = (r: Awaited<ReturnType<Fixture["call"]>>) => {
  const { credits: _credits, ...structured } = r.structuredContent as Record<string, unknown>;
  return { text: textOf(r).replace(/^credits: .*$/m, ""), structured };
};

describe("a repeated read", () => {
  it("answers as the first read did, charges again, and a different request gets its own digest", async () => {
    const args = { metric: "lifespan/Lth_mvrv", asset: "btc", max_points: 30 };
    const first = await f.call("get_series", args);
    const hits = f.backend.service.series.hits;
    const again = await f.call("get_series", args);
    expect(f.backend.service.series.hits).toBe(hits + 1);
    expect(answer(again)).toEqual(answer(first));
    const charged = (r: typeof first) => (r.structuredContent as { credits: { charged: number; remaining: number } }).credits;
    expect(charged(again).remaining).toBe(charged(first).remaining - charged(again).charged);

    const wider = await f.call("get_series", { ...args, max_points: 60 });
    expect(f.backend.service.series.hits).toBe(hits + 2);
    const points = (r: typeof first) =>
      Object.values((r.structuredContent as { digest: { points: Record<string, unknown[]> } }).digest.points).flat();
    expect(points(wider).length).toBeGreaterThan(points(first).length);
    const resampled = await f.call("get_series", { ...args, resample: "1M" });
    expect(answer(resampled).text).not.toBe(answer(first).text);
    // And the first request once more: its own digest still.
    expect(answer(await f.call("get_series", args))).toEqual(answer(first));
  });
});
