// Ranks assets by the 24-hour change of their derivatives volume, with the library entry: one
// process, typed results, no text to parse. Run: node examples/volume-movers.mjs btc eth sol …
import { createCryptoMetrics, CryptoMetricsError } from "crypto-metrics-mcp";

const assets = process.argv.slice(2).length ? process.argv.slice(2) : ["btc", "eth", "sol", "xrp", "doge", "ada", "bnb", "link"];
const cm = createCryptoMetrics(); // CRYPTO_METRICS_* settings apply, as for the server and the CLI
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 2 });

try {
  const ranked = [];
  for (const asset of assets) {
    try {
      const { columns, rows } = await cm.getMetricsVariation({ asset });
      const at = Object.fromEntries(columns.map((name, i) => [name, i])); // rows are tuples under these names
      const volume = rows.find((r) => r[at.metric] === "derivatives/Volume_usd");
      if (volume && volume[at.changeIn] === "%" && volume[at.change24h] != null) {
        ranked.push({ asset, change: volume[at.change24h], last: usd.format(volume[at.last]), trend: volume[at.sparkline7d] });
      }
    } catch (err) {
      if (!(err instanceof CryptoMetricsError) || err.exitCode !== 2) throw err;
      console.error(`${asset}: ${err.message}`); // an asset the service does not cover: skip it
    }
  }
  ranked.sort((a, b) => b.change - a.change);
  for (const r of ranked)
    console.log(`${r.asset.padEnd(6)} ${`${r.change >= 0 ? "+" : ""}${r.change.toFixed(1)} %`.padStart(9)}  ${r.trend}  last ${r.last}`);
} finally {
  await cm.close();
}
