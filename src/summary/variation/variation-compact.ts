// The structured shape of a metrics-variation answer: the day described, the asset's price beside
// it, one row per live metric as a tuple under a header in the text's order (largest 24h % move
// first), and the ended series apart; numbers at a model's precision.
import { z } from "zod";

import { num } from "../format/compact.js";
import { displayUnit } from "../format/scale.js";
import { TREND_RULE, TRENDS } from "./sparkline.js";
import { SPARK_RULE, type variationPriceSchema, type VariationRow } from "./variation.js";

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
  day: z
    .string()
    .optional()
    .describe(
      "the UTC day (YYYY-MM-DD) the last values describe; 24h is this day against the one before; absent when the service does not date them",
    ),
  price: z
    .object({ close: z.number(), change24hPercent: z.number().optional(), trend: z.enum(TRENDS), sparkline7d: z.string() })
    .optional()
    .describe("the asset's daily close (USD) on that day, when the backend gives it"),
  priceFrom: z.string().optional().describe("where the price is when it is not beside the metrics"),
  legend: z.string().describe("how to read the sparkline and the trend"),
  columns: z.array(z.string()).describe("the names of each row's members"),
  rows: z.array(rowSchema).describe("live series: largest 24h % move first; points and units last"),
  ended: z
    .array(z.tuple([z.string(), z.string(), z.number().nullable(), z.string().nullable()]))
    .optional()
    .describe("series that ended before the day: [metric, unit, last value, its day]; no 24h change"),
});
export type CompactVariation = z.infer<typeof compactVariationSchema>;

const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

export function compactVariation(
  asset: string,
  rows: readonly VariationRow[],
  day: string | null = null,
  price: z.infer<typeof variationPriceSchema> | null = null,
): CompactVariation {
  const id = (r: VariationRow) => r.metric ?? `${r.collection}/${r.field}`;
  const unit = (r: VariationRow) => displayUnit(r.unit ?? undefined, asset);
  const ended = rows.filter((r) => r.ended);
  return {
    asset,
    ...(day !== null && { day }),
    ...(price
      ? {
          price: {
            close: num(price.lastValue),
            ...(price.change24hPercent !== null && { change24hPercent: num(price.change24hPercent) }),
            trend: price.trend,
            sparkline7d: price.sparkline,
          },
        }
      : { priceFrom: "get_ohlcv metric=price" }),
    legend: `${SPARK_RULE}; ${TREND_RULE}`,
    columns: [...VARIATION_COLUMNS],
    rows: rows
      .filter((r) => !r.ended)
      .map((r) => {
        const change = r.change24h ? num(r.change24h.absolute) : r.change24hPercent === null ? null : num(r.change24hPercent);
        const row: z.infer<typeof rowSchema> = [
          id(r),
          unit(r),
          r.lastValue === null ? null : num(r.lastValue),
          change,
          r.change24h ? r.change24h.measure : "%",
          r.trend,
          r.sparkline,
        ];
        if (r.name && plain(r.name) !== plain(id(r).split("/").pop() ?? "") && plain(r.name) !== plain(r.field)) row.push(r.name);
        return row;
      }),
    ...(ended.length > 0 && {
      ended: ended.map(
        (r) =>
          [id(r), unit(r), r.lastValue === null ? null : num(r.lastValue), r.lastDate] as [string, string, number | null, string | null],
      ),
    }),
  };
}
