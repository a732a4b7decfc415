// metrics-variation: for each series/OHLCV endpoint covering an asset, its latest daily value,
// a 7-day sparkline and the 24h change, taken from the very generators that serve the series.
import { DAY_MS, endpointsForAsset } from "../../../catalog/index.js";
import type { VariationRecord } from "../../../catalog/responses.js";
import { LABELS } from "./metrics.js";
import { generateColumns, seriesEndMs } from "./series.js";

const SPARK_DAYS = 7;

export function generateVariation(asset: string, nowMs: number): VariationRecord[] {
  const out: VariationRecord[] = [];
  for (const endpoint of endpointsForAsset(asset)) {
    if (endpoint.kind !== "series" && endpoint.kind !== "ohlcv") continue;
    // A series whose history ended (ETH mining at the Merge) reports its last week of history.
    const endMs = Math.min(nowMs, seriesEndMs(endpoint, asset) ?? nowMs);
    const lastDay = Math.floor(endMs / DAY_MS) * DAY_MS;
    const { values: tail } = generateColumns({
      endpoint, asset, timeframe: "1d", startMs: lastDay - (SPARK_DAYS - 1) * DAY_MS, endMs,
    });
    if (tail.length === 0) continue;
    const last = tail[tail.length - 1]!;
    const prev = tail.length > 1 ? tail[tail.length - 2]! : last;
    out.push({
      position: out.length + 1,
      name: LABELS[endpoint.id] ?? endpoint.id,
      collection: endpoint.group,
      field: endpoint.field,
      last_value: last,
      variation_24h_percent: prev === 0 ? 0 : (last / prev - 1) * 100,
      sparkline_7d: Array.from(tail),
    });
  }
  return out;
}
