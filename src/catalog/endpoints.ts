// The 29 endpoints of the service (spec v0.3.0). Everything else — routes, enums, tool
// descriptions, manifest.json, the README table — derives from this list.
import type { AssetSetId } from "./assets.js";
import { MEANINGS } from "./definitions.js";
import type { ParamName } from "./params.js";

export type EndpointKind = "ohlcv" | "series" | "variation" | "heatmap";

/**
 * What a series' values are, which decides the statistics that mean something for it:
 * - `level`: a positive stock or price (supply, reserve, price, difficulty): % change and drawdown apply;
 * - `flow`: an amount per bucket, ≥ 0 (volume, trades, coin-days destroyed): sums and averages, no drawdown;
 * - `signed`: a quantity that crosses zero (net flows, impulses): net change in units, never a %;
 * - `cumulative`: a running total of a signed flow: the net change over the range is the flow summed;
 * - `ratio`: a dimensionless ratio (MVRV, Metcalfe): change in points;
 * - `count`: an integer stock (address counts): % change applies, values are whole numbers.
 */
export type SeriesNature = "level" | "flow" | "signed" | "cumulative" | "ratio" | "count";

export interface Endpoint {
  /** The path after the asset, exactly as the spec writes it; `liquidation_levels/heatmap` for the heatmap. */
  id: string;
  kind: EndpointKind;
  /** First path segment after the asset (derivatives, market, …). */
  group: string;
  /** Second path segment, case-sensitive. */
  segment: string;
  /** Record field besides `time` (series and OHLCV only; "" otherwise). */
  field: string;
  assetSet: AssetSetId;
  /** Query parameters besides the asset. */
  params: readonly ParamName[];
  /** The spec's one-line purpose. */
  purpose: string;
  unit: string;
  /** Additive over time buckets and venues (sums across timeframes agree). */
  additive: boolean;
  /** What the values are (series and OHLCV; `level` for the others). */
  nature: SeriesNature;
  /** How to read a value, where unit and purpose leave it open (definitions.ts). */
  meaning?: string;
  /** The endpoint a key restricted to some metrics must hold to call this one, when not itself. */
  gate?: string;
}

const DATES = ["startDate", "endDate"] as const satisfies readonly ParamName[];
const OHLCV = [...DATES, "timeframe", "exchange", "symbol", "market_type"] as const satisfies readonly ParamName[];
const ENTITY = [...DATES, "entity_name"] as const satisfies readonly ParamName[];

/** Response field as the service names it: the segment with its first letter lowercased. */
export function fieldOf(segment: string): string {
  return segment.charAt(0).toLowerCase() + segment.slice(1);
}

type Row<Id extends string> = [id: Id, assetSet: AssetSetId, unit: string, nature: SeriesNature, purpose: string];

/** An endpoint whose id and kind the compiler knows: tables keyed by endpoint id are checked against the list. */
type Listed<Id extends string, Kind extends EndpointKind> = Endpoint & { readonly id: Id; readonly kind: Kind };

function ohlcv<const Id extends string>(id: Id, unit: string, purpose: string, params: readonly ParamName[] = OHLCV): Listed<Id, "ohlcv"> {
  const [group, segment] = id.split("/") as [string, string];
  return {
    id,
    kind: "ohlcv",
    group,
    segment,
    field: fieldOf(segment),
    assetSet: "A",
    params,
    purpose,
    unit,
    additive: true,
    nature: "flow",
  };
}

function series<const Id extends string>(
  [id, assetSet, unit, nature, purpose]: Row<Id>,
  params: readonly ParamName[] = DATES,
): Listed<Id, "series"> {
  const [group, segment] = id.split("/") as [string, string];
  return { id, kind: "series", group, segment, field: fieldOf(segment), assetSet, params, purpose, unit, additive: false, nature };
}

const LISTED = [
  ohlcv("derivatives/Volume_usd", "USD", "total trading volume in USD of perpetual derivatives per bucket"),
  ohlcv("derivatives/Buy_trades", "trades", "count of buy trades of perpetual derivatives per bucket"),
  ohlcv("spot/Trades", "trades", "trade count on spot markets per bucket", ["startDate", "endDate", "timeframe", "exchange", "symbol"]),
  series(["market/metcalfe_ratio", "M1", "ratio", "ratio", "Metcalfe ratio: network value relative to active-address count"]),
  series(["addresses/addresses_count_range_gt_10M_USD", "M2", "addresses", "count", "count of addresses holding more than $10M"]),
  series([
    "market/Realized_cap_impulse_long_term",
    "M2_LEO",
    "log change (365 d)",
    "signed",
    "long-term realized-cap impulse: capital inflow and outflow through realized cap",
  ]),
  series([
    "addresses_supply/balance_range_0_001_0_01",
    "M2",
    "native units",
    "level",
    "supply held by addresses with 0.001–0.01 native units",
  ]),
  series(["exchange_flow/exchange_reserve", "X1", "native units", "level", "native units held on exchange wallets"], ENTITY),
  series(["addresses_supply/SplyAdrBalNtv100K", "M2", "native units", "level", "supply held by addresses with at least 100K native units"]),
  series(["addresses_supply/SplyAdrBalNtv100", "M2", "native units", "level", "supply held by addresses with at least 100 native units"]),
  series([
    "addresses_supply/SplyAdrBal1in1B",
    "M2",
    "native units",
    "level",
    "supply held by addresses with at least one billionth of the supply",
  ]),
  series(["addresses/AdrBalUSD1MCnt", "M2", "addresses", "count", "count of addresses holding at least $1M"]),
  series(["addresses/addresses_count_range_10_100", "BTC_ONLY", "addresses", "count", "count of addresses holding 10–100 BTC"]),
  series(["market/structural_support_lower_band", "BTC_ONLY", "USD", "level", "structural support lower price band"]),
  series(["exchange_flow/running_total_usd", "STABLES_BTC_ETH", "USD", "cumulative", "running total of exchange net flow in USD"], ENTITY),
  series(["fees/fee_price_usd", "F1", "USD", "level", "mean fee per transaction in USD"]),
  series(["lifespan/Terminal_adjusted_cdd", "L1", "coin-days", "flow", "terminal-adjusted coin days destroyed"]),
  series(["holder_supply/lth_supply_in_profit", "BTC_ONLY", "BTC", "level", "long-term holder supply in profit"]),
  series(["holder_supply/sth_supply_in_profit", "BTC_ONLY", "BTC", "level", "short-term holder supply in profit"]),
  series(["market/invested_capital_in_loss", "BTC_ONLY", "USD", "level", "invested capital currently held at a loss"]),
  series(["holder_supply/Supply_range_1w_1m", "BTC_ONLY", "BTC", "level", "supply last moved between 1 week and 1 month ago"]),
  series(["mining/RevHashRateUSD", "R1", "USD per TH/s per day", "level", "miner revenue per unit of hash rate (hashprice) in USD"]),
  series(["mining/DiffLast", "D1", "difficulty", "level", "mining difficulty of the last block in the period"]),
  series(["market/lth_realized_cap", "BTC_ONLY", "USD", "level", "realized capitalization of long-term holders"]),
  series(["transactions/TxTfrValMedNtv", "OPEN", "native units", "level", "median native units per transfer"]),
  series(["lifespan/Lth_mvrv", "BTC_ONLY", "ratio", "ratio", "long-term holder MVRV: price over LTH realized price"]),
  series(["lifespan/Cvdd", "L1", "USD", "level", "cumulative value-days destroyed (CVDD) price floor"]),
  {
    id: "derivatives/metrics-variation",
    kind: "variation",
    group: "derivatives",
    segment: "metrics-variation",
    field: "",
    assetSet: "B",
    params: [],
    unit: "",
    additive: false,
    nature: "level",
    purpose: "per-asset summary of metric variation: latest value, 24h change and 7-day sparkline",
  },
  {
    id: "liquidation_levels/heatmap",
    kind: "heatmap",
    group: "liquidation_levels",
    segment: "heatmap",
    field: "",
    assetSet: "A",
    params: ["asset", "timeframe", "lookback", "scope", "exchange"],
    unit: "USD",
    additive: false,
    nature: "level",
    purpose: "liquidation-level heatmap: open liquidation notional by price level over time, with candles",
  },
] as const satisfies readonly Endpoint[];

/** The ids of the metric-series endpoints (get_series), as a type. */
export type SeriesId = Extract<(typeof LISTED)[number], { kind: "series" }>["id"];
/** The ids of the OHLCV-style endpoints (get_ohlcv, price aside), as a type. */
export type OhlcvId = Extract<(typeof LISTED)[number], { kind: "ohlcv" }>["id"];

export const ENDPOINTS: readonly Endpoint[] = LISTED.map((e) => (MEANINGS[e.id] ? { ...e, meaning: MEANINGS[e.id] } : e));
