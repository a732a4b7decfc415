// The views the chart model builds hold only what their zod schema declares (the tools' output schemas carry
// it, and the view types are inferred from it): checked with unknown keys refused.
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { seriesLine, seriesView } from "../../../src/charts/model/view-data.js";
import { seriesLineSchema, seriesViewSchema } from "../../../src/charts/model/view-schema.js";

const DAY = 86_400_000;
const times = Array.from({ length: 30 }, (_, i) => Date.UTC(2025, 0, 1) + i * DAY);
const values = times.map((_, i) => 100 + i);
const strictLine = z.strictObject(seriesLineSchema.shape);

describe("series view schema", () => {
  it("declares every member of a level's line and of a flow's (bars)", () => {
    const level = seriesLine("BTC", "USD", times, values);
    const flow = seriesLine("Volume", "USD", times, values, 500, true);
    expect(flow.bars).toBe(true);
    for (const line of [level, flow]) expect(strictLine.safeParse(line).error).toBeUndefined();
  });

  it("declares every member of the view around them", () => {
    const view = seriesView("Volume (USD), btc", [seriesLine("Volume", "USD", times, values, 500, true)]);
    const strictView = z.strictObject({ ...seriesViewSchema.shape, series: z.array(strictLine) });
    expect(strictView.safeParse(view).error).toBeUndefined();
  });
});
