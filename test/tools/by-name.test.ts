import { describe, expect, it } from "vitest";

import { loadTool, TOOL_NAMES } from "../../src/tools/by-name.js";
import { allTools } from "../../src/tools/index.js";

describe("tools by name", () => {
  it("names every tool of the server, in the order tools/list shows them", () => {
    expect([...TOOL_NAMES]).toEqual(allTools.map((t) => t.name));
  });

  it("loads each name's own tool, the very definition the server registers", async () => {
    for (const tool of allTools) expect(await loadTool(tool.name)).toBe(tool);
  });

  it("has no tool for another name, an inherited property's included", async () => {
    for (const name of ["get-series", "GET_SERIES", "toString", "__proto__", "constructor", ""])
      expect(await loadTool(name)).toBeUndefined();
  });
});
