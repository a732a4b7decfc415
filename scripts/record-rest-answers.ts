// The REST face's answers for scripts/record-answers.ts: every endpoint's body for btc and a second
// asset it covers, then a spread of good and bad paths, queries, keys and methods, each recorded as
// its status, the service headers and the body, over loopback.
import type { InProcessService } from "../src/backend/inprocess/service.js";
import { startRestServer } from "../src/backend/rest.js";
import { coverage, ENDPOINTS, HEATMAP_ID, pathOf, VARIATION_ID } from "../src/catalog/index.js";

/** The headers recorded with each body: the ones the service sets. */
const SERVICE_HEADERS = [
  "content-type",
  "ratelimit-policy",
  "ratelimit",
  "x-credits-remaining",
  "retry-after",
  "www-authenticate",
  "allow",
];

/** Records each REST answer through `put(request, text)`, one request at a time, and closes the face. */
export async function recordRest(restService: InProcessService, put: (request: string, text: string) => void): Promise<void> {
  const rest = await startRestServer(restService, { host: "127.0.0.1", port: 0 });
  async function get(path: string, headers: Record<string, string> = { "x-api-key": "record-wide" }, method = "GET"): Promise<void> {
    const res = await fetch(rest.url + path, { method, headers });
    const kept = SERVICE_HEADERS.map((h) => `${h}: ${res.headers.get(h) ?? ""}`).join("\n");
    put(`${method} ${path} ${JSON.stringify(headers)}`, `${res.status}\n${kept}\n\n${await res.text()}`);
  }
  for (const endpoint of ENDPOINTS) {
    const q =
      endpoint.kind === "heatmap"
        ? "?asset=btc&timeframe=1h&lookback=24h"
        : endpoint.kind === "variation"
          ? ""
          : "?startDate=2025-06-01&endDate=2025-06-10";
    await get(`${pathOf(endpoint, "btc")}${q}`);
    // Its default range for a second asset it covers (the first other than btc; eth for the open set).
    const other = (coverage(endpoint) ?? ["eth"]).find((asset) => asset !== "btc");
    if ((endpoint.kind === "series" || endpoint.kind === "ohlcv") && other) await get(pathOf(endpoint, other));
  }
  for (const [path, headers, method] of [
    [`/${HEATMAP_ID}?asset=btc`],
    [`/${HEATMAP_ID}?asset=eth&timeframe=4h`],
    [`/${HEATMAP_ID}?asset=btc&timeframe=1m&lookback=6y`],
    [`/${HEATMAP_ID}?asset=btc&scope=exchange&exchange=binance&timeframe=1h&lookback=24h`],
    [`/${HEATMAP_ID}?asset=sol&timeframe=15m&lookback=7d`],
    [`/${HEATMAP_ID}`],
    [`/btc/${HEATMAP_ID}`],
    [`/${HEATMAP_ID}?asset=btc&scope=nope`],
    [`/${HEATMAP_ID}?asset=btc`],
    [`/sol/${VARIATION_ID}`],
    [`/nope/${VARIATION_ID}`],
    ["/btc/derivatives/Volume_usd?timeframe=1h&startDate=2025-12-30"],
    ["/btc/derivatives/Volume_usd?timeframe=weird&startDate=2025-12-01"],
    ["/btc/derivatives/Volume_usd?exchange=binance&startDate=2025-12-01"],
    ["/btc/derivatives/Volume_usd?exchange=nowhere"],
    ["/btc/derivatives/Volume_usd?timeframe=1m&startDate=2015-01-01"],
    ["/btc/lifespan/Lth_mvrv?startDate=2025-02-30"],
    ["/btc/lifespan/Lth_mvrv?startDate=2025-06-10&endDate=2025-06-01"],
    ["/btc/lifespan/lth_mvrv"],
    ["/btc/nope/nothing"],
    ["/"],
    ["/doge/lifespan/Lth_mvrv"],
    ["/btc/lifespan/Lth_mvrv?startDate=2030-01-01"],
    ["/btc/price/price"],
    ["/btc/lifespan/Lth_mvrv", {}],
    ["/btc/lifespan/Lth_mvrv", { "x-api-key": "wrong" }],
    ["/btc/lifespan/Lth_mvrv", { "x-api-key": "record-wide", authorization: "Bearer record-tiny" }],
    ["/btc/lifespan/Lth_mvrv", { authorization: "Bearer record-wide" }],
    ["/btc/lifespan/Lth_mvrv", undefined, "POST"],
    ["/btc/derivatives/Volume_usd", { "x-api-key": "record-onchain" }],
    ["/btc/lifespan/Lth_mvrv", { "x-api-key": "record-onchain" }],
    [`/${HEATMAP_ID}?asset=btc`, { "x-api-key": "record-tiny" }],
    ["/btc/lifespan/Lth_mvrv", { "x-api-key": "record-tiny" }],
    ["/btc/lifespan/Lth_mvrv?startDate=2025-01-01", { "x-api-key": "record-tiny" }],
    ["/btc/lifespan/Lth_mvrv", { "x-api-key": "record-tiny" }],
    ["/btc/lifespan/Lth_mvrv", { "x-api-key": "record-tiny" }],
    ["/btc/lifespan/Lth_mvrv", { "x-api-key": "record-slow" }],
    ["/btc/lifespan/Lth_mvrv?startDate=2025-01-01", { "x-api-key": "record-slow" }],
    ["/btc/lifespan/Lth_mvrv", { "x-api-key": "record-slow" }],
  ] as Array<[string, Record<string, string>?, string?]>)
    await get(path, headers ?? { "x-api-key": "record-wide" }, method ?? "GET");
  await rest.close();
}
