// tools/list: a committed snapshot (a changed description shows up in review), annotations,
// flat strict schemas with bounded strings, and every series' unit stated where a model reads it.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

import { connect, type Fixture } from "../../harness/mcp.js";
import { HttpBackend } from "../../src/backend/http/index.js";
import { ENDPOINTS, SERIES_IDS } from "../../src/catalog/index.js";
import { createServer } from "../../src/server.js";
import { allTools } from "../../src/tools/index.js";
import { listAssets } from "../../src/tools/list-assets.js";
import { fullOutputSchema } from "../../src/tools/listing.js";

let f: Fixture;
beforeAll(async () => {
  f = await connect();
});
afterAll(async () => {
  await f.close();
});

describe("the server's icon", () => {
  it("is in serverInfo as a PNG data URI (no external URL), and in the bundle's manifest as a PNG file", async () => {
    const icons = f.client.getServerVersion()?.icons ?? [];
    expect(icons.map((i) => i.mimeType)).toEqual(["image/png"]);
    for (const icon of icons) expect(icon.src).toMatch(/^data:image\/(png|svg\+xml);base64,/);
    const png = Buffer.from(icons[0]!.src.split(",")[1]!, "base64");
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([32, 32]);
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "manifest.json"), "utf8")) as { icon: string };
    expect(manifest.icon).toBe("icon.png");
    expect(
      readFileSync(join(import.meta.dirname, "..", "..", "assets", "icon.png"))
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });
});

describe("tools/list", () => {
  it("matches the committed snapshot", async () => {
    const { tools } = await f.client.listTools();
    expect(tools).toMatchSnapshot();
  });

  it("lists the seven contract tools with read-only, idempotent, non-destructive, closed-world annotations", async () => {
    const { tools } = await f.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "list_assets",
      "get_series",
      "get_ohlcv",
      "get_metrics_variation",
      "get_liquidation_heatmap",
      "compare",
      "rank_assets",
    ]);
    for (const t of tools) {
      expect(t.title).toBeTruthy();
      expect(t.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(t.outputSchema).toMatchObject({ type: "object" });
    }
  });

  it("advertises output schemas that name every member the full schema has, two levels down, with its type in words: only required members and enums compile", async () => {
    const { tools } = await f.client.listTools();
    type Node = {
      type?: unknown;
      enum?: unknown[];
      properties?: Record<string, Node>;
      anyOf?: Node[];
      required?: string[];
      description?: string;
    };
    for (const t of tools) {
      expect(JSON.stringify(t.outputSchema)).not.toContain('"anyOf"');
      const listed = t.outputSchema as Node;
      const full = fullOutputSchema(allTools.find((x) => x.name === t.name)!.output) as Node;
      for (const [name, member] of Object.entries(full.properties!)) {
        const shown = listed.properties![name];
        expect(shown, `${t.name}.${name}`).toBeDefined();
        // An enum's values say its type; every other member says it first in its description.
        if (member.enum) expect(shown, `${t.name}.${name}`).toEqual({ enum: member.enum });
        else expect(shown!.description, `${t.name}.${name}`).toMatch(/^(string|number|integer|boolean|object|array|record|\[|.* or )/);
        // Below the top level nothing is compiled: the member's own members (of every variant) are named in its description, with their types.
        expect(shown!.properties, `${t.name}.${name}`).toBeUndefined();
        const inner = [member, ...(member.anyOf ?? [])].flatMap((v) => Object.keys(v.properties ?? {}));
        for (const m of inner) expect(shown!.description, `${t.name}.${name}.${m}`).toMatch(new RegExp(`\\b${m} \\([a-z[]`));
      }
      // No member's type is a keyword (each costs an SDK client's Ajv generated code at every tools/list).
      expect(JSON.stringify(listed.properties)).not.toContain('"type"');
      // Success and failure: the result's required members, or {error} with its own three.
      expect(listed).toMatchObject({ if: { required: ["error"] }, else: { required: full.required ?? [] } });
      expect(listed.properties!.error!.description).toMatch(/code \(string\), retryable \(boolean\), message \(string\), always;/);
    }
  });

  it("marks the tools open-world when the backend is the real service over HTTP", async () => {
    const backend = new HttpBackend({ baseUrl: "http://127.0.0.1:9" });
    const server = createServer({ backend });
    const client = new Client({ name: "t", version: "1" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([client.connect(a), server.connect(b)]);
    const { tools } = await client.listTools();
    expect(tools.every((t) => t.annotations?.openWorldHint === true)).toBe(true);
    await client.close();
    await backend.close();
  });

  it("advertises the contract's argument names", async () => {
    const { tools } = await f.client.listTools();
    const args = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {})]));
    expect(args).toEqual({
      list_assets: ["metric", "asset", "search"],
      get_series: ["metric", "asset", "startDate", "endDate", "entity_name", "max_points", "resample", "chart"],
      get_ohlcv: [
        "metric",
        "asset",
        "timeframe",
        "exchange",
        "symbol",
        "market_type",
        "startDate",
        "endDate",
        "max_points",
        "resample",
        "chart",
      ],
      get_metrics_variation: ["asset"],
      get_liquidation_heatmap: ["asset", "timeframe", "lookback", "scope", "exchange", "top_k", "include_matrix", "chart"],
      compare: ["metric", "assets", "asset", "metrics", "startDate", "endDate", "timeframe", "max_points", "chart"],
      rank_assets: ["metric", "by", "window", "order", "limit", "assets", "above", "below"],
    });
    const series = tools.find((t) => t.name === "get_series")!.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(series.metric!.enum).toEqual(SERIES_IDS);
  });
});

describe("tool definitions", () => {
  it("are flat, strict objects with a length cap on every string (lists hold capped strings only)", () => {
    for (const tool of allTools) {
      const json = z.toJSONSchema(tool.input, { io: "input" }) as {
        properties: Record<
          string,
          { type?: string; maxLength?: number; maxItems?: number; enum?: unknown[]; items?: { type?: string; maxLength?: number } }
        >;
        additionalProperties?: boolean;
      };
      expect(json.additionalProperties, tool.name).toBe(false);
      for (const [name, prop] of Object.entries(json.properties)) {
        expect(prop.type, `${tool.name}.${name}`).not.toBe("object");
        if (prop.type === "array") {
          expect(prop.items?.type, `${tool.name}.${name}`).toBe("string");
          expect(prop.items?.maxLength, `${tool.name}.${name}`).toBeLessThanOrEqual(64);
          // rank_assets takes up to 50 tickers (the contract); the schema's cap bounds what it reads.
          expect(prop.maxItems, `${tool.name}.${name}`).toBeLessThanOrEqual(64);
        }
        if (prop.type === "string" && !prop.enum) expect(prop.maxLength, `${tool.name}.${name}`).toBeLessThanOrEqual(64);
      }
    }
  });

  it("state every series' unit in its answer and in list_assets, not in get_series' description", async () => {
    for (const e of ENDPOINTS.filter((x) => x.kind === "series")) {
      const { text } = await listAssets.handle({ metric: e.id }, undefined as never);
      expect(text, e.id).toContain(`unit ${e.unit}`);
    }
  });
});
