// Invariants of the market readings: whole trade counts, candles that nest at every timeframe,
// venues that trade only when open, pegs that hold.
import fc from "fast-check";

import { candleColumns } from "../../src/backend/inprocess/readings/candles.js";
import { generateColumns } from "../../src/backend/inprocess/readings/index.js";
import { dailyPrice } from "../../src/backend/inprocess/world/market/price.js";
import { cmeSessionOpen } from "../../src/backend/inprocess/world/trading-hours.js";
import { DAY_MS, SET_A, type Timeframe, TIMEFRAME_MS, VENUES } from "../../src/catalog/index.js";
import { type Check, ep, fmt, iso, NOW, REF, sample } from "./common.js";

const TFS: readonly Timeframe[] = ["1m", "5m", "15m", "30m", "1h", "4h", "6h", "12h", "1d"];

export const wholeCounts: Check = {
  id: "whole-counts",
  group: "invariant",
  claim: "trade counts are whole numbers at every timeframe, with and without venue, market-type and symbol filters",
  run() {
    const cases = sample(
      fc.record({
        asset: fc.constantFrom(...SET_A),
        id: fc.constantFrom("derivatives/Buy_trades", "spot/Trades"),
        tf: fc.constantFrom(...TFS),
        day: fc.integer({ min: REF - 1500, max: REF }),
        venue: fc.option(fc.constantFrom("binance", "okx", "coinbase", "cme", "bybit"), { nil: undefined }),
      }),
      120,
      3,
    );
    let points = 0;
    let bad = 0;
    for (const c of cases) {
      const span = Math.min(2 * DAY_MS, 300 * TIMEFRAME_MS[c.tf]);
      const { values } = generateColumns({
        endpoint: ep(c.id),
        asset: c.asset,
        timeframe: c.tf,
        startMs: c.day * DAY_MS,
        endMs: c.day * DAY_MS + span,
        ...(c.venue && { exchange: c.venue }),
      });
      for (const v of values) {
        points++;
        if (!Number.isInteger(v) || v < 0) bad++;
      }
    }
    return { ok: bad === 0, checked: `${cases.length} random series, ${points} buckets`, worst: `${bad} non-integer or negative` };
  },
};

export const candlesNest: Check = {
  id: "candles-nest",
  group: "invariant",
  claim: "candles nest exactly at every timeframe down to 1m: a coarse candle's OHLC is its fine candles' (open, max high, min low, close)",
  run() {
    const cases = sample(
      fc.tuple(fc.constantFrom(...SET_A), fc.integer({ min: REF - 2000, max: REF + 300 }), fc.constantFrom(...TFS.slice(1))),
      60,
      4,
    );
    let worst = 0;
    let where = "";
    let n = 0;
    for (const [a, d, tf] of cases) {
      const step = TIMEFRAME_MS[tf];
      const start = d * DAY_MS;
      const coarse = candleColumns(a, step, start, start, NOW);
      if (coarse.times.length === 0) continue;
      const fine = candleColumns(a, 60_000, start, start + step - 60_000, NOW);
      const high = Math.max(...fine.high);
      const low = Math.min(...fine.low);
      const devs = [coarse.open[0]! / fine.open[0]!, coarse.close[0]! / fine.close.at(-1)!, coarse.high[0]! / high, coarse.low[0]! / low];
      for (const r of devs) if (Math.abs(r - 1) > worst) [worst, where] = [Math.abs(r - 1), `${a} ${tf} ${iso(d)}`];
      n++;
    }
    return {
      ok: worst === 0,
      checked: `${n} candles (5m–1d) against their 1m candles`,
      worst: `${fmt(worst)} relative${where && ` (${where})`}`,
    };
  },
};

export const venueHours: Check = {
  id: "venue-hours",
  group: "invariant",
  claim:
    "CME trades only in its session (none on weekends, in the daily halt, on Christmas or New Year); spot-only venues have no derivatives volume",
  run() {
    const volume = ep("derivatives/Volume_usd");
    let closedVolume = 0;
    let closedHours = 0;
    let openHours = 0;
    for (const day of sample(fc.integer({ min: REF - 700, max: REF }), 30, 5).concat([
      Math.round(Date.parse("2025-12-25") / DAY_MS),
      Math.round(Date.parse("2026-01-01") / DAY_MS),
    ])) {
      const { times, values } = generateColumns({
        endpoint: volume,
        asset: "btc",
        timeframe: "1h",
        startMs: day * DAY_MS,
        endMs: day * DAY_MS + 23 * 3_600_000,
        exchange: "cme",
      });
      times.forEach((t, i) => {
        if (cmeSessionOpen(t)) openHours += values[i]! > 0 ? 1 : 0;
        else {
          closedHours++;
          closedVolume += values[i]!;
        }
      });
    }
    let spotOnly = 0;
    for (const venue of ["bitstamp", "upbit", "bithumb", "bitso"] as const) {
      if (!VENUES.includes(venue)) continue;
      for (const mt of ["swap", "future"] as const) {
        spotOnly += generateColumns({
          endpoint: volume,
          asset: "btc",
          timeframe: "1d",
          startMs: (REF - 30) * DAY_MS,
          endMs: REF * DAY_MS,
          exchange: venue,
          marketType: mt,
        }).values.reduce((s, v) => s + v, 0);
      }
    }
    return {
      ok: closedVolume === 0 && spotOnly === 0 && openHours > 0,
      checked: `${closedHours} closed and ${openHours} open CME hours; 4 spot-only venues × 30 days`,
      worst: `$${fmt(closedVolume)} while closed; $${fmt(spotOnly)} of spot-only derivatives`,
    };
  },
};

export const pegs: Check = {
  id: "pegs",
  group: "invariant",
  claim:
    "USD stablecoins stay within 1 % of $1 outside their known depegs; PAXG and XAUT (one ounce of gold each) within 1 % of each other",
  run() {
    let worstUsd = 0;
    let worstGold = 0;
    let n = 0;
    const inDepeg = (a: string, d: number) => DEPEG_DAYS.some(([b, from, to]) => a.startsWith(b) && d >= from && d <= to);
    for (let d = Math.round(Date.parse("2020-02-01") / DAY_MS); d <= REF + 300; d += 2) {
      for (const a of ["usdt", "usdc", "dai", "usdt_eth", "fdusd", "susd"])
        if (!inDepeg(a, d)) worstUsd = Math.max(worstUsd, Math.abs(dailyPrice(a, d) - 1));
      worstGold = Math.max(worstGold, Math.abs(Math.log(dailyPrice("paxg", d) / dailyPrice("xaut", d))));
      n++;
    }
    return {
      ok: worstUsd <= 0.01 && worstGold <= 0.01,
      checked: `${n} days from 2020-02 to 2026-10`,
      worst: `USD peg ${fmt(worstUsd)}; PAXG/XAUT ${fmt(worstGold)}`,
    };
  },
};

const day = (iso: string) => Math.round(Date.parse(iso) / DAY_MS);

/** Days of the depegs the market had (a day either side of the lows): [ticker prefix, first, last]. */
const DEPEG_DAYS: ReadonlyArray<readonly [string, number, number]> = [
  ["usdc", day("2023-03-10"), day("2023-03-13")],
  ["dai", day("2023-03-10"), day("2023-03-13")],
  ["usdt", day("2022-05-11"), day("2022-05-13")],
  ["fdusd", day("2025-04-01"), day("2025-04-03")],
  ["susd", day("2025-03-20"), day("2025-11-30")],
  // DAI's Black Thursday premium: over 1 % until mid-April 2020, within 0.3 % by late May.
  ["dai", day("2020-03-12"), day("2020-05-27")],
];

export const depegs: Check = {
  id: "depegs",
  group: "calibration",
  claim:
    "known stablecoin depegs are in the path with their real depth and recovery: USDC low 0.86–0.89 on 2023-03-11 and back within 0.5 % of $1 by the 2023-03-13 close (DAI low 0.88–0.92), USDT low 0.94–0.96 on 2022-05-12 and 0.92–0.93 on 2018-10-15, DAI's Black Thursday high 1.08–1.12 on 2020-03-13, FDUSD low 0.86–0.89 on 2025-04-02, sUSD low 0.63–0.68 on 2025-04-18 and off its peg for months after; the hours and minutes of each day hold its low",
  run() {
    const rows: Array<[string, string, number, number, number]> = [];
    const low = (a: string, iso: string, lo: number, hi: number) => {
      const start = Date.parse(iso);
      const d = candleColumns(a, DAY_MS, start, start, NOW);
      const hours = candleColumns(a, 3_600_000, start, start + DAY_MS - 1, NOW);
      const minutes = candleColumns(a, 60_000, start, start + DAY_MS - 1, NOW);
      const v = d.low[0]!;
      // The day's low is its hours' lowest and its minutes' lowest: the depeg is inside the day's candles.
      const nested = Math.min(...hours.low) === v && Math.min(...minutes.low) === v;
      rows.push([`${a} low ${iso}`, nested ? "" : " (not its hours' and minutes' low)", lo, hi, nested ? v : NaN]);
    };
    low("usdc", "2023-03-11", 0.86, 0.89);
    low("usdc_trx", "2023-03-11", 0.86, 0.89);
    low("dai", "2023-03-11", 0.88, 0.92);
    low("usdt", "2022-05-12", 0.94, 0.96);
    low("usdt", "2018-10-15", 0.92, 0.93);
    low("fdusd", "2025-04-02", 0.86, 0.89);
    low("susd", "2025-04-18", 0.63, 0.68);
    const daiHigh = candleColumns("dai", DAY_MS, Date.parse("2020-03-13"), Date.parse("2020-03-13"), NOW).high[0]!;
    rows.push(["dai high 2020-03-13", "", 1.08, 1.12, daiHigh]);
    const close = dailyPrice("usdc", day("2023-03-13"));
    rows.push(["usdc close 2023-03-13", "", 0.995, 1.005, close]);
    const before = dailyPrice("usdc", day("2023-03-09"));
    rows.push(["usdc close 2023-03-09", "", 0.995, 1.005, before]);
    // sUSD's depeg lasted months (0.7-0.95 from April to June, the anchors' record), back by the end of 2025.
    rows.push(["susd close 2025-05-15", "", 0.7, 0.95, dailyPrice("susd", day("2025-05-15"))]);
    rows.push(["susd close 2025-12-28", "", 0.99, 1.01, dailyPrice("susd", day("2025-12-28"))]);
    const bad = rows.filter(([, , lo, hi, v]) => !(v >= lo && v <= hi));
    const show = ([what, note, , , v]: (typeof rows)[number]) => `${what} ${fmt(v, 4)}${note}`;
    return {
      ok: bad.length === 0,
      checked: `${rows.length} readings of 7 depegs`,
      worst: bad.length ? `outside bounds: ${bad.map(show).join(", ")}` : rows.map(show).join(", "),
    };
  },
};

export const holidayVolume: Check = {
  id: "holiday-volume",
  group: "invariant",
  claim:
    "Christmas Day trades less: never the busiest hour of BTC volume in its week (22-28 December), and among the week's three quietest days in at least 6 of 8 years (2018-2025)",
  run() {
    const endpoint = ep("derivatives/Volume_usd");
    let busiest = 0;
    let quiet = 0;
    const ranks: string[] = [];
    for (let y = 2018; y <= 2025; y++) {
      const { times, values: v } = generateColumns({
        endpoint,
        asset: "btc",
        timeframe: "1h",
        startMs: Date.UTC(y, 11, 22),
        endMs: Date.UTC(y, 11, 28, 23),
      });
      let top = 0;
      let at = 0;
      const days = new Map<number, number>();
      v.forEach((x, i) => {
        if (x > top) [top, at] = [x, times[i]!];
        const d = new Date(times[i]!).getUTCDate();
        days.set(d, (days.get(d) ?? 0) + x);
      });
      if (new Date(at).getUTCDate() === 25) busiest++;
      const rank = [...days.values()].sort((a, b) => a - b).indexOf(days.get(25)!) + 1;
      if (rank <= 3) quiet++;
      ranks.push(`${y}: ${rank}`);
    }
    return {
      ok: busiest === 0 && quiet >= 6,
      checked: "8 Christmas weeks of BTC hourly volume",
      worst: `${busiest} with the busiest hour on the 25th; Christmas Day's rank by volume (1 = quietest): ${ranks.join(", ")}`,
    };
  },
};
