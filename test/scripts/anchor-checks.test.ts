// scripts/anchor-checks.ts refuses an all-time high the file's own closes contradict: one before the
// coin's listing, or one that a month-end, dated or Sunday close goes above.
import { describe, expect, it } from "vitest";

import { checkFile } from "../../scripts/anchor-checks.js";
import type { AnchorFile } from "../../scripts/anchor-file.js";

function fileWith(highs: Array<[string, number, number]>, calendar: Partial<AnchorFile> = {}): AnchorFile {
  return {
    about: "",
    generated: [],
    corrections: [],
    sources: ["a source"],
    highs: { coin: highs },
    ...calendar,
    assets: {
      coin: {
        name: "Coin",
        listed: "2021-05-10",
        closes: { "2021-05": 114.8, "2021-06": 49.91 },
        ref: [3, 5e8],
        supply: {},
        confidence: "medium",
        sources: [0],
      },
    },
  };
}

const errors = (file: AnchorFile) => checkFile(file).filter((f) => f.level === "error" && f.text.startsWith("highs."));

describe("all-time highs in the anchors", () => {
  it("pass when every close of the coin is under the high and the high is on or after the listing", () => {
    expect(errors(fileWith([["2021-05-10", 700.65, 0]]))).toEqual([]);
  });

  it("are refused before the listing", () => {
    expect(errors(fileWith([["2021-05-09", 700.65, 0]])).map((f) => f.text)).toEqual([
      "highs.coin 2021-05-09: before the listing (2021-05-10)",
    ]);
  });

  it("are refused under a month-end, a dated or a Sunday close of the coin", () => {
    expect(errors(fileWith([["2021-05-10", 100, 0]]))[0]?.text).toContain("2021-05 114.8");
    const dated = fileWith([["2021-05-10", 400, 0]], { closes: { coin: [["2021-05-10", 428.4, 0]] } });
    expect(errors(dated)[0]?.text).toContain("2021-05-10 428.4");
    const weeks = fileWith([["2021-05-10", 200, 0]], {
      weeks: { coin: { from: "2021-05-16", source: 0, closes: [225.1], below: [0], above: [0] } },
    });
    expect(errors(weeks)[0]?.text).toContain("225.1");
  });
});
