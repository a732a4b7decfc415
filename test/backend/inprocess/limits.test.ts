// Rate-limit headers. The windows and balances themselves are the metering store's: see test/backend/inprocess/metering/.
import { describe, expect, it } from "vitest";

import { policyHeader, rateLimitHeader } from "../../../src/backend/inprocess/rate-window.js";

describe("rate-limit headers", () => {
  it("formats the IETF draft-10 RateLimit fields", () => {
    expect(policyHeader("free", { requests: 30, windowSeconds: 60 })).toBe('"free";q=30;w=60');
    expect(rateLimitHeader("free", 29, 60)).toBe('"free";r=29;t=60');
  });
});
