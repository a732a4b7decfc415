// Where the supply was acquired: the cost distribution of the coins held on each day. Coins
// bought on day t are still held on day d with weight e^{-(d-t)/τ} (τ 900 days, the same ageing
// as the realized price), so supply in profit is the weight of past prices at or below today's
// price: all of it at an all-time high, by construction. Coins older than 155 days are the
// long-term holders. Cost buckets on a log-price grid, summed with Fenwick trees, per asset.
import { Memo } from "../util/memo.js";
import { dayOf } from "./levels.js";
import { dailyLogPrice } from "./market/price.js";
import { profileOf } from "./profiles.js";

const TAU = 900;
const LTH_AGE = 155;
const BUCKETS = 2048;
/** Prices are bucketed over the path's range from listing to this day. */
const RANGE_END = dayOf("2031-01-01");

class Fenwick {
  readonly tree = new Float64Array(BUCKETS + 1);
  add(i: number, v: number): void {
    for (let k = i + 1; k <= BUCKETS; k += k & -k) this.tree[k]! += v;
  }
  /** Sum of buckets 0..i. */
  prefix(i: number): number {
    let s = 0;
    for (let k = i + 1; k > 0; k -= k & -k) s += this.tree[k]!;
    return s;
  }
}

export class CostDistribution {
  readonly start: number;
  length = 0;
  /** Share of long-term-holder coins whose cost is at or below the day's price. */
  lthProfit = new Float64Array(0);
  /** Same for short-term holders (coins younger than 155 days). */
  sthProfit = new Float64Array(0);
  /** Cost of the coins held above the day's price, per coin of supply (USD, before calibration). */
  lossPerCoin = new Float64Array(0);
  /** Mean cost per coin (the realized price before calibration). */
  meanCost = new Float64Array(0);
  private readonly lo: number;
  private readonly width: number;
  private readonly all = new Fenwick();
  private readonly allCost = new Fenwick();
  private readonly lth = new Fenwick();
  private total = 0;
  private totalCost = 0;
  private lthTotal = 0;
  private buckets: Int32Array;
  private masses: Float64Array;

  constructor(private readonly asset: string) {
    this.start = profileOf(asset).inceptionDay;
    let lo = Infinity;
    let hi = -Infinity;
    for (let d = this.start; d <= Math.max(RANGE_END, this.start + 1); d++) {
      const v = dailyLogPrice(asset, d);
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    this.lo = lo - 1e-9;
    this.width = (hi - lo + 2e-9) / BUCKETS;
    this.buckets = new Int32Array(0);
    this.masses = new Float64Array(0);
  }

  private bucket(log: number): number {
    return Math.min(BUCKETS - 1, Math.max(0, Math.floor((log - this.lo) / this.width)));
  }

  ensure(day: number): void {
    const need = day - this.start + 1;
    if (need <= this.length) return;
    if (need > this.lthProfit.length) this.grow(Math.max(need, 2 * this.lthProfit.length, 1024));
    for (let i = this.length; i < need; i++) this.step(i);
    this.length = need;
  }

  private grow(size: number): void {
    for (const key of ["lthProfit", "sthProfit", "lossPerCoin", "meanCost"] as const) {
      const next = new Float64Array(size);
      next.set(this[key]);
      this[key] = next;
    }
    const b = new Int32Array(size);
    b.set(this.buckets);
    this.buckets = b;
    const m = new Float64Array(size);
    m.set(this.masses);
    this.masses = m;
  }

  private step(i: number): void {
    const log = dailyLogPrice(this.asset, this.start + i);
    const price = Math.exp(log);
    const b = this.bucket(log);
    // Weights grow as e^{t/τ} instead of every older weight decaying: the same ratios.
    const mass = Math.exp(i / TAU);
    this.buckets[i] = b;
    this.masses[i] = mass;
    this.all.add(b, mass);
    this.allCost.add(b, mass * price);
    this.total += mass;
    this.totalCost += mass * price;
    if (i === 0) {
      // The coins that exist at listing count as old coins bought at the first price.
      const genesis = TAU;
      this.all.add(b, genesis);
      this.allCost.add(b, genesis * price);
      this.lth.add(b, genesis);
      this.total += genesis;
      this.totalCost += genesis * price;
      this.lthTotal += genesis;
    }
    if (i >= LTH_AGE) {
      const j = i - LTH_AGE;
      this.lth.add(this.buckets[j]!, this.masses[j]!);
      this.lthTotal += this.masses[j]!;
    }
    // Costs in the day's own bucket count as at or below the price: at a new high, all of them.
    const below = this.all.prefix(b);
    const lthBelow = this.lth.prefix(b);
    this.lthProfit[i] = this.lthTotal > 0 ? lthBelow / this.lthTotal : 1;
    const sthTotal = this.total - this.lthTotal;
    this.sthProfit[i] = sthTotal > 0 ? (below - lthBelow) / sthTotal : 1;
    // At a new high every cost is at or below the price and the two sums differ only by rounding,
    // which can leave them a hair apart either way: capital in loss is never below zero.
    this.lossPerCoin[i] = Math.max(0, this.totalCost - this.allCost.prefix(b)) / this.total;
    this.meanCost[i] = this.totalCost / this.total;
  }
}

const distributions = new Memo<string, CostDistribution>(64);

/** The asset's cost distribution, covering at least `day`. */
export function costDistribution(asset: string, day: number): CostDistribution {
  const d = distributions.getOr(asset, () => new CostDistribution(asset));
  d.ensure(day);
  return d;
}
