// The structured shape of list_assets' answers: endpoint rows by the tool that reads them.
import { z } from "zod";

import { coverage, type Endpoint } from "../catalog/index.js";
import { TOOL_OF_KIND } from "../mcp/lookup.js";

export const COLUMNS = ["id", "asset_set", "assets", "unit", "purpose", "meaning"];

const endpointRow = z
  .tuple([z.string(), z.string(), z.number().nullable().describe("count; null: any ticker"), z.string()], z.string())
  .describe(
    "[id, asset_set, assets covered, unit, then in one metric's view its purpose and, where unit and purpose leave it open, how to read a value]",
  );
type EndpointRow = z.infer<typeof endpointRow>;
export type ByTool = Record<string, EndpointRow[]>;

export const output = z.object({
  view: z.enum(["overview", "metric", "asset", "search"]),
  columns: z.array(z.string()).optional().describe("the names of each endpoint row's members"),
  endpoints: z.record(z.string(), z.array(endpointRow)).optional().describe("rows by the tool that reads them"),
  covers: z
    .record(z.string(), z.record(z.string(), z.array(z.string())))
    .optional()
    .describe("one asset's endpoints: {tool: {group: [the id after the group]}}"),
  assets: z.array(z.string()).optional(),
  covered: z.boolean().optional(),
  not_offered: z
    .array(z.object({ concept: z.string(), nearest: z.string(), differs: z.string() }))
    .optional()
    .describe("concepts a search named that the catalog does not offer, with the nearest metric that is"),
  key_may_call: z
    .array(z.string())
    .optional()
    .describe("endpoint ids the key may call, when it is restricted; others answer metric_not_allowed"),
  next: z.string().optional().describe("where to look next"),
});
export type Output = z.infer<typeof output>;

/** Endpoints as rows by tool; only one metric's view gives the purpose (as its text does). */
export function rows(list: readonly Endpoint[], purpose = false): ByTool {
  const out: ByTool = {};
  for (const e of list) {
    const members = coverage(e);
    const r: EndpointRow = [e.id, e.assetSet, members ? members.length : null, e.unit];
    if (purpose) r.push(e.purpose, ...(e.meaning ? [e.meaning] : []));
    (out[TOOL_OF_KIND[e.kind]] ??= []).push(r);
  }
  return out;
}
