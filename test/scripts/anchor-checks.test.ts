// scripts/anchor-checks.ts refuses an all-time high or low the file's own closes contradict: one before the
// coin's listing, a high that a month-end, dated or Sunday close goes above, or a low one goes under.
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

function fileWithLow(atl: [string, number, number, string], calendar: Partial<AnchorFile> = {}): AnchorFile {
  return { ...fileWith([]), highs: {}, atls: { coin: [atl] }, ...calendar };
}

const lowErrors = (file: AnchorFile) => checkFile(file).filter((f) => f.level === "error" && f.text.startsWith("atls."));

describe("all-time lows in the anchors", () => {
  it("pass when no close or low of the coin goes under the low before it stopped holding", () => {
    expect(lowErrors(fileWithLow(["2021-06-22T12:00", 30, 0, "2023-01-16"]))).toEqual([]);
  });

  it("are refused under a month-end, a dated or a Sunday close before the day they still held", () => {
    expect(lowErrors(fileWithLow(["2021-06-22T12:00", 60, 0, "2023-01-16"]))[0]?.text).toContain("2021-06 49.91");
    const dated = fileWithLow(["2021-06-22T12:00", 30, 0, "2023-01-16"], { closes: { coin: [["2021-06-23", 28.5, 0]] } });
    expect(lowErrors(dated)[0]?.text).toContain("2021-06-23 28.5");
    const weeks = fileWithLow(["2021-06-22T12:00", 30, 0, "2023-01-16"], {
      weeks: { coin: { from: "2021-06-20", source: 0, closes: [40, 29], below: [0, 0], above: [0, 0] } },
    });
    expect(lowErrors(weeks)[0]?.text).toContain("2021-06-27 29");
    // A close after the day the low still held does not contradict it.
    const later = fileWithLow(["2021-06-22T12:00", 30, 0, "2021-06-30"], { closes: { coin: [["2021-07-02", 28.5, 0]] } });
    expect(lowErrors(later)).toEqual([]);
  });

  it("are refused under a crash day's low of the calendar, or beside another low of their own day", () => {
    const under = fileWithLow(["2021-06-22T12:00", 30, 0, "2023-01-16"], { lows: { coin: [["2021-07-20T12:00", 29.5, 0, "a low"]] } });
    expect(lowErrors(under)[0]?.text).toContain("2021-07-20T12:00 29.5");
    const sameDay = fileWithLow(["2021-06-22T02:22", 30, 0, "2023-01-16"], { lows: { coin: [["2021-06-22T12:00", 31, 0, "a low"]] } });
    expect(lowErrors(sameDay)[0]?.text).toContain("2021-06-22T12:00 31");
  });
});
