// The call command's reading of its tokens, in-process: options and their conflicts, and tool
// arguments read with the tool's schema (arrays repeated or comma-separated, bare booleans).
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseCallCommand, parseToolArgs, UsageError } from "../../src/call/flags.js";
import { commandLine, toolHelp } from "../../src/call/help.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { allTools } from "../../src/tools/index.js";

/** A tool of every argument kind, as a new tool with array arguments would declare them. */
const kinds = defineTool({
  name: "kinds",
  title: "Argument kinds",
  description: "every kind",
  input: z
    .object({
      assets: z.array(z.string()).min(2).max(8).optional(),
      windows: z.array(z.number().int()).optional(),
      chart: z.boolean().optional(),
      max_points: z.number().int().optional(),
      metric: z.enum(["price", "lifespan/Lth_mvrv"]).optional(),
      // A list that also takes "a,b" from JSON callers, as a preprocessing step.
      metrics: z.preprocess((v) => (typeof v === "string" ? v.split(",") : v), z.array(z.string()).max(4)).optional(),
    })
    .strict(),
  output: z.object({}),
  handle: async () => ({ text: "", structured: {} }),
});

const usage = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error("no UsageError");
};

describe("parseToolArgs", () => {
  it("reads arrays from repeated flags and comma lists, numbers by the element schema", () => {
    expect(parseToolArgs(kinds, ["--assets", "btc,eth", "--assets", "sol", "--windows=7,30"])).toEqual({
      assets: ["btc", "eth", "sol"],
      windows: [7, 30],
    });
    expect(parseToolArgs(kinds, ["--assets", " btc , eth ,"])).toEqual({ assets: ["btc", "eth"] });
    expect(parseToolArgs(kinds, ["--assets", '["btc", "eth"]', "--windows", "[7, 30]"])).toEqual({
      assets: ["btc", "eth"],
      windows: [7, 30],
    });
    expect(parseToolArgs(kinds, ["--metrics", "price", "--metrics", "lifespan/Lth_mvrv,mining/DiffLast"])).toEqual({
      metrics: ["price", "lifespan/Lth_mvrv", "mining/DiffLast"],
    });
  });

  it("reads booleans as bare flags, --NAME true|false, --NAME=false or --no-NAME, without swallowing the next flag", () => {
    expect(parseToolArgs(kinds, ["--chart", "--max_points", "50"])).toEqual({ chart: true, max_points: 50 });
    expect(parseToolArgs(kinds, ["--chart", "false"])).toEqual({ chart: false });
    expect(parseToolArgs(kinds, ["--chart=FALSE"])).toEqual({ chart: false });
    expect(parseToolArgs(kinds, ["--no-chart"])).toEqual({ chart: false });
  });

  it("passes what the schema would refuse on as given, for the tool's validation to name", () => {
    expect(parseToolArgs(kinds, ["--max_points", "lots", "--chart=maybe", "--colour", "red"])).toEqual({
      max_points: "lots",
      chart: "maybe",
      colour: "red",
    });
    // An own key, so validation refuses it by name instead of it vanishing into the prototype.
    expect(Object.keys(parseToolArgs(kinds, ["--__proto__", "x"]))).toEqual(["__proto__"]);
  });

  it("refuses a repeated single value, a missing value and a stray word, naming the flag", () => {
    expect(usage(() => parseToolArgs(kinds, ["--metric", "price", "--metric", "x"]))).toMatch(/--metric is given twice/);
    expect(usage(() => parseToolArgs(kinds, ["--max_points"]))).toMatch(/--max_points needs a value/);
    expect(usage(() => parseToolArgs(kinds, ["--colour"]))).toMatch(/--colour needs a value \(and kinds has no argument named colour/);
    expect(usage(() => parseToolArgs(kinds, ["btc"]))).toMatch(/unexpected "btc" in kinds's arguments/);
  });

  it("reads every tool's example back from the command line help prints", () => {
    for (const tool of allTools) {
      const tokens = commandLine(tool, tool.example!).split(" ").slice(3);
      expect(parseToolArgs(tool, tokens), tool.name).toEqual(tool.example);
    }
    expect(
      parseToolArgs(
        kinds,
        commandLine(kinds, { assets: ["btc", "eth"], chart: true })
          .split(" ")
          .slice(3),
      ),
    ).toEqual({ assets: ["btc", "eth"], chart: true });
  });
});

describe("parseCallCommand", () => {
  it("takes the call's options anywhere and the first word as the tool", () => {
    expect(parseCallCommand(["--format", "json", "get_series", "--asset", "btc"])).toMatchObject({
      tool: "get_series",
      format: "json",
      toolTokens: ["--asset", "btc"],
    });
    expect(parseCallCommand(["get_series", "--asset", "btc", "--format=csv"])).toMatchObject({
      format: "csv",
      toolTokens: ["--asset", "btc"],
    });
    expect(parseCallCommand(["--batch", "-"])).toMatchObject({ batch: "-", format: "json", tool: undefined, noWait: false });
    expect(parseCallCommand(["--batch", "-", "--no-wait"])).toMatchObject({ batch: "-", noWait: true });
    expect(() => parseCallCommand(["--no-wait=1", "--batch", "-"])).toThrow(/--no-wait takes no value/);
    expect(() => parseCallCommand(["list_assets", "--no-wait"])).toThrow(/--no-wait applies to --batch only/);
    expect(parseCallCommand(["--batch", "f", "--format", "text", "--concurrency", "3"])).toMatchObject({ format: "text", concurrency: 3 });
    expect(parseCallCommand(["get_series", "-h"]).help).toBe(true);
  });

  it("refuses conflicts and bad values with the fix", () => {
    expect(usage(() => parseCallCommand(["--batch", "f", "get_series"]))).toMatch(/drop the tool name/);
    expect(usage(() => parseCallCommand(["--batch", "f", "--format", "csv"]))).toMatch(/--format csv cannot be combined with --batch/);
    expect(usage(() => parseCallCommand(["t", "--format", "json", "--format", "text"]))).toMatch(/--format is given twice/);
    expect(usage(() => parseCallCommand(["t", "--format", "yaml"]))).toMatch(/--format must be one of text, json, csv/);
    expect(usage(() => parseCallCommand(["t", "--concurrency", "2"]))).toMatch(/--concurrency applies to --batch only/);
    expect(usage(() => parseCallCommand(["--batch", "f", "--concurrency", "0"]))).toMatch(/--concurrency must be an integer from 1 to 64/);
    expect(usage(() => parseCallCommand(["--batch"]))).toMatch(/--batch needs a value/);
    expect(usage(() => parseCallCommand(["--asset", "btc", "t"]))).toMatch(/--asset comes before the tool name/);
    expect(usage(() => parseCallCommand([]))).toMatch(/call needs a tool name/);
  });

  it("reserves no name a tool argument uses", () => {
    const reserved = ["format", "batch", "concurrency", "help"];
    for (const tool of allTools)
      for (const name of Object.keys(tool.input.shape)) expect(reserved, `${tool.name} --${name}`).not.toContain(name);
  });
});

describe("help for array arguments", () => {
  it("says how to give them and how many", () => {
    const help = toolHelp(kinds);
    expect(help).toMatch(/--assets TEXT,…\n\s+2–8 values, repeated \(--assets a --assets b\) or comma-separated \(--assets a,b\)/);
    expect(help).toMatch(/--chart\n\s+flag \(--chart for true, --no-chart for false\)/);
  });
});
