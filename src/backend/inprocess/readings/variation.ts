// metrics-variation: for each series/OHLCV endpoint covering an asset, its value on the last
// complete day, a 7-day sparkline and the 24h change, taken from the very generators that serve
// the series. A series that ended (ETH hashprice at the Merge) reports its last week and says so.
import { DAY_MS, endpointsForAsset } from "../../../catalog/index.js";
import type { VariationRecord } from "../../../catalog/responses.js";
import { datePrefix } from "../encoders/time-format.js";
import { dataClock } from "../world/clock.js";
import { labelOf } from "./metrics.js";
import { generateColumns, seriesEndMs } from "./series.js";

const SPARK_DAYS = 7;

export function generateVariation(asset: string, nowMs: number): VariationRecord[] {
  const out: VariationRecord[] = [];
  // Whole days only: today's partial volume beside yesterday's full one would read as a crash.
  const today = Math.floor(dataClock(nowMs) / DAY_MS) * DAY_MS;
  for (const endpoint of endpointsForAsset(asset)) {
    if (endpoint.kind !== "series" && endpoint.kind !== "ohlcv") continue;
    const ended = seriesEndMs(endpoint, asset);
    const endMs = Math.min(today - 1, ended ?? Infinity);
    const lastDay = Math.floor(endMs / DAY_MS) * DAY_MS;
    const { times, values: tail } = generateColumns({
      endpoint,
      asset,
      timeframe: "1d",
      startMs: lastDay - (SPARK_DAYS - 1) * DAY_MS,
      endMs,
      nowMs: today,
    });
    if (tail.length === 0) continue;
    const last = tail[tail.length - 1]!;
    const prev = tail.length > 1 ? tail[tail.length - 2]! : last;
    const lastDate = datePrefix(Math.round(times[times.length - 1]! / DAY_MS));
    const stopped = ended !== undefined && ended < today - DAY_MS;
    const label = labelOf(endpoint.id) ?? endpoint.id;
    out.push({
      position: out.length + 1,
      name: stopped ? `${label} (series ended ${lastDate})` : label,
      collection: endpoint.group,
      field: endpoint.field,
      last_value: last,
      variation_24h_percent: prev === 0 ? 0 : (last / prev - 1) * 100,
      sparkline_7d: Array.from(tail),
      last_date: lastDate,
    });
  }
  return out;
}
