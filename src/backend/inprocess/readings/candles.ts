// OHLC candles of an asset's reference market, as columns: the one source of price candles for the
// heatmap's `df` and for price series. Every candle is read from the one minute path, so candles
// of different timeframes nest exactly; the candle "now" falls in stops at the data clock.
import type { CandleColumns } from "../../types.js";
import { dataClock } from "../world/clock.js";
import { candle } from "../world/market/price.js";
import { inceptionMs } from "./series.js";

/**
 * Candles of `stepMs` whose bucket starts fall in [startMs, endMs] (both inclusive, aligned down to
 * the step), none before the asset's history begins and none starting at or after the data clock.
 */
export function candleColumns(asset: string, stepMs: number, startMs: number, endMs: number, nowMs: number): CandleColumns {
  const clock = dataClock(nowMs);
  const first = Math.max(Math.ceil(startMs / stepMs), Math.ceil(inceptionMs(asset) / stepMs)) * stepMs;
  const last = Math.floor(Math.min(endMs, clock - 1) / stepMs) * stepMs;
  const n = last >= first ? Math.floor((last - first) / stepMs) + 1 : 0;
  const out: CandleColumns = {
    times: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const t = first + i * stepMs;
    const c = candle(asset, t, Math.min(t + stepMs, clock));
    out.times[i] = t;
    out.open[i] = c.open;
    out.high[i] = c.high;
    out.low[i] = c.low;
    out.close[i] = c.close;
  }
  return out;
}
