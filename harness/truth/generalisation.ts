// The embedded market against dated real-world facts it was not calibrated on (facts.ts): each
// served reading against its kind's tolerance, by kind (printed by `npm run truth`).
import { exchangeReserve } from "../../src/backend/inprocess/readings/onchain.js";
import { supplyOf } from "../../src/backend/inprocess/world/circulation.js";
import { dayOf } from "../../src/backend/inprocess/world/levels.js";
import { candle, dailyPrice, priceAt } from "../../src/backend/inprocess/world/market/price.js";
import { DAY_MS } from "../../src/catalog/index.js";
import { fmt, values } from "./common.js";
import { ALL_FACTS, type Fact, FACT_CLASS, type FactKind, OPEN_FACTS } from "./facts.js";

/** Largest ratio (either way) that counts as within tolerance, per kind. */
export const TOLERANCE: Record<FactKind, number> = {
  // Daily closes and extremes: a quarter either way (venues differ by a few percent, and the path between anchors is a simulation).
  close: 1.25,
  // A price at a minute: the close's tolerance.
  minute: 1.25,
  low: 1.25,
  high: 1.25,
  // A day's mean fee swings by 2x from one day to the next with the mempool.
  fee: 2,
  difficulty: 1.1,
  hashprice: 1.3,
  supply: 1.1,
  // A venue's wallets as one analytics firm labels them: firms differ by a tenth or more.
  reserve: 1.25,
  // A window's net flow is the small difference of two large totals, and firms label different wallets.
  flow: 2,
};

/** Share of the facts that must be within tolerance, and the ratio none may pass. */
export const FACT_TARGET = 0.95;
export const FACT_LIMIT = 3;

const METRIC: Partial<Record<FactKind, string>> = {
  fee: "fees/fee_price_usd",
  difficulty: "mining/DiffLast",
  hashprice: "mining/RevHashRateUSD",
};

/** The served reading a fact compares with. */
export function served([kind, asset, date, , , scope]: Fact): number {
  const day = dayOf(date);
  const entity = scope?.entity ?? "all";
  switch (kind) {
    case "reserve":
      return exchangeReserve(asset, day, entity);
    case "flow":
      return exchangeReserve(asset, day, entity) - exchangeReserve(asset, dayOf(scope?.from ?? date), entity);
    case "close":
      return dailyPrice(asset, day);
    case "minute": {
      const [h, m] = (scope?.at ?? "00:00").split(":").map(Number);
      return priceAt(asset, day * DAY_MS + (h! * 60 + m!) * 60_000);
    }
    case "low":
      return candle(asset, day * DAY_MS, (day + 1) * DAY_MS).low;
    case "high":
      return candle(asset, day * DAY_MS, (day + 1) * DAY_MS).high;
    case "supply":
      return supplyOf(asset, day);
    default:
      return values(METRIC[kind]!, asset, day, day).values[0] ?? NaN;
  }
}

/** How far a served/published ratio is off, either way; a ratio of the wrong sign (a flow the wrong way) is off without bound. */
function offBy(r: number): number {
  return Number.isFinite(r) && r > 0 ? Math.max(r, 1 / r) : Infinity;
}

export interface KindRow {
  /** The class of the kind (FACT_CLASS), then the kind. */
  class: string;
  kind: FactKind;
  facts: number;
  within: number;
  median: number;
  worst: number;
  worstWhere: string;
}

/** The open facts (OPEN_FACTS), each as served against published, outside the score. */
export function openFacts(): string[] {
  return OPEN_FACTS.map((fact) => {
    const [kind, asset, date, value] = fact;
    const r = served(fact) / value;
    const scope = fact[5]?.from ? ` from ${fact[5].from}` : "";
    return `${kind} ${asset}${scope} ${date}: ${fmt(served(fact), 4)} vs ${fmt(value, 4)} (${r > 0 ? `${fmt(r, 3)}x` : "the wrong way"})`;
  });
}

/** Each fact's ratio served/published, and the table by kind. */
export function scoreFacts(): { rows: KindRow[]; within: number; beyond: number; total: number; misses: string[] } {
  const byKind = new Map<FactKind, Array<{ r: number; where: string }>>();
  const misses: string[] = [];
  let within = 0;
  let beyond = 0;
  for (const fact of ALL_FACTS) {
    const [kind, asset, date, value] = fact;
    const r = served(fact) / value;
    const off = offBy(r);
    const scope = fact[5]?.entity ? `@${fact[5].entity}` : fact[5]?.from ? ` from ${fact[5].from}` : "";
    const at = fact[5]?.at ? ` ${fact[5].at}` : "";
    const where = `${kind} ${asset}${scope} ${date}${at}: ${fmt(served(fact), 4)} vs ${fmt(value, 4)}`;
    if (off <= TOLERANCE[kind]) within++;
    else misses.push(`${where} (${fmt(r, 3)}x)`);
    if (off > FACT_LIMIT) beyond++;
    byKind.set(kind, [...(byKind.get(kind) ?? []), { r, where }]);
  }
  const rows = [...byKind].map(([kind, list]): KindRow => {
    const ratios = list.map((x) => x.r).sort((a, b) => a - b);
    const worstOne = list.reduce((w, x) => (offBy(x.r) > offBy(w.r) ? x : w));
    return {
      class: FACT_CLASS[kind],
      kind,
      facts: list.length,
      within: list.filter((x) => offBy(x.r) <= TOLERANCE[kind]).length,
      median: ratios[ratios.length >> 1]!,
      worst: worstOne.r,
      worstWhere: worstOne.where,
    };
  });
  rows.sort((a, b) => a.class.localeCompare(b.class));
  return { rows, within, beyond, total: ALL_FACTS.length, misses };
}
