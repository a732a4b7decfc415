// Nothing is known before it happens: the data runs to the last whole minute before now.
import fc from "fast-check";

import { generateColumns, generateHeatmap } from "../../src/backend/inprocess/readings/index.js";
import { priceAt } from "../../src/backend/inprocess/world/market/price.js";
import { DAY_MS, SET_A, type Timeframe, TIMEFRAME_MS } from "../../src/catalog/index.js";
import { type Check, ep, fmt, REF, sample } from "./common.js";

const TFS: readonly Timeframe[] = ["5m", "15m", "30m", "1h", "4h", "6h", "12h", "1d"];

export const noLookAhead: Check = {
  id: "no-look-ahead",
  group: "time",
  claim:
    "at any now: the bucket now falls in holds exactly its minutes so far (sums across timeframes agree), no daily metric for today, the heatmap's last candle closes at the price of now",
  run() {
    const cases = sample(
      fc.tuple(
        fc.constantFrom(...SET_A.slice(0, 120)),
        fc.integer({ min: (REF - 400) * 1440, max: (REF + 300) * 1440 }),
        fc.constantFrom(...TFS),
      ),
      60,
      6,
    );
    let worst = 0;
    let bad = 0;
    for (const [a, minute, tf] of cases) {
      const nowMs = minute * 60_000 + 17_000;
      const clock = minute * 60_000;
      const step = TIMEFRAME_MS[tf];
      const volume = ep("derivatives/Volume_usd");
      const coarse = generateColumns({ endpoint: volume, asset: a, timeframe: tf, startMs: nowMs - 3 * step, endMs: nowMs, nowMs });
      if (coarse.times.length === 0) continue;
      const lastStart = coarse.times.at(-1)!;
      if (lastStart >= clock || lastStart + step <= clock - step) bad++;
      const fine = generateColumns({ endpoint: volume, asset: a, timeframe: "1m", startMs: lastStart, endMs: nowMs, nowMs });
      if (fine.times.length && fine.times.at(-1)! >= clock) bad++;
      const sum = fine.values.reduce((s, v) => s + v, 0);
      const last = coarse.values.at(-1)!;
      if (last > 0) worst = Math.max(worst, Math.abs(sum / last - 1));
      const metric = generateColumns({
        endpoint: ep("market/metcalfe_ratio"),
        asset: "btc",
        timeframe: "1d",
        startMs: nowMs - 5 * DAY_MS,
        endMs: nowMs,
        nowMs,
      });
      if (metric.times.at(-1)! >= Math.floor(clock / DAY_MS) * DAY_MS) bad++;
    }
    for (const minute of sample(fc.integer({ min: (REF - 100) * 1440, max: (REF + 300) * 1440 }), 6, 7)) {
      const nowMs = minute * 60_000 + 42_000;
      const h = generateHeatmap({ asset: "btc", timeframe: "4h", lookback: "30d", scope: "all", nowMs });
      const rel = Math.abs(h.df.at(-1)!.close / priceAt("btc", minute * 60_000) - 1);
      if (rel > 1e-5) bad++;
    }
    return {
      ok: bad === 0 && worst < 1e-9,
      checked: `${cases.length} random (asset, now, timeframe) and 6 heatmaps`,
      worst: `${bad} violations; partial bucket vs its minutes ${fmt(worst)}`,
    };
  },
};
