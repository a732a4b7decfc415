// Service records ({time, <field>}) as the parallel typed arrays the series digest reads.
import type { TimeRecord } from "../../catalog/responses.js";

/**
 * Epoch-ms times and values of `field`; an unparsable time or a non-numeric value becomes NaN,
 * which digestSeries skips and counts as non-finite.
 */
export function seriesFromRecords(records: readonly TimeRecord[], field: string): { times: Float64Array; values: Float64Array } {
  const times = new Float64Array(records.length);
  const values = new Float64Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    times[i] = typeof r.time === "string" ? Date.parse(r.time) : Number.NaN;
    const v = r[field];
    values[i] = typeof v === "number" ? v : Number.NaN;
  }
  return { times, values };
}
