// Price: OHLC candles of an asset's reference market. Not an endpoint of the service (it has no
// route of its own): the in-process service serves it through its pipeline, and over the real
// service it is read from the heatmap's `df` candles, so its gate is the heatmap: a key restricted
// to some metrics may read price when it may call the heatmap. Tools ask for it by this id.
import type { Endpoint } from "./endpoints.js";

export const PRICE_ID = "price";

export const PRICE: Endpoint = {
  id: PRICE_ID,
  kind: "ohlcv",
  group: "price",
  segment: "price",
  field: "close",
  assetSet: "A",
  params: ["startDate", "endDate", "timeframe"],
  purpose: "OHLC candles of the asset's reference market (close in USD)",
  unit: "USD",
  additive: false,
  nature: "level",
  gate: "liquidation_levels/heatmap",
};
