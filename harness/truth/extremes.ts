// Intraday extremes: no candle at any timeframe above the highest price the market printed over
// its span, and days that range as the market's do.
import fc from "fast-check";

import { candleColumns } from "../../src/backend/inprocess/readings/candles.js";
import { dailyLogPrice } from "../../src/backend/inprocess/world/market/price.js";
import { DAY_MS, type Timeframe, TIMEFRAME_MS } from "../../src/catalog/index.js";
import { type Check, fmt, sample } from "./common.js";

const dayOf = (d: string) => Math.round(Date.parse(d) / DAY_MS);
/** The clock of these checks: the last day of 2025, midday. */
const CLOCK = Date.parse("2025-12-31T12:00:00Z");

/**
 * The highest prices ever printed (any large venue, USD) up to a day: [asset, up to, high]. Each
 * bounds every candle from the row before it (or the listing) through its day.
 * Sources: CoinMarketCap and CoinGecko all-time-high records (the higher of the two, a venue may
 * print a little above an aggregate).
 */
const HIGHEST: ReadonlyArray<readonly [string, string, number]> = [
  ["btc", "2021-11-10", 69_100],
  ["btc", "2024-03-04", 69_100],
  ["btc", "2024-03-14", 73_850],
  ["btc", "2024-12-17", 108_400],
  ["btc", "2025-12-31", 126_300],
  ["eth", "2021-11-10", 4_900],
  ["eth", "2025-08-21", 4_900],
  ["eth", "2025-12-31", 4_960],
  ["sol", "2021-11-06", 261],
  ["sol", "2024-11-21", 261],
  ["sol", "2025-12-31", 295],
  ["xrp", "2025-12-31", 3.85],
  ["bnb", "2021-05-10", 691],
  ["bnb", "2025-12-31", 1_375],
  ["ada", "2025-12-31", 3.11],
  ["doge", "2025-12-31", 0.74],
];

const FROM = "2020-06-01";

export const highsUnderAth: Check = {
  id: "highs-under-ath",
  group: "calibration",
  claim:
    "no candle high (1m to 1d) of BTC, ETH, SOL, XRP, BNB, ADA or DOGE above the highest price the market had printed by then (2020-06 to 2025-12)",
  run() {
    const assets = [...new Set(HIGHEST.map(([a]) => a))];
    let worst = 0;
    let where = "";
    let candles = 0;
    const bound = (asset: string, t: number) => {
      const day = Math.floor(t / DAY_MS);
      const row = HIGHEST.find(([a, until]) => a === asset && day <= dayOf(until));
      return row ? row[2] : Infinity;
    };
    const note = (asset: string, tf: string, t: number, high: number) => {
      candles++;
      const over = high / bound(asset, t) - 1;
      if (over > worst) [worst, where] = [over, `${asset} ${tf} ${new Date(t).toISOString().slice(0, 16)} high ${fmt(high, 7)}`];
    };
    // Every day, then finer candles of sampled days (the days holding the path's highest days first).
    for (const a of assets) {
      const days = candleColumns(a, DAY_MS, Date.parse(FROM), CLOCK, CLOCK);
      days.times.forEach((t, i) => note(a, "1d", t, days.high[i]!));
      const top = [...days.times.keys()]
        .sort((i, j) => days.high[j]! / bound(a, days.times[j]!) - days.high[i]! / bound(a, days.times[i]!))
        .slice(0, 3);
      const picks = top
        .map((i) => days.times[i]!)
        .concat(sample(fc.integer({ min: dayOf(FROM), max: dayOf("2025-12-30") }), 3, a.length).map((d) => d * DAY_MS));
      for (const start of picks) {
        for (const tf of ["1m", "15m", "1h", "4h"] as Timeframe[]) {
          const c = candleColumns(a, TIMEFRAME_MS[tf], start, start + DAY_MS - 1, CLOCK);
          c.times.forEach((t, i) => note(a, tf, t, c.high[i]!));
        }
      }
    }
    return {
      ok: worst === 0,
      checked: `${assets.length} assets, ${candles} candles (every day since ${FROM}; 1m–4h of 6 days each) at clock ${new Date(CLOCK).toISOString()}`,
      worst: worst === 0 ? "none above" : `${fmt(100 * worst)} % above the record (${where})`,
    };
  },
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median of (high / low − 1) over the daily candles of [from, to]. */
function medianRange(asset: string, from: string, to: string): number {
  const c = candleColumns(asset, DAY_MS, Date.parse(from), Date.parse(to), CLOCK);
  return median(Array.from(c.high, (h, i) => h / c.low[i]! - 1));
}

export const dailyRanges: Check = {
  id: "daily-ranges",
  group: "calibration",
  claim:
    "median daily high–low range in 2025: BTC 2–3 %, ETH 2.5–6 %, each large alt (SOL, XRP, DOGE, ADA, LINK) above BTC's and below 8 %, USDT and USDC 0.03–0.15 %",
  run() {
    const [from, to] = ["2025-01-01", "2025-12-30"];
    const rows: Array<[string, number, number, number]> = [
      ["btc", 0.02, 0.03, 0],
      ["eth", 0.025, 0.06, 0],
      ["usdt", 0.0003, 0.0015, 0],
      ["usdc", 0.0003, 0.0015, 0],
    ];
    for (const a of ["sol", "xrp", "doge", "ada", "link"]) rows.push([a, 0, 0.08, 0]);
    for (const r of rows) r[3] = medianRange(r[0], from, to);
    const btc = rows[0]![3];
    for (const r of rows.slice(4)) r[1] = btc;
    const bad = rows.filter(([, lo, hi, v]) => !(v >= lo && v <= hi));
    const show = ([a, , , v]: (typeof rows)[number]) => `${a} ${fmt(100 * v, 2)} %`;
    return {
      ok: bad.length === 0,
      checked: `${rows.length} assets, daily candles ${from} to ${to}`,
      worst: bad.length ? `outside bounds: ${bad.map(show).join(", ")}` : rows.map(show).join(", "),
    };
  },
};

export const dailyVolatility: Check = {
  id: "daily-volatility",
  group: "calibration",
  claim:
    "standard deviation of daily log returns 2021–2025 as the market's: BTC 2–4 %, ETH 3–5 %, BNB 3–4.5 %, XRP, SOL, DOGE, ADA 3.5–6.5 %, LEO under 2.5 %",
  run() {
    const [from, to] = [dayOf("2021-01-01"), dayOf("2025-12-28")];
    const rows: Array<[string, number, number, number]> = [
      ["btc", 0.02, 0.04, 0],
      ["eth", 0.03, 0.05, 0],
      ["bnb", 0.03, 0.045, 0],
      ["xrp", 0.035, 0.065, 0],
      ["sol", 0.035, 0.065, 0],
      ["doge", 0.035, 0.065, 0],
      ["ada", 0.035, 0.065, 0],
      ["leo", 0, 0.025, 0],
    ];
    for (const r of rows) {
      let s = 0;
      let ss = 0;
      for (let d = from + 1; d <= to; d++) {
        const x = dailyLogPrice(r[0], d) - dailyLogPrice(r[0], d - 1);
        s += x;
        ss += x * x;
      }
      const n = to - from;
      r[3] = Math.sqrt(ss / n - (s / n) ** 2);
    }
    const bad = rows.filter(([, lo, hi, v]) => !(v >= lo && v <= hi));
    const show = ([a, , , v]: (typeof rows)[number]) => `${a} ${fmt(100 * v, 2)} %`;
    return {
      ok: bad.length === 0,
      checked: `${rows.length} assets, daily 2021-01-01 to 2025-12-28`,
      worst: bad.length ? `outside bounds: ${bad.map(show).join(", ")}` : rows.map(show).join(", "),
    };
  },
};

/**
 * BTC's largest daily rise and fall of each year, close to close (CoinMarketCap daily closes), %:
 * [year, rise, fall]. The crash and rally days of the record are anchored on both closes; what this
 * bounds is every other day of the path, whose own noise must not outdo the market's year.
 */
const BTC_YEAR_EXTREMES: ReadonlyArray<readonly [number, number, number]> = [
  [2017, 24.0, -18.6],
  [2018, 13.6, -16.9],
  [2019, 16.0, -13.7],
  [2020, 18.5, -37.2],
  [2021, 18.7, -13.8],
  [2022, 14.5, -16.0],
  [2023, 10.3, -7.2],
  [2024, 10.2, -7.1],
  [2025, 9.5, -8.6],
];

/** Days the market remembers, close to close, %: [asset, day, move]. */
const REMEMBERED: ReadonlyArray<readonly [string, string, number]> = [
  ["btc", "2020-03-12", -37.2],
  ["btc", "2022-11-09", -14.4],
  ["btc", "2024-08-05", -7.1],
  ["btc", "2024-11-11", 10.2],
  ["eth", "2020-03-12", -42.4],
  ["eth", "2022-06-13", -16.4],
  ["eth", "2025-05-08", 21.8],
];

/** Close-to-close move of `asset` into `day`, %. */
const moveInto = (asset: string, day: number) => 100 * (Math.exp(dailyLogPrice(asset, day) - dailyLogPrice(asset, day - 1)) - 1);

export const dailyMoves: Check = {
  id: "daily-moves",
  group: "calibration",
  claim:
    "BTC's largest daily rise and fall of each year 2017–2025 between 0.6× and 1.25× the market's (no invented crash or rally); the remembered crash and rally days (BTC, ETH) within a fifth of their real move",
  run() {
    const bad: string[] = [];
    const shown: string[] = [];
    let worst = 1;
    for (const [year, rise, fall] of BTC_YEAR_EXTREMES) {
      let up = 0;
      let down = 0;
      for (let d = dayOf(`${year}-01-01`); d <= dayOf(`${year}-12-31`); d++) {
        const m = moveInto("btc", d);
        up = Math.max(up, m);
        down = Math.min(down, m);
      }
      for (const [got, real] of [
        [up, rise],
        [down, fall],
      ] as const) {
        const r = got / real;
        if (Math.abs(Math.log(r)) > Math.abs(Math.log(worst))) worst = r;
        if (!(r >= 0.6 && r <= 1.25)) bad.push(`${year} ${fmt(got)} % (market ${real} %)`);
      }
      shown.push(`${year} +${fmt(up, 3)}/${fmt(down, 3)}`);
    }
    for (const [asset, day, real] of REMEMBERED) {
      const got = moveInto(asset, dayOf(day));
      if (!(got / real >= 0.8 && got / real <= 1.25)) bad.push(`${asset} ${day} ${fmt(got)} % (market ${real} %)`);
    }
    return {
      ok: bad.length === 0,
      checked: `BTC daily closes 2017–2025 (${BTC_YEAR_EXTREMES.length} years), ${REMEMBERED.length} remembered days`,
      worst: bad.length ? `outside bounds: ${bad.join(", ")}` : `largest ratio to the market's ${fmt(worst)} (BTC ${shown.join(", ")})`,
    };
  },
};

export const bigDayHours: Check = {
  id: "big-day-hours",
  group: "calibration",
  claim:
    "each remembered crash and rally day (BTC, ETH) moves in swings, as the market's did: at least one hour goes against the day by 0.3 % or more, and the widest hourly range is at least 15 % of the day's move",
  run() {
    let worstAgainst = Infinity;
    let worstRatio = Infinity;
    const shown: string[] = [];
    for (const [asset, day] of REMEMBERED) {
      const start = Date.parse(`${day}T00:00:00Z`);
      const c = candleColumns(asset, TIMEFRAME_MS["1h"], start, start + DAY_MS - 1, CLOCK);
      const move = c.close.at(-1)! / c.open[0]! - 1;
      let against = 0;
      let widest = 0;
      for (let i = 0; i < c.open.length; i++) {
        const r = c.close[i]! / c.open[i]! - 1;
        if (Math.sign(r) === -Math.sign(move)) against = Math.max(against, Math.abs(r));
        widest = Math.max(widest, c.high[i]! / c.low[i]! - 1);
      }
      worstAgainst = Math.min(worstAgainst, against);
      worstRatio = Math.min(worstRatio, widest / Math.abs(move));
      shown.push(`${asset} ${day} ${fmt(100 * move)} %: widest hour ${fmt(100 * widest, 2)} %, against ${fmt(100 * against, 2)} %`);
    }
    return {
      ok: worstAgainst >= 0.003 && worstRatio >= 0.15,
      checked: `${REMEMBERED.length} remembered days, hourly candles`,
      worst: `smallest hour against the day ${fmt(100 * worstAgainst, 2)} %, smallest widest-hour / move ${fmt(worstRatio, 2)} (${shown.join("; ")})`,
    };
  },
};

/** Lowest prints of crash days (CoinMarketCap daily lows, USD): [asset, day, low]. */
const CRASH_DAY_LOWS: ReadonlyArray<readonly [string, string, number]> = [
  ["btc", "2020-03-13", 4_107],
  ["btc", "2022-06-18", 17_708],
  ["btc", "2022-11-09", 15_588],
  ["btc", "2024-08-05", 49_121],
  ["btc", "2025-10-10", 104_600],
  ["eth", "2020-03-13", 95.18],
  ["eth", "2024-08-05", 2_111],
];

export const crashLows: Check = {
  id: "crash-lows",
  group: "calibration",
  claim:
    "the lowest print of each remembered crash day (BTC, ETH) is the market's within 1 %, read from 1d, 1h and 1m candles alike, and a wick: no hourly or daily candle opens or closes within 0.2 % of it",
  run() {
    let worst = 0;
    let where = "";
    let nearest = Infinity;
    let nearestWhere = "";
    for (const [asset, day, low] of CRASH_DAY_LOWS) {
      const start = Date.parse(`${day}T00:00:00Z`);
      for (const tf of ["1d", "1h", "1m"] as Timeframe[]) {
        const c = candleColumns(asset, TIMEFRAME_MS[tf], start, start + DAY_MS - 1, CLOCK);
        const got = Math.min(...c.low);
        const off = Math.abs(got / low - 1);
        if (off > worst) [worst, where] = [off, `${asset} ${day} ${tf} low ${fmt(got, 6)} (market ${low})`];
        if (tf === "1m") continue;
        const body = Math.min(...c.open, ...c.close) / got - 1;
        if (body < nearest) [nearest, nearestWhere] = [body, `${asset} ${day} ${tf}`];
      }
    }
    return {
      ok: worst <= 0.01 && nearest >= 0.002,
      checked: `${CRASH_DAY_LOWS.length} crash days × 1d, 1h, 1m candles`,
      worst: `${where ? `${fmt(100 * worst)} % off (${where})` : "all exact"}; nearest open or close ${fmt(100 * nearest)} % above the low (${nearestWhere})`,
    };
  },
};
