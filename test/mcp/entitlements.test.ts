// A key restricted to some metrics sees them: list_assets marks what it may call, and a refused
// call lists the ids it may call (nothing charged).
import { describe, expect, it } from "vitest";

import { connect, errorOf, textOf } from "../../harness/mcp.js";

interface Listing {
  covers: Record<string, Record<string, string[]>>;
  key_may_call?: string[];
}

describe("entitlements visible", () => {
  it("list_assets marks what a restricted key may call", async () => {
    const f = await connect({ key: "onchain-only" });
    try {
      const r = await f.call("list_assets", { asset: "btc" });
      const out = r.structuredContent as unknown as Listing;
      expect(out.key_may_call).toEqual(["lifespan/Lth_mvrv", "market/metcalfe_ratio"]);
      expect(out.covers.get_series).toMatchObject({
        lifespan: expect.arrayContaining(["Lth_mvrv"]),
        market: expect.arrayContaining(["metcalfe_ratio"]),
      });
      expect(textOf(r)).toContain("This key may call only lifespan/Lth_mvrv, market/metcalfe_ratio; others answer metric_not_allowed");
      const overview = await f.call("list_assets", {});
      expect(textOf(overview)).toContain("This key may call only");
    } finally {
      await f.close();
    }
  });

  it("says nothing of entitlements for a key that may call everything", async () => {
    const f = await connect();
    try {
      const r = await f.call("list_assets", { asset: "btc" });
      expect((r.structuredContent as unknown as Listing).key_may_call).toBeUndefined();
      expect(textOf(r)).not.toContain("This key may call");
    } finally {
      await f.close();
    }
  });

  it("a refused call lists the ids the key may call", async () => {
    const f = await connect({ key: "onchain-only" });
    try {
      const r = await f.call("get_series", { metric: "lifespan/Cvdd", asset: "btc" });
      expect(errorOf(r).code).toBe("metric_not_allowed");
      expect(textOf(r)).toContain("This key may call: lifespan/Lth_mvrv, market/metcalfe_ratio.");
      expect(errorOf(r).suggestions).toEqual(["lifespan/Lth_mvrv", "market/metcalfe_ratio"]);
      expect(await f.backend.service.creditsRemaining("onchain-only")).toBe(1000);
    } finally {
      await f.close();
    }
  });
});
