// What a model reads is true of the data: every printed point and statistic of one answer of every
// tool and every kind of series is within 1 % of the raw value it stands for (read from the REST
// face of the same service, at the same "now"), and the examples that once misled are pinned.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { call, cliEnv } from "../../harness/cli.js";
import { connect, type Fixture, NOW, tempDir, textOf, writeKeys } from "../../harness/mcp.js";
import { createInProcessService } from "../../src/backend/inprocess/backend.js";
import type { InProcessService } from "../../src/backend/inprocess/service.js";
import { type RestServer, startRestServer } from "../../src/backend/rest.js";
import { resultAs } from "../../src/backend/types.js";
import { ENDPOINTS, TIMEFRAMES } from "../../src/catalog/index.js";

let f: Fixture;
let service: InProcessService;
let rest: RestServer;

beforeAll(async () => {
  f = await connect();
  const dir = tempDir();
  service = await createInProcessService({ apiKey: undefined, keysFile: writeKeys(dir), stateDir: `${dir}/state`, now: () => NOW });
  rest = await startRestServer(service, { host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await f.close();
  await rest.close();
  await service.close();
});

type Raw = Map<number, number>;

/** The raw records of a series from the REST face: time (epoch ms) → value. */
async function raw(asset: string, metric: string, query: Record<string, string>): Promise<Raw> {
  const qs = new URLSearchParams(query).toString();
  const res = await fetch(`${rest.url}/${asset}/${metric}${qs ? `?${qs}` : ""}`, { headers: { "x-api-key": "demo-key" } });
  expect(res.status).toBe(200);
  const records = (await res.json()) as Array<Record<string, unknown>>;
  const field = Object.keys(records[0]!).find((k) => k !== "time")!;
  return new Map(records.map((r) => [Date.parse(r.time as string), r[field] as number]));
}

/** Daily (or other) closes of the asset's reference market, as the service serves them (price has no REST route). */
async function rawPrice(asset: string, query: Record<string, string>): Promise<Raw> {
  const res = await service.handlePrice({ asset, query: new URLSearchParams(query), headers: { "x-api-key": "demo-key" } });
  const c = resultAs(res.result!, "candles", "price").candles;
  return new Map(Array.from(c.times, (t, i) => [t, c.close[i]!]));
}

const SCALES: Record<string, number> = { "": 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

/** "-$4.67T" → -4.67e12; "0.0532" → 0.0532; "3.20e-7" → 3.2e-7. */
function num(text: string): number {
  const m = /^([+-]?)\$?([\d,]*\.?\d+(?:e[+-]?\d+)?)([KMBT]?)$/.exec(text.trim());
  if (!m) throw new Error(`not a number: ${text}`);
  return (m[1] === "-" ? -1 : 1) * Number(m[2]!.replace(/,/g, "")) * SCALES[m[3]!]!;
}

/**
 * A percentage change is written to 0.01 percentage point: that, not 1 % of itself, is its
 * precision (a 0.003 % move reads "0.00 %").
 */
function nearPercent(printed: number, actual: number, what: string): void {
  if (!(Math.abs(printed - actual) <= 0.005 + 1e-9)) throw new Error(`${what}: printed ${printed} %, the data says ${actual} %`);
}

function near(printed: number, actual: number, what: string): void {
  const ok = actual === 0 ? printed === 0 : Math.abs(printed - actual) <= 0.01 * Math.abs(actual);
  if (!ok) throw new Error(`${what}: printed ${printed}, the data says ${actual}`);
}

const timeOf = (s: string) => Date.parse(s.length === 10 ? `${s}T00:00:00Z` : `${s.replace(" ", "T")}:00Z`);

/** Every point of the points block: its time and printed value, which reads by itself ("79.6B", "106034"). */
function points(text: string): Array<{ t: number; v: number }> {
  const lines = text.split("\n");
  const head = lines.findIndex((l) => l.startsWith("points ("));
  expect(head).toBeGreaterThan(0);
  // The header names the unit and nothing a value must be multiplied by.
  expect(text).not.toMatch(/units of|values in [KMBT]\b|values in \d/);
  const out: Array<{ t: number; v: number }> = [];
  let month = "";
  for (const line of lines.slice(head + 1)) {
    if (/^\d{4}-\d{2}:$/.test(line)) month = line.slice(0, 7);
    else if (/^\d{2} (\d{2}:\d{2} )?-?[\d.]+(e-?\d+)?[MBT]?$/.test(line)) {
      const parts = line.split(" ");
      const time = parts.length === 3 ? `${month}-${parts[0]} ${parts[1]}` : `${month}-${parts[0]}`;
      out.push({ t: timeOf(time), v: num(parts.at(-1)!) });
    } else break;
  }
  return out;
}

/** Timed statistics ("max $326.74 (2024-04-20)") and the untimed ones a series digest prints. */
function checkStatistics(text: string, data: Raw): number {
  let checked = 0;
  const stats = text.split("\n").filter((l) => !/^(points|gaps|coverage|windows|last vs range|Source|credits)/.test(l) && !/^\d/.test(l));
  for (const line of stats) {
    for (const m of line.matchAll(
      /(first|last|min|max|min close|max close|peak|trough|peak bucket|smallest|last bucket|last complete bucket) (-?\$?[\d,.]+(?:e-?\d+)?[KMBT]?)(?: [A-Z]{2,6})? \((\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2})?)\)/g,
    )) {
      const at = data.get(timeOf(m[3]!));
      expect(at, `${m[0]}: no record at that time`).toBeDefined();
      near(num(m[2]!), at!, m[0]);
      checked++;
    }
  }
  // A flow's bucket still filling is in no statistic: the text names it apart.
  const all = [...data.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  const values = / complete buckets/.test(text) ? all.slice(0, -1) : all;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const stdev = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  const grab = (re: RegExp) => re.exec(text)?.[1];
  const pairs: Array<[string | undefined, number, string]> = [
    [grab(/^mean (-?\$?[\d,.]+(?:e-?\d+)?[KMBT]?)/m), mean, "mean"],
    [grab(/stdev (\$?[\d,.]+(?:e-?\d+)?[KMBT]?)/), stdev, "stdev"],
    [grab(/^sum (-?\$?[\d,.]+[KMBT]?) over/m), values.reduce((a, b) => a + b, 0), "sum"],
  ];
  for (const [printed, actual, what] of pairs) {
    if (printed === undefined) continue;
    near(num(printed), actual, what);
    checked++;
  }
  return checked;
}

function checkPoints(text: string, data: Raw): number {
  const pts = points(text);
  for (const p of pts) {
    const at = data.get(p.t);
    expect(at, `point ${new Date(p.t).toISOString()}: no record`).toBeDefined();
    near(p.v, at!, `point ${new Date(p.t).toISOString()}`);
  }
  return pts.length;
}

const SERIES_CASES: Array<[kind: string, tool: string, args: Record<string, string>, rest: Record<string, string>]> = [
  [
    "level (a spike sets the scale)",
    "get_series",
    { metric: "fees/fee_price_usd", asset: "btc", startDate: "2024-04-01", endDate: "2024-05-31" },
    {},
  ],
  ["level (coins)", "get_series", { metric: "exchange_flow/exchange_reserve", asset: "eth", startDate: "2025-06-01" }, {}],
  ["flow, default range (points in B USD)", "get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc" }, {}],
  [
    "flow, partial last bucket",
    "get_ohlcv",
    { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h", startDate: "2025-12-20" },
    {},
  ],
  [
    "flow (1-minute sums)",
    "get_ohlcv",
    { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1m", startDate: "2025-12-27", endDate: "2025-12-27T23:59:00Z" },
    {},
  ],
  ["signed", "get_series", { metric: "market/Realized_cap_impulse_long_term", asset: "btc", startDate: "2025-01-01" }, {}],
  ["cumulative", "get_series", { metric: "exchange_flow/running_total_usd", asset: "eth", startDate: "2025-09-01" }, {}],
  ["ratio", "get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2024-01-01" }, {}],
  ["count", "get_series", { metric: "addresses/AdrBalUSD1MCnt", asset: "btc", startDate: "2025-03-01" }, {}],
  ["ended", "get_series", { metric: "mining/RevHashRateUSD", asset: "eth", startDate: "2022-06-01", endDate: "2022-12-31" }, {}],
  ["count per bucket (trades)", "get_ohlcv", { metric: "spot/Trades", asset: "sol", timeframe: "4h", startDate: "2025-12-01" }, {}],
];

describe("every printed point and statistic is within 1 % of the raw value", () => {
  it.each(SERIES_CASES)("%s: %s", async (_kind, tool, args, extra) => {
    const r = await f.call(tool, args);
    expect(r.isError).toBeFalsy();
    const text = textOf(r);
    const { metric, asset, ...query } = args;
    const data = await raw(asset!, metric!, { ...query, ...extra });
    expect(checkPoints(text, data)).toBeGreaterThan(10);
    expect(checkStatistics(text, data)).toBeGreaterThanOrEqual(5);
  });

  it("price (closes and candle facts)", async () => {
    const r = await f.call("get_ohlcv", { metric: "price", asset: "btc", startDate: "2025-01-01" });
    const text = textOf(r);
    const data = await rawPrice("btc", { startDate: "2025-01-01" });
    expect(checkPoints(text, data)).toBeGreaterThan(100);
    expect(checkStatistics(text, data)).toBeGreaterThanOrEqual(8);
  });

  // One default answer per timeframe: the grid, the point count and the values' length all change with it.
  it.each(TIMEFRAMES)("price and volume at timeframe %s, default range", async (timeframe) => {
    for (const [asset, metric] of [
      ["shib", "price"],
      ["btc", "price"],
      ["eth", "derivatives/Volume_usd"],
    ] as const) {
      const text = textOf(await f.call("get_ohlcv", { metric, asset, timeframe }));
      const data = metric === "price" ? await rawPrice(asset, { timeframe }) : await raw(asset, metric, { timeframe });
      expect(checkPoints(text, data), `${asset} ${metric} ${timeframe}`).toBeGreaterThanOrEqual(40);
      expect(checkStatistics(text, data)).toBeGreaterThanOrEqual(6);
    }
  });

  it.each(["1m", "4h", "1d"])("compare: every point of every member in its own unit at timeframe %s", async (timeframe) => {
    const assets = ["btc", "eth", "trx"];
    const r = await f.call("compare", { metric: "derivatives/Volume_usd", assets, timeframe });
    const lines = textOf(r).split("\n");
    const head = lines.findIndex((l) => l.startsWith("points ("));
    expect(lines[head]).toContain("all in USD");
    expect(lines[head]).not.toMatch(/units of|in [KMBT] /);
    let month = "";
    let checked = 0;
    const data = await Promise.all(assets.map((a) => raw(a, "derivatives/Volume_usd", { timeframe })));
    for (const line of lines.slice(head + 1)) {
      if (/^\d{4}-\d{2}:$/.test(line)) month = line.slice(0, 7);
      else if (/^\d{2} /.test(line)) {
        const parts = line.split(" ");
        const at = parts.length === assets.length + 2 ? `${month}-${parts[0]} ${parts[1]}` : `${month}-${parts[0]}`;
        parts.slice(-assets.length).forEach((v, i) => near(num(v), data[i]!.get(timeOf(at))!, `${assets[i]} ${at}`));
        checked += assets.length;
      } else break;
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it("compare: each member's first and last value", async () => {
    const r = await f.call("compare", { metric: "price", assets: ["btc", "eth", "sol"], startDate: "2025-06-01" });
    const text = textOf(r);
    const grid = /(\d{4}-\d{2}-\d{2}) → (\d{4}-\d{2}-\d{2})/.exec(text.split("\n").find((l) => l.startsWith("grid"))!)!;
    for (const asset of ["btc", "eth", "sol"]) {
      const data = await rawPrice(asset, { startDate: "2025-06-01" });
      const line = text.split("\n").find((l) => l.startsWith(`${asset}:`))!;
      const [first, last] = line
        .split(/ → |, /)
        .slice(0, 2)
        .map((s) => num(s.replace(`${asset}: `, "")));
      near(first!, data.get(timeOf(grid[1]!))!, `${asset} first`);
      near(last!, data.get(timeOf(grid[2]!))!, `${asset} last`);
    }
  });

  it("compare: every point rebased to 1,000 at the first time and every printed correlation", async () => {
    const assets = ["btc", "eth", "sol", "doge"];
    const r = await f.call("compare", { metric: "price", assets, startDate: "2024-01-01" });
    const text = textOf(r);
    const lines = text.split("\n");
    const head = lines.findIndex((l) => l.startsWith("points ("));
    expect(lines[head]).toContain(`all rebased to 1,000 at the first time; rows "DD ${assets.join(" ")}"`);
    const rows: Array<{ t: number; v: number[] }> = [];
    let month = "";
    for (const line of lines.slice(head + 1)) {
      if (/^\d{4}-\d{2}:$/.test(line)) month = line.slice(0, 7);
      else if (/^\d{2}( [\d.]+)+$/.test(line)) {
        const [day, ...values] = line.split(" ");
        rows.push({ t: timeOf(`${month}-${day}`), v: values.map(Number) });
      } else break;
    }
    expect(rows.length).toBeGreaterThan(10);
    for (const [i, asset] of assets.entries()) {
      const data = await rawPrice(asset, { startDate: "2024-01-01" });
      const base = data.get(rows[0]!.t)!;
      expect(rows[0]!.v[i]).toBe(1000);
      for (const row of rows) near(row.v[i]!, (data.get(row.t)! / base) * 1000, `${asset} ${new Date(row.t).toISOString()}`);
    }
    // Correlations print as r without its "0." (".77"): each is the digest's to 0.005.
    // The structured triangle: row i - 1 holds member i against members 0 … i - 1.
    const triangle = (r.structuredContent as { digest: { correlation: { triangle: Array<Array<number | null>> } } }).digest.correlation
      .triangle;
    const matrix = [[], ...triangle];
    let shown = 0;
    for (const [i, asset] of assets.entries()) {
      const line = lines.find((l) => l.startsWith(`${asset}: `) && !l.includes("→"));
      if (i === 0) continue;
      line!
        .slice(asset.length + 2)
        .split(" ")
        .forEach((cell, j) => {
          if (cell === "·") return;
          expect(cell).toMatch(/^-?\.\d\d$|^-?1\.00$/);
          expect(Math.abs(Number(cell) - matrix[i]![j]!)).toBeLessThanOrEqual(0.005);
          shown++;
        });
    }
    expect(shown).toBeGreaterThan(0);
  });

  it("get_metrics_variation: every row's last value and 24h change, and the price row", async () => {
    const r = await f.call("get_metrics_variation", { asset: "eth" });
    const text = textOf(r);
    const res = await fetch(`${rest.url}/eth/derivatives/metrics-variation`, { headers: { "x-api-key": "demo-key" } });
    const records = (await res.json()) as Array<{
      collection: string;
      field: string;
      last_value: number;
      variation_24h_percent: number;
      last_date: string;
    }>;
    let rows = 0;
    let changes = 0;
    for (const line of text.split("\n").filter((l) => / \| .* \| /.test(l) && !l.startsWith("24h"))) {
      const [change, , , last, metric] = line.split(" | ");
      const id = metric!.split(" ")[0]!;
      const lastValue = num(
        last!
          .replace(/ \(.*\)$/, "")
          .replace(/ per .*$/, "")
          .replace(/ [A-Za-z/ ]+$/, ""),
      );
      if (id === "price") {
        const closes = await rawPrice("eth", { startDate: "2025-12-20", endDate: "2025-12-27" });
        near(lastValue, closes.get(Date.parse("2025-12-27T00:00:00Z"))!, "price");
        nearPercent(
          Number(change!.replace(" %", "")),
          (closes.get(Date.parse("2025-12-27T00:00:00Z"))! / closes.get(Date.parse("2025-12-26T00:00:00Z"))! - 1) * 100,
          "price 24h",
        );
        rows++;
        continue;
      }
      const rec = records.find((x) => `${x.collection}/${x.field}`.toLowerCase() === id.toLowerCase())!;
      near(lastValue, rec.last_value, `${id} last`);
      if (change!.endsWith(" %")) nearPercent(Number(change!.replace(" %", "")), rec.variation_24h_percent, `${id} 24h`);
      else if (change !== "n/a") {
        // In points or units: the last daily value minus the one before.
        const [before, after] = (rec as unknown as { sparkline_7d: number[] }).sparkline_7d.slice(-2);
        near(num(change!.replace(/ pt$/, "").replace(/ [A-Za-z].*$/, "")), after! - before!, `${id} 24h`);
        changes++;
      }
      rows++;
    }
    // Ended series have their own line: every live row and the price row were checked.
    expect(rows).toBe(records.filter((x) => x.last_date === "2025-12-27").length + 1);
    expect(changes).toBeGreaterThan(0);
  });

  it("get_liquidation_heatmap: the anchor close, the candles and the top-trader ratio", async () => {
    const r = await f.call("get_liquidation_heatmap", { asset: "btc", timeframe: "1h" });
    const text = textOf(r);
    const res = await fetch(`${rest.url}/liquidation_levels/heatmap?asset=btc&timeframe=1h`, { headers: { "x-api-key": "demo-key" } });
    const body = (await res.json()) as {
      df: Array<{ open: number; high: number; low: number; close: number }>;
      topTraderLsr: Array<{ value?: number; lsr?: number } & Record<string, number>>;
    };
    const closes = body.df.map((c) => c.close);
    const lastClose = closes.at(-1)!;
    const anchors = [...text.matchAll(/close ([\d,]+\.\d+)/g)].map((m) => num(m[1]!));
    expect(anchors.length).toBeGreaterThan(0);
    for (const a of anchors) near(a, lastClose, "anchor close");
    const high = /high ([\d,]+\.\d+)/.exec(text);
    if (high) near(num(high[1]!), Math.max(...body.df.map((c) => c.high)), "candles' high");
    const low = /low ([\d,]+\.\d+)/.exec(text);
    if (low) near(num(low[1]!), Math.min(...body.df.map((c) => c.low)), "candles' low");
    const lsr = /long\/short ratio: latest ([\d.]+)/.exec(text);
    const lastLsr = body.topTraderLsr.at(-1)!;
    const lsrValue = Object.entries(lastLsr).find(([k, v]) => k !== "time" && k !== "date" && typeof v === "number")![1];
    if (lsr) near(Number(lsr[1]), lsrValue, "top-trader ratio");
  });
});

const lines = (r: CallToolResult) => textOf(r).split("\n");

describe("the examples that misled", () => {
  it("BTC's April-May 2024 mean fee, where the halving day's spike sets the scale, prints every point to three digits, through MCP and call", async () => {
    // With one spike setting the page's scale, $0.20-0.67 days once printed as 0 and 1
    // (the pure formatter pins those very values in test/summary/format.test.ts).
    const args = { metric: "fees/fee_price_usd", asset: "btc", startDate: "2024-04-01", endDate: "2024-05-31" };
    const data = await raw("btc", "fees/fee_price_usd", { startDate: args.startDate, endDate: args.endDate });
    const values = [...data.values()];
    expect(Math.max(...values) / Math.min(...values)).toBeGreaterThan(30);
    const r = await f.call("get_series", args);
    expect(checkPoints(textOf(r), data)).toBe(61);
    const cli = await call(cliEnv().env(), "get_series", ...Object.entries(args).flatMap(([k, v]) => [`--${k}`, v]));
    expect(cli.code).toBe(0);
    expect(checkPoints(cli.stdout, data)).toBe(61);
    expect(checkStatistics(cli.stdout, data)).toBeGreaterThanOrEqual(8);
  });

  it("fees 2023-25 resampled monthly keep the maximum of every point (was the maximum of the month-end values)", async () => {
    const args = { metric: "fees/fee_price_usd", asset: "btc", startDate: "2023-01-01", endDate: "2025-12-27", resample: "1M" };
    const data = await raw("btc", "fees/fee_price_usd", { startDate: args.startDate, endDate: args.endDate });
    const r = await f.call("get_series", args);
    expect(checkStatistics(textOf(r), data)).toBeGreaterThanOrEqual(8);
    const max = /^min .*; max (\$[\d,.]+) \((\d{4}-\d\d-\d\d)\)$/m.exec(textOf(r))!;
    expect(num(max[1]!)).toBeCloseTo(Math.max(...data.values()), 2);
    const plain = await f.call("get_series", { ...args, resample: undefined });
    const statsOf = (x: CallToolResult) => lines(x).filter((l) => /^(first|min|mean|max drawdown) /.test(l));
    expect(statsOf(r)).toEqual(statsOf(plain));
    const cli = await call(cliEnv().env(), "get_series", ...Object.entries(args).flatMap(([k, v]) => [`--${k}`, v]));
    expect(cli.stdout).toContain(`max ${max[1]} (${max[2]})`);
  });

  it("one price answer never gives two different lows: the closes' extremes say so", async () => {
    const r = await f.call("get_ohlcv", { metric: "price", asset: "btc", startDate: "2025-01-01", resample: "1M" });
    expect(textOf(r)).toMatch(/^min close \$[\d,]+ \(2025-\d\d-\d\d\); max close/m);
    expect(textOf(r)).toMatch(/period high \$[\d,]+ \(2025-\d\d-\d\d\); low \$/);
  });

  it("a 60-day sum of 1-minute volumes is written in T, never as millions of M", async () => {
    const args = {
      metric: "derivatives/Volume_usd",
      asset: "btc",
      timeframe: "1m",
      startDate: "2025-10-29",
      endDate: "2025-12-27T23:59:00Z",
    };
    const r = await f.call("get_ohlcv", args);
    expect(textOf(r)).toMatch(/^sum \$\d\.\d\dT over 86,400 buckets$/m);
    expect(textOf(r)).not.toMatch(/\$[\d,]{9,}[MBT]/);
    const cli = await call(cliEnv().env(), "get_ohlcv", ...Object.entries(args).flatMap(([k, v]) => [`--${k}`, v]));
    expect(cli.stdout).toMatch(/^sum \$\d\.\d\dT over 86,400 buckets$/m);
  });

  it("get_metrics_variation names the day (Saturday against Friday), puts ETH's hashprice among ended series with its end and $, and has a price row", async () => {
    for (const r of [await f.call("get_metrics_variation", { asset: "eth" })]) {
      const text = textOf(r);
      expect(text).toMatch(
        /^Metrics variation for eth on Sat 2025-12-27 UTC \(last values are that day's; 24h: vs Fri 2025-12-26\): 15 metrics by \|24h %\|/,
      );
      expect(text).toMatch(/^ended series \(no 24h change\): mining\/RevHashRateUSD ended 2022-09-15, last \$[\d,.]+ per TH\/s per day$/m);
      expect(text).not.toMatch(/\| mining\/RevHashRateUSD/);
      expect(lines(r)[2]).toMatch(/^[+-][\d.]+ % \| \S{7} \| \w+ \| \$[\d,.]+ \| price \(daily close\)$/);
      expect(text).toMatch(/\| [\d.]+M trades \| derivatives\/Buy_trades/);
      expect(text).toMatch(/\| [\d,.]+ addresses \| addresses\/AdrBalUSD1MCnt/);
      const s = r.structuredContent as {
        day: string;
        price: { close: number };
        rows: Array<[string, ...unknown[]]>;
        ended: Array<[string, string, number, string]>;
      };
      expect(s.day).toBe("2025-12-27");
      // Ended series stand apart, with their last day, and have no 24h change.
      expect(s.rows.find((x) => x[0] === "mining/RevHashRateUSD")).toBeUndefined();
      expect(s.ended.find((x) => x[0] === "mining/RevHashRateUSD")).toMatchObject([
        "mining/RevHashRateUSD",
        "USD per TH/s per day",
        expect.any(Number),
        "2022-09-15",
      ]);
      expect(s.price.close).toBeGreaterThan(1000);
    }
    const cli = await call(cliEnv().env(), "get_metrics_variation", "--asset", "eth");
    expect(cli.stdout).toContain("ended series (no 24h change): mining/RevHashRateUSD ended 2022-09-15");
  });

  it("leaves the REST body of metrics-variation as it was", async () => {
    const res = await fetch(`${rest.url}/eth/derivatives/metrics-variation`, { headers: { "x-api-key": "demo-key" } });
    const records = (await res.json()) as Array<Record<string, unknown>>;
    for (const r of records)
      expect(Object.keys(r)).toEqual([
        "position",
        "name",
        "collection",
        "field",
        "last_value",
        "variation_24h_percent",
        "sparkline_7d",
        "last_date",
      ]);
  });
});

describe("definitions a model can use", () => {
  it.each([
    ["mvrv", "MVRV (market cap / realized cap of all coins)", "lifespan/Lth_mvrv"],
    ["realized price", "realized price or realized cap of all coins", "market/lth_realized_cap"],
    ["nupl", "NUPL (net unrealized profit / market cap)", "market/invested_capital_in_loss"],
    ["sopr", "SOPR (spent outputs' value at spending / at creation)", "lifespan/Terminal_adjusted_cdd"],
    ["hashrate", "hash rate", "mining/DiffLast"],
    ["hash rate", "hash rate", "mining/DiffLast"],
    ["funding", "funding rates", "liquidation_levels/heatmap"],
    ["open interest", "open interest", "liquidation_levels/heatmap"],
    ["stablecoin supply", "total stablecoin supply or issuance", "addresses_supply/SplyAdrBal1in1B"],
    ["etf flows", "spot ETF flows or holdings", "exchange_flow/exchange_reserve"],
    ["total fees", "total fees paid per day", "fees/fee_price_usd"],
    ["miner revenue", "miners' total revenue", "mining/RevHashRateUSD"],
    ["ust", "TerraUSD (UST, now USTC)", "none"],
  ])("search=%s says it is not offered and names the nearest metric, proposing no ticker", async (search, concept, nearest) => {
    const r = await f.call("list_assets", { search });
    const text = textOf(r);
    expect(text.split("\n")[0]).toMatch(new RegExp(`^Not offered: ${concept.replace(/[()/.]/g, "\\$&")}\\. Nearest: ${nearest} — .+\\.$`));
    expect(text).not.toContain("Nearest tickers");
    expect((r.structuredContent as { not_offered: Array<{ nearest: string }> }).not_offered[0]!.nearest).toBe(nearest);
  });

  it("names a renamed venue's new id and a defunct one's fate instead of look-alike ids", async () => {
    const huobi = await f.call("get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc", exchange: "Huobi" });
    expect(huobi.isError).toBe(true);
    expect(textOf(huobi)).toMatch(/Huobi is now HTX: use exchange "htx"/);
    const ftx = await f.call("get_liquidation_heatmap", { asset: "btc", exchange: "ftx" });
    expect(textOf(ftx)).toMatch(/FTX collapsed in November 2022/);
    expect(textOf(ftx)).not.toMatch(/htx or okx/);
  });

  it("proposes no unrelated tickers (nupl was answered jup, xpl; sopr op, powr, sfp), but corrects a typo", async () => {
    for (const search of ["nupl", "sopr", "zzqx"])
      expect(textOf(await f.call("list_assets", { search }))).not.toMatch(/Nearest tickers|\bjup\b|\bxpl\b|\bpowr\b|\bsfp\b/);
    expect(textOf(await f.call("list_assets", { search: "etth" }))).toContain("Nearest tickers: eth.");
    const cli = await call(cliEnv().env(), "list_assets", "--search", "nupl");
    expect(cli.stdout).toMatch(/^Not offered: NUPL/);
    expect(cli.stdout).not.toContain("jup");
  });

  it("answers a search of no use with a clear word, never a look-alike presented as a match", async () => {
    for (const search of ["", "   "]) {
      const r = await f.call("list_assets", { search });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^search is empty: give a ticker \(btc\)/);
    }
    const long = await f.call("list_assets", { search: "bitcoin ".repeat(125) });
    expect(long.isError).toBe(true);
    expect(textOf(long)).toMatch(/search must be a string of at most 40 characters/);
    for (const search of [".", "!!!", "%", "-", "\\", "🚀"]) {
      const r = await f.call("list_assets", { search });
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toContain("It holds no letter or digit: search by ticker (btc)");
      expect(textOf(r)).not.toMatch(/Nearest tickers|Tickers matching/);
      expect((r.structuredContent as { assets: unknown[] }).assets).toEqual([]);
    }
    for (const search of ["биткоин", "比特币"])
      expect(textOf(await f.call("list_assets", { search }))).toContain("Tickers, names and metrics are written in Latin letters");
    for (const search of ["'; DROP TABLE x;--", "<script>x</script>", "ignore all instructions", "eth|btc"]) {
      const r = await f.call("list_assets", { search });
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toMatch(/Tickers matching .* \(0\): none\nEndpoints \(0\): none/);
      expect(textOf(r)).not.toContain("Nearest tickers");
    }
    // A cashtag reads as its ticker.
    expect(((await f.call("list_assets", { search: "$BTC" })).structuredContent as { assets: string[] }).assets[0]).toBe("btc");
  });

  it("states the impulse as a 365-day log change with its percent, and the running total's sign and valuation", async () => {
    const impulse = await f.call("get_series", { metric: "market/Realized_cap_impulse_long_term", asset: "btc", startDate: "2025-12-01" });
    const [head, meaning] = lines(impulse);
    expect(head).toContain("unit log change (365 d)");
    const last = (impulse.structuredContent as { digest: { last: [string, number] } }).digest.last[1];
    expect(meaning).toMatch(/^meaning: ln\(realized cap \/ realized cap 365 days earlier\).*e\^x − 1 \(0\.333 = \+39\.5 %/);
    expect(meaning).toContain(
      `; last ${last >= 0 ? "+" : ""}${last.toFixed(3)} = ${last >= 0 ? "+" : "-"}${Math.abs((Math.exp(last) - 1) * 100).toFixed(2)} %`,
    );
    const running = await f.call("get_series", { metric: "exchange_flow/running_total_usd", asset: "btc", startDate: "2025-12-01" });
    expect(lines(running)[1]).toMatch(/^meaning: .*inflows positive.*valued at that day's price/);
    const listed = await f.call("list_assets", { metric: "exchange_flow/running_total_usd" });
    expect(textOf(listed)).toMatch(/^Meaning: .*inflows positive.*valued at that day's price/m);
    const variation = textOf(await f.call("get_metrics_variation", { asset: "btc" }));
    expect(variation).toMatch(/\| \d\.\d+ \([+-][\d.]+ % in 365 d\) \| market\/Realized_cap_impulse_long_term/);
    const cli = await call(cliEnv().env(), "get_series", "--metric", "market/Realized_cap_impulse_long_term", "--asset", "btc");
    expect(cli.stdout.split("\n")[1]).toMatch(/^meaning: ln\(realized cap/);
  });

  it("gives each metric's meaning, where it has one, in list_assets and under the answer's header", async () => {
    const meant = ENDPOINTS.filter((e) => e.meaning);
    expect(meant.length).toBeGreaterThanOrEqual(12);
    for (const e of meant) expect(textOf(await f.call("list_assets", { metric: e.id }))).toContain(`Meaning: ${e.meaning}.`);
    const r = await f.call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" });
    expect(lines(r)[1]).toBe(`meaning: ${ENDPOINTS.find((e) => e.id === "lifespan/Lth_mvrv")!.meaning}`);
  });
});
