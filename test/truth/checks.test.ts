// The data-truth suite: the checks `npm run truth` prints, each asserted (fixed fast-check seeds).
import { describe, expect, it } from "vitest";

import { CHECKS } from "../../harness/truth/index.js";

describe("data truth", () => {
  for (const check of CHECKS) {
    it(`${check.id}: ${check.claim}`, () => {
      const r = check.run();
      expect(r.ok, `${r.checked}; worst: ${r.worst}`).toBe(true);
    });
  }
});
