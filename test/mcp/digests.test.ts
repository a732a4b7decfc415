// Series digests through a real MCP client: the statistics each nature calls for, windows,
// coverage, ended and partial series, resample, units — each checked against the records the
// service serves for the same request.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { encode } from "gpt-tokenizer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { errorOf, NOW, tempDir, textOf, writeKeys } from "../../harness/mcp.js";
import { InProcessBackend } from "../../src/backend/inprocess/backend.js";
import type { Backend, BackendContext, BackendRequest, BackendResult, TimeRecord } from "../../src/backend/types.js";
import { createServer } from "../../src/server.js";

/**
 * The in-process service, reporting each daily series' whole-history extent and "now" as a backend
 * that knows them does (the HTTP backend does not): the extent is read from the service itself.
 * Results that already carry them pass through unchanged.
 */
class ReportingBackend implements Backend {
  readonly kind = "inprocess" as const;
  constructor(readonly inner: InProcessBackend) {}
  get origin() {
    return this.inner.origin;
  }
  async fetch(request: BackendRequest, context?: BackendContext): Promise<BackendResult> {
    const result = await this.inner.fetch(request, context);
    if (result.extent && result.asOfMs !== undefined) return result;
    const daily = !request.query.timeframe || request.query.timeframe === "1d";
    if (!daily) return { ...result, asOfMs: result.asOfMs ?? NOW };
    const all = (await this.inner.fetch({ ...request, query: { ...request.query, startDate: "2009-01-03", endDate: undefined } }, context))
      .body as TimeRecord[];
    const extent = all.length ? { firstMs: Date.parse(all[0]!.time), lastMs: Date.parse(all.at(-1)!.time) } : undefined;
    return { ...result, extent: result.extent ?? extent, asOfMs: result.asOfMs ?? NOW };
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

let client: Client;
let inner: InProcessBackend;
let close: () => Promise<void>;

beforeAll(async () => {
  const dir = tempDir();
  inner = await InProcessBackend.create({ apiKey: "demo-key", keysFile: writeKeys(dir), stateDir: `${dir}/state`, now: () => NOW });
  const backend = new ReportingBackend(inner);
  const server = createServer({ backend, config: { apiKey: "demo-key" } });
  client = new Client({ name: "digests-test", version: "1.0.0" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([client.connect(a), server.connect(b)]);
  await client.listTools();
  close = async () => {
    await client.close();
    await server.close();
    await backend.close();
  };
});
afterAll(() => close());

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

type Pair = [string, number];
interface Digest {
  nature: string;
  count: number;
  first: Pair;
  last: Pair;
  maxDrawdown?: unknown;
  change?: { by: number; percent?: number };
  flow?: { sum: number; meanPerBucket: number; peak: Pair };
  signFlips?: { count: number };
  windows: Record<string, { by?: number; percent?: number; sum?: number }>;
  coverage: { endedAt?: string; partialLastAsOf?: string; historyFrom?: string };
  partialLast?: Pair;
  resample?: { period: string; rule: string; partialFirst: boolean; partialLast: boolean; sourceCount: number };
  points: Record<string, Pair[]>;
}
/** The points as epoch ms and values, from their month groups ("DD" or "DD HH:MM"; monthly: "MM" under "YYYY"). */
function pointsOf(d: Digest): Array<{ t: number; v: number }> {
  return Object.entries(d.points).flatMap(([group, points]) =>
    points.map(([at, v]) => {
      const iso = group.length === 4 ? `${group}-${at}-01` : `${group}-${at.slice(0, 2)}T${at.length > 2 ? at.slice(3) : "00:00"}:00Z`;
      return { t: Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso), v };
    }),
  );
}
const digestOf = (r: CallToolResult) => (r.structuredContent as { digest: Digest }).digest;

async function records(
  endpoint: string,
  asset: string,
  query: Record<string, string | undefined> = {},
): Promise<Array<{ t: number; v: number }>> {
  const body = (await inner.fetch({ endpoint, asset, query })).body as TimeRecord[];
  const field = Object.keys(body[0] ?? {}).find((k) => k !== "time")!;
  return body.map((r) => ({ t: Date.parse(r.time), v: r[field] as number }));
}

/** Equal at the structured result's precision: 6 significant digits, whole numbers from 100,000. */
const close6 = (a: number, b: number) =>
  expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.max(5e-6 * Math.abs(b), Math.abs(b) >= 1e5 ? 0.5 : 1e-12));

describe("statistics by nature", () => {
  it("signed: net change in units and sign flips, never a % or a drawdown", async () => {
    const args = { metric: "market/Realized_cap_impulse_long_term", asset: "btc", startDate: "2019-12-29" };
    const r = await call("get_series", args);
    const rows = await records(args.metric, "btc", { startDate: args.startDate });
    const d = digestOf(r);
    close6(d.change!.by, rows.at(-1)!.v - rows[0]!.v);
    expect(d.change!.percent).toBeUndefined();
    expect(d.maxDrawdown).toBeUndefined();
    let flips = 0;
    let sign = 0;
    for (const { v } of rows) {
      if (Math.sign(v) !== 0 && sign !== 0 && Math.sign(v) !== sign) flips++;
      if (Math.sign(v) !== 0) sign = Math.sign(v);
    }
    expect(d.signFlips!.count).toBe(flips);
    const text = textOf(r);
    expect(text).toContain("net change");
    expect(text).toContain(`sign flips: ${flips === 0 ? "none" : flips}`);
    // The meaning line reads the log change as a percentage; the statistics never do.
    expect(
      text
        .split("\n")
        .filter((l) => !l.startsWith("meaning: "))
        .join("\n"),
    ).not.toMatch(/drawdown|-?\d[\d.,]* %/);
  });

  it("flow: sum, mean per bucket, peak bucket and window sums of the served records; no drawdown", async () => {
    const args = { metric: "derivatives/Volume_usd", asset: "btc" };
    const r = await call("get_ohlcv", args);
    const rows = await records(args.metric, "btc");
    const d = digestOf(r);
    // Today's bucket is still filling: every statistic, windows included, reads complete days only.
    expect(d.coverage.partialLastAsOf).toBe("2025-12-28T12:00Z");
    const complete = rows.slice(0, -1);
    const sum = complete.reduce((a, b) => a + b.v, 0);
    close6(d.flow!.sum, sum);
    close6(d.flow!.meanPerBucket, sum / complete.length);
    close6(d.flow!.peak[1], Math.max(...complete.map((x) => x.v)));
    close6(d.partialLast![1], rows.at(-1)!.v);
    expect(d.partialLast![0]).toBe("2025-12-28");
    close6(
      d.windows["7d"]!.sum!,
      rows.slice(-8, -1).reduce((a, b) => a + b.v, 0),
    );
    close6(
      d.windows["30d"]!.sum!,
      rows.slice(-31, -1).reduce((a, b) => a + b.v, 0),
    );
    expect(d.maxDrawdown).toBeUndefined();
    expect(d.change).toBeUndefined();
    const text = textOf(r);
    expect(text).toMatch(/^sum \$[\d,.]+[KMBT]? over 999 complete buckets\nmean \$[\d,.]+[KMBT]? per bucket; stdev/m);
    expect(text).not.toMatch(/drawdown|^first /m);
    // Without market_type the endpoint aggregates every market type, spot included.
    expect(text.split("\n")[0]).toContain("market_type=all (spot, swap, future)");
    expect(text).not.toMatch(/perp/i);
  });

  it("cumulative: the net change over the range is the net flow summed; no % and no drawdown", async () => {
    const r = await call("get_series", { metric: "exchange_flow/running_total_usd", asset: "btc" });
    const rows = await records("exchange_flow/running_total_usd", "btc");
    const d = digestOf(r);
    close6(d.change!.by, rows.at(-1)!.v - rows[0]!.v);
    expect(d.change!.percent).toBeUndefined();
    expect(d.maxDrawdown).toBeUndefined();
    const text = textOf(r);
    expect(text).toMatch(/net change [+-]\$[\d,.]+[KMBT]? \(the net flow over the range\)/);
    expect(text).not.toMatch(/drawdown|\d %/);
  });

  it("ratio: change in points; level: % change and drawdown; coin units instead of native units", async () => {
    const mvrv = await call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc" });
    expect(digestOf(mvrv).nature).toBe("ratio");
    expect(digestOf(mvrv).change!.percent).toBeUndefined();
    expect(textOf(mvrv)).toMatch(/; change [+-][\d.]+ pt/);
    expect(textOf(mvrv)).toMatch(/windows \(change to last\): 1d [+-][\d.]+ pt, 7d .*, YTD 2025 [+-][\d.]+ pt/);
    const reserve = await call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "eth" });
    const rows = await records("exchange_flow/exchange_reserve", "eth");
    close6(digestOf(reserve).change!.percent!, ((rows.at(-1)!.v - rows[0]!.v) / rows[0]!.v) * 100);
    expect(textOf(reserve)).toMatch(/max drawdown -[\d.]+ %/);
    expect(textOf(reserve)).toContain("unit ETH");
    expect(textOf(reserve)).not.toContain("native");
    expect((reserve.structuredContent as { unit: string }).unit).toBe("ETH");
    // Windows of a level: the last value against the last bucket at or before the window's start.
    close6(digestOf(reserve).windows["30d"]!.percent!, (rows.at(-1)!.v / rows.at(-31)!.v - 1) * 100);
    // One figure per window, as the text gives it: the %, not the % and the difference.
    expect(digestOf(reserve).windows["30d"]!.by).toBeUndefined();
  });
});

describe("coverage, ended and partial series", () => {
  it("says where an ended series stops, and what to ask when the range is empty", async () => {
    const wide = await records("mining/RevHashRateUSD", "eth", { startDate: "2009-01-03" });
    const last = new Date(wide.at(-1)!.t).toISOString().slice(0, 10);
    const first = new Date(wide[0]!.t).toISOString().slice(0, 10);
    expect(wide.at(-1)!.t).toBeLessThan(NOW - 30 * 86_400_000);
    const part = await call("get_series", { metric: "mining/RevHashRateUSD", asset: "eth", startDate: `${last.slice(0, 4)}-01-01` });
    expect(textOf(part)).toContain(`data ends ${last}; the range asked ends 2025-12-28`);
    expect(textOf(part)).toContain(`the series ended ${last} (no data after)`);
    expect(textOf(part)).not.toContain("bucket present");
    const empty = await call("get_series", { metric: "mining/RevHashRateUSD", asset: "eth", startDate: "2025-01-01" });
    expect(empty.isError).toBeFalsy();
    expect(textOf(empty)).toContain("No data points in the requested range.");
    expect(textOf(empty)).toContain(
      `The series has data from ${first} to ${last} (it ended ${last}): ask startDate/endDate within that span.`,
    );
  });

  it("says how much of an asked range before the history has data", async () => {
    const wide = await records("exchange_flow/exchange_reserve", "btc", { startDate: "2009-01-03" });
    const first = new Date(wide[0]!.t).toISOString().slice(0, 10);
    const start = new Date(wide[0]!.t - 400 * 86_400_000).toISOString().slice(0, 10);
    const r = await call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "btc", startDate: start, endDate: "2025-12-01" });
    expect(textOf(r)).toContain(`coverage: data from ${first}; the range asked starts ${start} (the series starts there)`);
    expect(textOf(r)).toMatch(/\d+ % of the range asked has data/);
  });

  // The market has happened up to now (12:00:00): the 12:00 hour has not begun, so the hourly
  // series ends with the complete 11:00 bucket, and the day's bucket is the partial one.
  it("marks a last bucket that runs past now as partial", async () => {
    const hourly = await call("get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1h", startDate: "2025-12-27" });
    expect(digestOf(hourly).last[0]).toBe("2025-12-28T11:00Z");
    expect(textOf(hourly)).not.toContain("partial");
    const daily = await call("get_ohlcv", { metric: "derivatives/Volume_usd", asset: "btc", timeframe: "1d", startDate: "2025-12-01" });
    const d = digestOf(daily);
    // The day still filling is named apart; the last complete day is the last the statistics read.
    expect(d.last[0]).toBe("2025-12-27");
    expect(d.partialLast![0]).toBe("2025-12-28");
    expect(d.coverage.partialLastAsOf).toBe("2025-12-28T12:00Z");
    expect(textOf(daily)).toMatch(
      /the bucket 2025-12-28 is still filling: \$[\d.]+[KMB]? with data up to 2025-12-28 12:00 UTC, left out of every statistic and window/,
    );
    const rows = await records("derivatives/Volume_usd", "btc", { timeframe: "1d", startDate: "2025-12-01" });
    close6(
      d.windows["7d"]!.sum!,
      rows.slice(-8, -1).reduce((a, b) => a + b.v, 0),
    );
    // A daily metric for today is either the value so far (then said to be partial) or absent.
    const metric = await call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", startDate: "2025-12-01" });
    if (digestOf(metric).last[0] === "2025-12-28") {
      expect(textOf(metric)).toContain("last bucket (2025-12-28) is partial: data up to 2025-12-28 12:00 UTC, its value is as of then");
    } else expect(textOf(metric)).not.toContain("partial");
  });
});

describe("resample", () => {
  it("sums a flow into UTC weeks from Monday, marking a partial first week, for the same credit", async () => {
    const args = { metric: "derivatives/Volume_usd", asset: "btc", startDate: "2025-10-01" };
    const r = await call("get_ohlcv", { ...args, resample: "1w" });
    const rows = await records(args.metric, "btc", { startDate: args.startDate });
    const d = digestOf(r);
    expect(d.resample).toMatchObject({ period: "1w", rule: "sum", partialFirst: true, sourceCount: rows.length });
    const weeks = new Map<number, number>();
    for (const { t, v } of rows) {
      const monday = t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000;
      weeks.set(monday, (weeks.get(monday) ?? 0) + v);
    }
    const points = pointsOf(d);
    expect(points.map((p) => p.t)).toEqual([...weeks.keys()]);
    // The points carry the text's numbers: a 200th of their range.
    const sums = [...weeks.values()];
    const resolution = (Math.max(...sums) - Math.min(...sums)) / 200;
    points.forEach((p, i) => expect(Math.abs(p.v - sums[i]!)).toBeLessThanOrEqual(resolution));
    expect(textOf(r)).toMatch(
      /^\d+ points, statistics from the complete ones; the points shown are \d+ weekly buckets \(UTC weeks from Monday, dated by their first day; each the sum of its points\), 2025-10-01 → .*first and last bucket partial/m,
    );
    // The statistics are those of every day served, as without resample.
    const plain = digestOf(await call("get_ohlcv", args));
    const stats = (x: Digest) => ({ ...x, resample: undefined, points: undefined, sampling: undefined });
    expect(stats(d)).toEqual(stats(plain));
    expect((r.structuredContent as { credits: { charged: number } }).credits.charged).toBe(1);
    expect(encode(textOf(r)).length).toBeLessThanOrEqual(1_500);
  });

  it("keeps the last value of each calendar month for a level", async () => {
    const r = await call("get_series", { metric: "exchange_flow/exchange_reserve", asset: "eth", resample: "1M" });
    const rows = await records("exchange_flow/exchange_reserve", "eth");
    const months = new Map<string, number>();
    for (const { t, v } of rows) months.set(new Date(t).toISOString().slice(0, 7), v);
    const d = digestOf(r);
    const points = pointsOf(d);
    expect(points.map((p) => new Date(p.t).toISOString().slice(0, 7))).toEqual([...months.keys()]);
    const levels = [...months.values()];
    const resolution = (Math.max(...levels) - Math.min(...levels)) / 200;
    points.forEach((p, i) => expect(Math.abs(p.v - levels[i]!)).toBeLessThanOrEqual(resolution));
    const text = textOf(r);
    expect(text).toContain("monthly buckets (UTC calendar months; each its last point's value)");
    const last = new Date(points.at(-1)!.t).toISOString();
    expect(text.trimEnd().split("\n").at(-3)).toMatch(new RegExp(`^${last.slice(0, 7)} [\\d.]+[MBT]?$`));
  });

  it("refuses a value it does not know, naming the field, charging nothing", async () => {
    const r = await call("get_series", { metric: "lifespan/Lth_mvrv", asset: "btc", resample: "1d" });
    expect(r.isError).toBe(true);
    expect(errorOf(r)).toMatchObject({ code: "invalid_arguments", parameter: "resample" });
    expect(textOf(r)).toContain("resample must be");
    expect(textOf(r)).toMatch(/nothing was charged/i);
  });
});
