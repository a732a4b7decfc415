// Dated real-world facts the embedded market was not calibrated on: none of them is an anchor of
// anchors.json, a ceiling, a crash low or a calendar row (those are what the paths were built
// from); each names where it was published. Checked by harness/truth/generalisation.ts.

export type FactKind = "close" | "low" | "high" | "fee" | "difficulty" | "hashprice" | "supply";

/** [kind, asset, date, published value, source key]. Prices USD; fee USD per transaction; hashprice USD per TH/s per day; supply native units. */
export type Fact = readonly [FactKind, string, string, number, keyof typeof FACT_SOURCES];

export const FACT_SOURCES = {
  cmc: "CoinMarketCap historical data (daily close, high and low, USD)",
  cg: "CoinGecko coin pages (all-time high and its date; historical market data)",
  bic: "BitInfoCharts average transaction fee, as quoted by Bitcoin.com News, CryptoGlobe, Cointelegraph, Coinsfera and AMBCrypto",
  bc: "Blockchain.com average fee per transaction, as quoted by Etherdesk and FXStreet",
  ych: "YCharts average transaction fee, as quoted in coverage of the 2025 fee market (ikablog)",
  cq: "cryptometer/Bitcoin.com News and The Block on fee levels (2024-02-28, 2025-05)",
  adj: "difficulty adjustment reports: Bitcoin.com News (2023 adjustments), CoinGabbar and Cointelegraph (2022-07), Crypto8 and BTC.com (2021), Fidelity/Coin Metrics (2020-03), CoinDesk (2018, 2024)",
  hri: "Hashrate Index / Luxor hashprice, as quoted by ForkLog (2024-07), cryptometer (2024-02) and Glassnode via mining-provider (2024-04, 2025-05)",
  sup: "Bitcoin's 17, 18 and 19 millionth coins (2018-01-13, 2019-10-19, 2022-04-01; CoinDesk); Tether and Circle transparency pages via CoinGecko market-cap history",
} as const;

export const FACTS: readonly Fact[] = [
  // BTC daily closes between the anchors.
  ["close", "btc", "2016-01-15", 375, "cmc"], ["close", "btc", "2016-11-08", 711, "cmc"], ["close", "btc", "2017-01-05", 1013, "cmc"],
  ["close", "btc", "2017-08-01", 2718, "cmc"], ["close", "btc", "2017-11-28", 9900, "cmc"], ["close", "btc", "2017-12-07", 17900, "cmc"],
  ["close", "btc", "2018-06-24", 6150, "cmc"], ["close", "btc", "2018-11-20", 4450, "cmc"], ["close", "btc", "2019-04-02", 4880, "cmc"],
  ["close", "btc", "2019-09-24", 8565, "cmc"], ["close", "btc", "2020-02-12", 10350, "cmc"], ["close", "btc", "2020-07-27", 11030, "cmc"],
  ["close", "btc", "2020-10-21", 12820, "cmc"], ["close", "btc", "2020-12-16", 21310, "cmc"], ["close", "btc", "2021-01-08", 40800, "cmc"],
  ["close", "btc", "2021-01-22", 33000, "cmc"], ["close", "btc", "2021-03-13", 61200, "cmc"], ["close", "btc", "2021-06-22", 32500, "cmc"],
  ["close", "btc", "2021-09-07", 46800, "cmc"], ["close", "btc", "2021-10-20", 66000, "cmc"], ["close", "btc", "2022-01-24", 36650, "cmc"],
  ["close", "btc", "2022-05-09", 30300, "cmc"], ["close", "btc", "2022-05-12", 29050, "cmc"], ["close", "btc", "2022-08-14", 24300, "cmc"],
  ["close", "btc", "2023-01-14", 20900, "cmc"], ["close", "btc", "2023-06-15", 25575, "cmc"], ["close", "btc", "2023-08-17", 26630, "cmc"],
  ["close", "btc", "2023-11-15", 37880, "cmc"], ["close", "btc", "2024-01-11", 46340, "cmc"], ["close", "btc", "2024-01-23", 39850, "cmc"],
  ["close", "btc", "2024-06-07", 69350, "cmc"], ["close", "btc", "2024-07-05", 56700, "cmc"], ["close", "btc", "2024-09-06", 53960, "cmc"],
  ["close", "btc", "2025-02-25", 88740, "cmc"], ["close", "btc", "2025-04-21", 87500, "cmc"], ["close", "btc", "2025-06-22", 100960, "cmc"],
  ["close", "btc", "2025-07-11", 117500, "cmc"], ["close", "btc", "2025-09-01", 109200, "cmc"],
  // ETH daily closes between the anchors.
  ["close", "eth", "2017-06-22", 320, "cmc"], ["close", "eth", "2018-02-06", 790, "cmc"], ["close", "eth", "2018-09-12", 183, "cmc"],
  ["close", "eth", "2019-02-06", 105, "cmc"], ["close", "eth", "2020-05-11", 186, "cmc"], ["close", "eth", "2020-09-01", 477, "cmc"],
  ["close", "eth", "2021-02-19", 1960, "cmc"], ["close", "eth", "2021-05-12", 3830, "cmc"], ["close", "eth", "2021-08-05", 2830, "cmc"],
  ["close", "eth", "2021-12-04", 4200, "cmc"], ["close", "eth", "2022-05-12", 1960, "cmc"], ["close", "eth", "2022-09-14", 1638, "cmc"],
  ["close", "eth", "2023-04-12", 1920, "cmc"], ["close", "eth", "2024-05-23", 3780, "cmc"], ["close", "eth", "2024-07-23", 3480, "cmc"],
  ["close", "eth", "2025-01-06", 3680, "cmc"], ["close", "eth", "2025-06-13", 2580, "cmc"],
  // Crash-day lows (intraday).
  ["low", "btc", "2021-07-20", 29360, "cmc"],
  ["low", "btc", "2021-06-22", 28805, "cmc"], ["low", "btc", "2025-04-07", 74436, "cmc"], ["low", "eth", "2025-04-09", 1385, "cmc"],
  // BTC mean fee per transaction (USD).
  ["fee", "btc", "2018-02-02", 10.2, "bic"], ["fee", "btc", "2019-05-17", 4.02, "bic"], ["fee", "btc", "2020-04-28", 0.66, "bic"],
  ["fee", "btc", "2020-04-29", 1.28, "bic"], ["fee", "btc", "2020-04-30", 2.94, "bic"], ["fee", "btc", "2020-08-09", 2.72, "bc"],
  ["fee", "btc", "2022-08-22", 0.825, "bc"], ["fee", "btc", "2023-09-21", 2.33, "cq"], ["fee", "btc", "2023-12-13", 13.93, "bic"],
  ["fee", "btc", "2024-02-28", 11.48, "cq"], ["fee", "btc", "2024-06-27", 2.67, "bic"], ["fee", "btc", "2024-07-03", 1.861, "ych"],
  ["fee", "btc", "2025-05-16", 3.654, "ych"], ["fee", "btc", "2025-06-24", 2.33, "ych"], ["fee", "btc", "2025-07-02", 1.341, "ych"],
  ["fee", "btc", "2025-07-03", 1.291, "ych"], ["fee", "btc", "2025-08-24", 0.5, "bic"],
  // BTC difficulty the day after a published adjustment.
  ["difficulty", "btc", "2018-11-09", 7.18e12, "adj"], ["difficulty", "btc", "2018-11-21", 6.65e12, "adj"], ["difficulty", "btc", "2018-12-04", 5.65e12, "adj"],
  ["difficulty", "btc", "2020-03-27", 13.91e12, "adj"], ["difficulty", "btc", "2021-05-30", 21.0e12, "adj"], ["difficulty", "btc", "2021-06-14", 19.93e12, "adj"],
  ["difficulty", "btc", "2021-07-04", 14.36e12, "adj"], ["difficulty", "btc", "2021-07-18", 13.7e12, "adj"], ["difficulty", "btc", "2022-07-22", 27.69e12, "adj"],
  ["difficulty", "btc", "2022-12-07", 34.24e12, "adj"], ["difficulty", "btc", "2023-01-16", 37.59e12, "adj"], ["difficulty", "btc", "2023-10-19", 61.03e12, "adj"],
  ["difficulty", "btc", "2024-05-10", 83.15e12, "adj"], ["difficulty", "btc", "2024-10-25", 101.65e12, "adj"],
  // Hashprice (USD per TH/s per day).
  ["hashprice", "btc", "2024-07-04", 0.0449, "hri"], ["hashprice", "btc", "2024-02-28", 0.105, "hri"], ["hashprice", "btc", "2024-04-10", 0.11, "hri"],
  ["hashprice", "btc", "2025-05-16", 0.054, "hri"],
  // Supply.
  ["supply", "btc", "2018-01-13", 17.0e6, "sup"], ["supply", "btc", "2019-10-19", 18.0e6, "sup"], ["supply", "usdt", "2022-06-15", 72e9, "sup"],
  ["supply", "btc", "2022-04-01", 19.0e6, "sup"], ["supply", "usdt", "2021-04-01", 41e9, "sup"], ["supply", "usdt", "2021-06-01", 61e9, "sup"],
  ["supply", "usdt", "2021-09-01", 65.5e9, "sup"], ["supply", "usdc", "2021-06-01", 23e9, "sup"], ["supply", "usdc", "2023-03-10", 43e9, "sup"],
];
