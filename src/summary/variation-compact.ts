// The structured shape of a metrics-variation answer: one row per metric as a tuple under a header,
// in the text's order (largest 24h % move first), numbers at a model's precision.
import { z } from "zod";
import { num } from "./compact.js";
import { TREND_RULE, TRENDS } from "./sparkline.js";
import { SPARK_RULE, type VariationRow } from "./variation.js";
import { displayUnit } from "./scale.js";

export const VARIATION_COLUMNS = ["metric", "unit", "last", "change24h", "changeIn", "trend", "sparkline7d", "name"] as const;

const rowSchema = z.tuple([
  z.string().describe("endpoint id (group/field when the catalog has none)"),
  z.string().describe("unit of last and of a change in units"),
  z.number().nullable().describe("latest daily value"),
  z.number().nullable().describe("24h change"),
  z.enum(["%", "points", "units"]).describe("% for most; points for ratios, units for series that cross zero"),
  z.enum(TRENDS),
  z.string().describe("7 daily values as ▁▂▃▄▅▆▇█"),
  z.string().optional().describe("the service's name, when the id does not say it"),
]);

export const compactVariationSchema = z.object({
  asset: z.string(),
  legend: z.string().describe("how to read the sparkline and the trend"),
  columns: z.array(z.string()).describe("the names of each row's members"),
  rows: z.array(rowSchema).describe("largest 24h % move first; points and units last"),
});
export type CompactVariation = z.infer<typeof compactVariationSchema>;

export function compactVariation(asset: string, rows: readonly VariationRow[]): CompactVariation {
  const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  return {
    asset,
    legend: `${SPARK_RULE}; ${TREND_RULE}`,
    columns: [...VARIATION_COLUMNS],
    rows: rows.map((r) => {
      const id = r.metric ?? `${r.collection}/${r.field}`;
      const change = r.change24h ? num(r.change24h.absolute) : r.change24hPercent === null ? null : num(r.change24hPercent);
      const named = r.name && plain(r.name) !== plain(id.split("/").pop() ?? "") && plain(r.name) !== plain(r.field);
      const row: z.infer<typeof rowSchema> = [
        id, displayUnit(r.unit ?? undefined, asset), r.lastValue === null ? null : num(r.lastValue), change,
        r.change24h ? r.change24h.measure : "%", r.trend, r.sparkline,
      ];
      if (named) row.push(r.name);
      return row;
    }),
  };
}
