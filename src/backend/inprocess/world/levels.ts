// Well-known historical levels that pin the synthetic world to reality where anchors.json holds no
// figure (gold, EUR, ETH's proof-of-work difficulty, exchange reserves outside the published totals,
// supplies, BTC's issuance); between them the paths are log-linear plus bridged noise. Prices live in
// anchors.json.
import { lastAtOrBefore } from "../../../catalog/dates.js";
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

/** Index of the last of ascending days at or before a day (-1 when before the first): one binary search for every reader. */
export { lastAtOrBefore } from "../../../catalog/dates.js";

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

/** Gold (USD per troy ounce), for gold-backed tokens (paxg, xaut). */
export const GOLD_PRICE = anchorTable([
  ["2016-01-01", 1061],
  ["2016-06-30", 1322],
  ["2016-12-31", 1150],
  ["2017-06-30", 1242],
  ["2017-12-31", 1303],
  ["2018-06-30", 1250],
  ["2018-09-30", 1187],
  ["2018-12-31", 1282],
  ["2019-06-30", 1409],
  ["2019-09-30", 1472],
  ["2019-12-31", 1517],
  ["2020-03-31", 1577],
  ["2020-06-30", 1781],
  ["2020-08-06", 2067],
  ["2020-09-30", 1886],
  ["2020-12-31", 1898],
  ["2021-03-31", 1708],
  ["2021-06-30", 1770],
  ["2021-09-30", 1743],
  ["2021-12-31", 1829],
  ["2022-03-31", 1937],
  ["2022-06-30", 1807],
  ["2022-09-30", 1661],
  ["2022-12-31", 1824],
  ["2023-03-31", 1969],
  ["2023-06-30", 1919],
  ["2023-09-30", 1849],
  ["2023-12-31", 2063],
  ["2024-03-31", 2230],
  ["2024-06-30", 2326],
  ["2024-09-30", 2635],
  ["2024-12-31", 2625],
  ["2025-03-31", 3122],
  ["2025-04-21", 3425],
  ["2025-06-30", 3303],
  ["2025-09-30", 3858],
  ["2025-10-20", 4356],
  ["2025-12-26", 4480],
]);

/** EUR in USD (for euro stablecoins without closes of their own). */
export const EURUSD = anchorTable([
  ["2018-01-01", 1.2],
  ["2018-12-31", 1.146],
  ["2019-12-31", 1.121],
  ["2020-12-31", 1.222],
  ["2021-12-31", 1.137],
  ["2022-09-27", 0.96],
  ["2022-12-31", 1.07],
  ["2023-12-31", 1.105],
  ["2024-12-31", 1.035],
  ["2025-06-30", 1.173],
  ["2025-11-30", 1.16],
  ["2025-12-28", 1.177],
]);

/** ETH proof-of-work difficulty, to the Merge. */
export const ETH_DIFFICULTY = anchorTable([
  ["2015-08-07", 1.2e12],
  ["2015-12-31", 1.1e13],
  ["2016-12-31", 8.5e13],
  ["2017-12-31", 2.5e15],
  ["2018-12-31", 2.2e15],
  ["2019-12-31", 2.4e15],
  ["2020-12-31", 3.9e15],
  ["2021-12-31", 1.2e16],
  ["2022-06-30", 1.25e16],
  ["2022-09-15", 1.17e16],
]);

/**
 * BTC on exchange wallets (native units) to 2022, and 2.506M at 2025-12-28: peak in 2020, about
 * −10 %/yr since. The flows after FTX's collapse are dated: withdrawals to self-custody ran at a
 * record ~106k BTC a month (Glassnode, 2022-11-13), ~177k BTC left the tracked exchanges in the week
 * to 2022-11-13 (Coinglass, as quoted by Cointelegraph), and the exchanges' reserves fell to their
 * lowest since February 2018 (CryptoQuant): about 150k BTC out between 2022-11-06 and the end of the
 * month, the bulk of it in the first week. The totals of 2024 and 2025 are published figures of one
 * firm (anchors.json "reserves"); circulation.ts joins both.
 */
export const BTC_RESERVE_POINTS: ReadonlyArray<readonly [string, number]> = [
  ["2010-07-18", 200],
  ["2011-12-31", 60000],
  ["2012-12-31", 150000],
  ["2014-12-31", 600000],
  ["2016-12-31", 1.1e6],
  ["2017-12-31", 2.0e6],
  ["2019-12-31", 2.8e6],
  ["2020-06-30", 3.2e6],
  ["2021-12-31", 3.0e6],
  ["2022-11-06", 3.1e6],
  ["2022-11-14", 2.98e6],
  ["2022-11-30", 2.95e6],
  ["2022-12-31", 2.95e6],
  ["2025-12-28", 2.506e6],
];

/** ETH on exchange wallets: 14.18M at 2025-12-20 per the public data set. */
export const ETH_RESERVE_POINTS: ReadonlyArray<readonly [string, number]> = [
  ["2015-08-07", 1e5],
  ["2016-12-31", 1.0e6],
  ["2017-12-31", 8e6],
  ["2018-12-31", 13e6],
  ["2020-06-30", 21e6],
  ["2021-12-31", 20e6],
  ["2022-12-31", 18e6],
  ["2023-12-31", 16e6],
  ["2024-12-31", 15.5e6],
  ["2025-12-20", 14.18e6],
];

/** ETH supply (native units). */
export const ETH_SUPPLY = anchorTable([
  ["2015-08-07", 72e6],
  ["2016-12-31", 86e6],
  ["2017-12-31", 97e6],
  ["2018-12-31", 104e6],
  ["2019-12-31", 109e6],
  ["2020-12-31", 114e6],
  ["2021-12-31", 119e6],
  ["2022-09-15", 120.5e6],
  ["2023-12-31", 120.2e6],
  ["2024-12-31", 120.5e6],
  ["2025-12-20", 121.3e6],
]);

/** Supply of all stablecoins together (USD). */
export const STABLES_SUPPLY = anchorTable([
  ["2014-10-06", 1e5],
  ["2016-12-31", 1e7],
  ["2017-12-31", 1.4e9],
  ["2018-12-31", 2.8e9],
  ["2019-12-31", 5e9],
  ["2020-12-31", 28e9],
  ["2021-12-31", 160e9],
  ["2022-12-31", 138e9],
  ["2023-12-31", 130e9],
  ["2024-12-31", 205e9],
  ["2025-12-28", 310e9],
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
 * The reference day: the last day the anchors pin with a published figure (BTC's close, the last of
 * the calendar's BTC closes and each asset's "ref" price in anchors.json). The synthetic levels of
 * other assets are calibrated to it; the embedded market follows real history through it, and
 * every later day is a simulated continuation.
 */
export const REF_DAY = dayOf("2025-12-28");
