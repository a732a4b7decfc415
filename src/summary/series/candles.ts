// Candle facts of a price series: the period's high and low with their times, the largest up and
// down candles, and realized volatility. Pure; the close's statistics come from the series digest.
import { z } from "zod";

import { DAY_MS } from "../../catalog/index.js";
import { formatPercent, formatTime } from "../format/format.js";
import type { AnswerScale } from "../format/scale.js";

const extremeSchema = z.object({ time: z.string(), value: z.number() });
const moveSchema = z.object({
  time: z.string(),
  percent: z.number().describe("(close − open) / open × 100"),
  open: z.number(),
  close: z.number(),
});

export const candleFactsSchema = z.object({
  candles: z.number().int(),
  high: extremeSchema.nullable().describe("highest high, at its first occurrence"),
  low: extremeSchema.nullable().describe("lowest low, at its first occurrence"),
  rangePercent: z.number().nullable().describe("(high − low) / low × 100"),
  largestUp: moveSchema.nullable(),
  largestDown: moveSchema.nullable(),
  realizedVolatility: z
    .object({
      annualizedPercent: z.number().describe("stdev of close-to-close log returns × √(buckets per 365-day year) × 100"),
      returns: z.number().int(),
    })
    .nullable(),
});
export type CandleFacts = z.infer<typeof candleFactsSchema>;

export interface CandleInput {
  times: ArrayLike<number>;
  open: ArrayLike<number>;
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function candleFacts(c: CandleInput, stepMs: number): CandleFacts {
  const n = c.times.length;
  let hi = -1;
  let lo = -1;
  let up = -1;
  let down = -1;
  let upPct = 0;
  let downPct = 0;
  let sum = 0;
  let sumSq = 0;
  let returns = 0;
  for (let i = 0; i < n; i++) {
    if (hi < 0 || c.high[i]! > c.high[hi]!) hi = i;
    if (lo < 0 || c.low[i]! < c.low[lo]!) lo = i;
    const o = c.open[i]!;
    if (o > 0) {
      const pct = ((c.close[i]! - o) / o) * 100;
      if (pct > upPct) {
        upPct = pct;
        up = i;
      }
      if (pct < downPct) {
        downPct = pct;
        down = i;
      }
    }
    if (i > 0 && c.close[i - 1]! > 0 && c.close[i]! > 0) {
      const r = Math.log(c.close[i]! / c.close[i - 1]!);
      sum += r;
      sumSq += r * r;
      returns++;
    }
  }
  const move = (i: number, percent: number) => ({ time: iso(c.times[i]!), percent, open: c.open[i]!, close: c.close[i]! });
  let realizedVolatility: CandleFacts["realizedVolatility"] = null;
  if (returns >= 2 && stepMs > 0) {
    const mean = sum / returns;
    const variance = Math.max(0, sumSq / returns - mean * mean);
    realizedVolatility = { annualizedPercent: Math.sqrt(variance * ((365 * DAY_MS) / stepMs)) * 100, returns };
  }
  return {
    candles: n,
    high: hi < 0 ? null : { time: iso(c.times[hi]!), value: c.high[hi]! },
    low: lo < 0 ? null : { time: iso(c.times[lo]!), value: c.low[lo]! },
    rangePercent: hi < 0 || !(c.low[lo]! > 0) ? null : ((c.high[hi]! - c.low[lo]!) / c.low[lo]!) * 100,
    largestUp: up < 0 ? null : move(up, upPct),
    largestDown: down < 0 ? null : move(down, downPct),
    realizedVolatility,
  };
}

/** Two lines for the model's view, prices in the answer's one scale; times as dates when candles are daily. */
export function renderCandleFacts(f: CandleFacts, stepMs: number, scale: Pick<AnswerScale, "stat">): string[] {
  if (!f.high || !f.low) return [];
  const daily = stepMs >= DAY_MS;
  const at = (time: string) => formatTime(Date.parse(time), daily);
  const range = f.rangePercent === null ? "" : `; range ${formatPercent(f.rangePercent).replace("+", "")} of the low`;
  const moves = [
    f.largestUp && `largest up candle ${formatPercent(f.largestUp.percent)} (${at(f.largestUp.time)})`,
    f.largestDown && `largest down ${formatPercent(f.largestDown.percent)} (${at(f.largestDown.time)})`,
    f.realizedVolatility &&
      `realized volatility ${formatPercent(f.realizedVolatility.annualizedPercent).replace("+", "")} annualized (${f.realizedVolatility.returns} close-to-close log returns)`,
  ].filter(Boolean);
  return [
    `period high ${scale.stat(f.high.value)} (${at(f.high.time)}); low ${scale.stat(f.low.value)} (${at(f.low.time)})${range}`,
    ...(moves.length ? [moves.join("; ")] : []),
  ];
}
