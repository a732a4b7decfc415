// Well-known historical levels that pin the synthetic world to reality (year-end closes, tops,
// bottoms, difficulty, exchange reserves); between them the paths are log-linear plus bridged noise.
import { DAY_MS } from "../../../catalog/index.js";

/** Day number (days since 1970-01-01 UTC) of an ISO date. */
export function dayOf(isoDate: string): number {
  return Math.round(Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS);
}

export interface AnchorTable {
  days: Float64Array;
  /** Natural log of the anchored value. */
  logs: Float64Array;
}

export function anchorTable(points: ReadonlyArray<readonly [string, number]>): AnchorTable {
  const sorted = [...points].sort((a, b) => dayOf(a[0]) - dayOf(b[0]));
  return {
    days: Float64Array.from(sorted, ([d]) => dayOf(d)),
    logs: Float64Array.from(sorted, ([, v]) => Math.log(v)),
  };
}

/** Index of the last of ascending `days` at or before `day` (-1 when before the first). */
export function lastAtOrBefore(days: ArrayLike<number>, day: number): number {
  let lo = 0;
  let hi = days.length - 1;
  if (day < days[0]!) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (days[mid]! <= day) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Log-linear interpolation between anchors, flat outside them; plus the distance to the nearest anchor. */
export function interpolate(table: AnchorTable, day: number): { log: number; distance: number } {
  const { days, logs } = table;
  const i = lastAtOrBefore(days, day);
  if (i < 0) return { log: logs[0]!, distance: days[0]! - day };
  if (i === days.length - 1) return { log: logs[i]!, distance: day - days[i]! };
  const d0 = days[i]!;
  const d1 = days[i + 1]!;
  const f = (day - d0) / (d1 - d0);
  return { log: logs[i]! + (logs[i + 1]! - logs[i]!) * f, distance: Math.min(day - d0, d1 - day) };
}

/**
 * BTC daily closes (USD): year-end closes, plus tops and bottoms for the shape (a top is the day's
 * close: 2025-10-06 closed at ~124,750 under its intraday all-time high of ~126,080; 10-10 and
 * 10-17 are the October liquidation cascade and its low week), and both closes of each year's
 * largest daily moves, so the days the market remembers move as they did (CoinMarketCap closes):
 * 2017-07-20 +24 % (BIP 91), 2017-09-14 -19 % (China's exchange ban), 2018-01-16 -17 %, 2018-04-12
 * +14 %, 2019-06-27 -14 %, 2019-10-25 +16 %, 2020-03-12 -37 % and 03-19 +18 % (Covid crash),
 * 2021-02-08 +19 % (Tesla), 2021-05-12 and 05-19 -13 % / -14 % (Tesla, China), 2022-02-28 +15 %, 2022-06-13 -16 %
 * (Celsius), 2022-11-08 and 11-09 -10 % / -14 % (FTX), 2023-03-13 +9 % (SVB backstop), 2023-10-23
 * +10 %, 2020-04-29 +13 % and 2024-02-28 +9.5 % (rallies that filled the mempool), 2024-08-05 -7 % (yen carry unwind), 2024-11-11 +10 %, 2025-03-02 +10 % and 03-03 -9 % (the
 * strategic reserve announcement and its reversal), 2025-04-09 +8 % (tariff pause),
 * 2025-10-10 -7 %.
 */
export const BTC_PRICE = anchorTable([
  ["2010-07-18", 0.05], ["2010-11-06", 0.39], ["2010-12-31", 0.3], ["2011-02-10", 1.05],
  ["2011-06-08", 29.6], ["2011-11-18", 2.05], ["2011-12-31", 4.7], ["2012-08-16", 13.5],
  ["2012-12-31", 13.45], ["2013-04-09", 230], ["2013-07-05", 68.5], ["2013-11-30", 1130],
  ["2013-12-31", 754], ["2014-06-03", 670], ["2014-12-31", 320], ["2015-01-14", 178],
  ["2015-07-12", 310], ["2015-12-31", 430], ["2016-06-17", 760], ["2016-08-02", 547],
  ["2016-12-31", 964], ["2017-06-11", 2960], ["2017-07-16", 1930], ["2017-07-19", 2273], ["2017-07-20", 2818],
  ["2017-09-13", 3875], ["2017-09-14", 3155], ["2017-12-17", 19140],
  ["2017-12-31", 13860], ["2018-01-15", 13820], ["2018-01-16", 11490], ["2018-02-06", 6950],
  ["2018-04-11", 6946], ["2018-04-12", 7889], ["2018-05-05", 9840], ["2018-11-25", 3880],
  ["2018-12-15", 3230], ["2018-12-31", 3740], ["2019-06-26", 12930], ["2019-06-27", 11160],
  ["2019-10-24", 7467], ["2019-10-25", 8661], ["2019-12-17", 6640],
  ["2019-12-31", 7190], ["2020-03-11", 7911], ["2020-03-12", 4970], ["2020-03-13", 5563],
  ["2020-03-18", 5226], ["2020-03-19", 6191], ["2020-04-28", 7769], ["2020-04-29", 8801], ["2020-08-17", 12250], ["2020-12-31", 29000],
  ["2021-02-07", 38903], ["2021-02-08", 46196], ["2021-04-13", 63500], ["2021-05-11", 56705],
  ["2021-05-12", 49150], ["2021-05-18", 42909], ["2021-05-19", 37002],
  ["2021-07-20", 29800], ["2021-11-08", 67550], ["2021-12-31", 46300],
  ["2022-02-27", 37712], ["2022-06-12", 26762], ["2022-06-13", 22487], ["2022-06-18", 19017], ["2022-11-07", 20602],
  ["2022-11-08", 18542], ["2022-11-09", 15880], ["2022-11-21", 15790], ["2022-12-31", 16550],
  ["2023-03-12", 22163], ["2023-03-13", 24197], ["2023-07-13", 31450], ["2023-10-22", 29993],
  ["2023-10-23", 33087], ["2023-12-31", 42300], ["2024-02-27", 57085], ["2024-02-28", 62504], ["2024-03-13", 73080], ["2024-08-04", 58116],
  ["2024-08-05", 54020], ["2024-11-05", 69400], ["2024-11-10", 80474], ["2024-11-11", 88700], ["2024-12-17", 106100],
  ["2024-12-31", 93400], ["2025-01-21", 106150], ["2025-03-01", 86031], ["2025-03-02", 94248],
  ["2025-03-03", 86124], ["2025-04-08", 76320], ["2025-04-09", 82600], ["2025-05-22", 111700],
  ["2025-08-13", 123350], ["2025-10-06", 124750], ["2025-10-09", 121700], ["2025-10-10", 113200], ["2025-10-17", 106450],
  ["2025-11-21", 84600], ["2025-12-28", 87747.65],
]);

/**
 * ETH daily closes (USD), with both closes of its largest daily moves: 2020-03-12 -42 %, 2022-06-13
 * -16 %, 2024-08-05 -10 %, 2025-02-02 -13 %, 2025-04-09 +13 %, 2025-05-08 +22 % (Pectra).
 */
export const ETH_PRICE = anchorTable([
  ["2015-08-07", 2.77], ["2015-10-21", 0.42], ["2015-12-31", 0.93], ["2016-03-13", 15.1],
  ["2016-06-17", 20.8], ["2016-12-31", 8], ["2017-06-12", 401], ["2017-07-16", 155],
  ["2017-12-31", 757], ["2018-01-13", 1396], ["2018-12-15", 84], ["2018-12-31", 133],
  ["2019-06-26", 336], ["2019-12-31", 130], ["2020-03-11", 194.9], ["2020-03-12", 112.3], ["2020-12-31", 737],
  ["2021-05-11", 4170], ["2021-07-20", 1790], ["2021-11-09", 4810], ["2021-12-31", 3680],
  ["2022-06-12", 1447], ["2022-06-13", 1209], ["2022-06-18", 1000], ["2022-09-15", 1470], ["2022-12-31", 1196], ["2023-04-15", 2110],
  ["2023-12-31", 2282], ["2024-03-12", 4065], ["2024-08-04", 2688], ["2024-08-05", 2420], ["2024-12-31", 3332],
  ["2025-02-01", 3298], ["2025-02-02", 2869], ["2025-04-08", 1470], ["2025-04-09", 1668], ["2025-05-07", 1812], ["2025-05-08", 2207], ["2025-08-24", 4830], ["2025-11-21", 2760], ["2025-12-20", 2975.46],
]);

/** Gold (USD per troy ounce), for gold-backed tokens (paxg, xaut). */
export const GOLD_PRICE = anchorTable([
  ["2016-01-01", 1061], ["2016-06-30", 1322], ["2016-12-31", 1150], ["2017-06-30", 1242], ["2017-12-31", 1303],
  ["2018-06-30", 1250], ["2018-09-30", 1187], ["2018-12-31", 1282], ["2019-06-30", 1409], ["2019-09-30", 1472],
  ["2019-12-31", 1517], ["2020-03-31", 1577], ["2020-06-30", 1781], ["2020-08-06", 2067], ["2020-09-30", 1886],
  ["2020-12-31", 1898], ["2021-03-31", 1708], ["2021-06-30", 1770], ["2021-09-30", 1743], ["2021-12-31", 1829],
  ["2022-03-31", 1937], ["2022-06-30", 1807], ["2022-09-30", 1661], ["2022-12-31", 1824], ["2023-03-31", 1969],
  ["2023-06-30", 1919], ["2023-09-30", 1849], ["2023-12-31", 2063], ["2024-03-31", 2230], ["2024-06-30", 2326],
  ["2024-09-30", 2635], ["2024-12-31", 2625], ["2025-03-31", 3122], ["2025-04-21", 3425], ["2025-06-30", 3303],
  ["2025-09-30", 3858], ["2025-10-20", 4356], ["2025-12-26", 4480],
]);

/** EUR in USD (for euro stablecoins without closes of their own). */
export const EURUSD = anchorTable([
  ["2018-01-01", 1.2], ["2018-12-31", 1.146], ["2019-12-31", 1.121], ["2020-12-31", 1.222], ["2021-12-31", 1.137],
  ["2022-09-27", 0.96], ["2022-12-31", 1.07], ["2023-12-31", 1.105], ["2024-12-31", 1.035], ["2025-06-30", 1.173],
  ["2025-11-30", 1.16], ["2025-12-28", 1.177],
]);

/** ETH proof-of-work difficulty, to the Merge. */
export const ETH_DIFFICULTY = anchorTable([
  ["2015-08-07", 1.2e12], ["2015-12-31", 1.1e13], ["2016-12-31", 8.5e13], ["2017-12-31", 2.5e15],
  ["2018-12-31", 2.2e15], ["2019-12-31", 2.4e15], ["2020-12-31", 3.9e15], ["2021-12-31", 1.2e16],
  ["2022-06-30", 1.25e16], ["2022-09-15", 1.17e16],
]);

/** BTC on exchange wallets (native units): peak in 2020, about −10 %/yr since, 2.506M at 2025-12-28. */
export const BTC_RESERVE = anchorTable([
  ["2010-07-18", 200], ["2011-12-31", 60000], ["2012-12-31", 150000], ["2014-12-31", 600000],
  ["2016-12-31", 1.1e6], ["2017-12-31", 2.0e6], ["2019-12-31", 2.8e6], ["2020-06-30", 3.2e6],
  ["2021-12-31", 3.0e6], ["2022-12-31", 2.95e6], ["2023-12-31", 2.85e6], ["2024-12-31", 2.8e6],
  ["2025-12-28", 2.506e6],
]);

/** ETH on exchange wallets: 14.18M at 2025-12-20 per the public data set. */
export const ETH_RESERVE = anchorTable([
  ["2015-08-07", 1e5], ["2016-12-31", 1.0e6], ["2017-12-31", 8e6], ["2018-12-31", 13e6],
  ["2020-06-30", 21e6], ["2021-12-31", 20e6], ["2022-12-31", 18e6], ["2023-12-31", 16e6],
  ["2024-12-31", 15.5e6], ["2025-12-20", 14.18e6],
]);

/** ETH supply (native units). */
export const ETH_SUPPLY = anchorTable([
  ["2015-08-07", 72e6], ["2016-12-31", 86e6], ["2017-12-31", 97e6], ["2018-12-31", 104e6],
  ["2019-12-31", 109e6], ["2020-12-31", 114e6], ["2021-12-31", 119e6], ["2022-09-15", 120.5e6],
  ["2023-12-31", 120.2e6], ["2024-12-31", 120.5e6], ["2025-12-20", 121.3e6],
]);

/** Supply of all stablecoins together (USD). */
export const STABLES_SUPPLY = anchorTable([
  ["2014-10-06", 1e5], ["2016-12-31", 1e7], ["2017-12-31", 1.4e9], ["2018-12-31", 2.8e9],
  ["2019-12-31", 5e9], ["2020-12-31", 28e9], ["2021-12-31", 160e9], ["2022-12-31", 138e9],
  ["2023-12-31", 130e9], ["2024-12-31", 205e9], ["2025-12-28", 310e9],
]);

/** BTC halvings: [day, supply at that day, subsidy after it]. */
const HALVINGS: ReadonlyArray<readonly [number, number, number]> = [
  [dayOf("2009-01-03"), 0, 50],
  [dayOf("2012-11-28"), 10.5e6, 25],
  [dayOf("2016-07-09"), 15.75e6, 12.5],
  [dayOf("2020-05-11"), 18.375e6, 6.25],
  [dayOf("2024-04-20"), 19.6875e6, 3.125],
  [dayOf("2028-04-15"), 20.34375e6, 1.5625],
  [dayOf("2032-04-10"), 20.671875e6, 0.78125],
];

/** BTC block subsidy on a day. */
export function btcSubsidy(day: number): number {
  let subsidy = 50;
  for (const [d, , s] of HALVINGS) if (day >= d) subsidy = s;
  return subsidy;
}

/** BTC supply at the end of a day: linear between halvings (about 145 blocks a day in practice). */
export function btcSupply(day: number): number {
  for (let i = HALVINGS.length - 1; i >= 0; i--) {
    // Indexed, not destructured: this runs for every day a chain state steps, mostly before V8
    // optimizes it, where destructuring allocates an iterator per row.
    const row = HALVINGS[i]!;
    const d = row[0];
    if (day < d) continue;
    const supply = row[1];
    const subsidy = row[2];
    const next = HALVINGS[i + 1];
    const blocksPerDay = next ? (next[1] - supply) / subsidy / (next[0] - d) : 145;
    return Math.min(21e6, supply + (day - d + 1) * blocksPerDay * subsidy);
  }
  return 0;
}

export const BTC_INCEPTION_DAY = dayOf("2010-07-18");
export const MERGE_DAY = dayOf("2022-09-15");
/**
 * The reference day: the last day the anchors pin with a published figure (BTC's close). The
 * synthetic levels of other assets are calibrated to it; the embedded market follows real history
 * through it, and every later day is a simulated continuation.
 */
export const REF_DAY = BTC_PRICE.days[BTC_PRICE.days.length - 1]!;
