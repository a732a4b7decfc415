// Default answers of every tool and timeframe over the largest assets and a stablecoin, measured in
// o200k tokens (text, and JSON.stringify(structuredContent) as hosts without the text forward it):
// the worst per tool and timeframe. The bench reports it in full; the budget test runs a sample.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer";

import { covers, type Endpoint, ENDPOINTS, PRICE_ID, TIMEFRAMES } from "../src/catalog/index.js";
import { RANK_WINDOWS } from "../src/tools/rank-args.js";

/** The 20 largest assets by market value at the end of 2025 (stablecoins aside), then a stablecoin. */
export const LARGEST_ASSETS = [
  "btc", "eth", "xrp", "bnb", "sol", "trx", "doge", "ada", "hype", "link",
  "bch", "xlm", "sui", "avax", "ltc", "hbar", "shib", "ton", "dot", "uni",
] as const; // prettier-ignore
export const STABLECOIN = "usdt";

export interface SizedCall {
  tool: string;
  /** "1d", "4h"…; "-" where the tool has no timeframe. */
  timeframe: string;
  args: Record<string, unknown>;
}

export interface Worst {
  tool: string;
  timeframe: string;
  text: number;
  structured: number;
  /** The arguments of the answer with the most text tokens, and of the one with the most structured tokens. */
  textArgs: Record<string, unknown>;
  structuredArgs: Record<string, unknown>;
  /** The largest structured / text ratio, and the arguments of that answer. */
  ratio: number;
  ratioArgs: Record<string, unknown>;
  calls: number;
}

const byKind = (kind: Endpoint["kind"]) => ENDPOINTS.filter((e) => e.kind === kind);

/** Every default call of every tool and timeframe over `assets` (only where the metric covers the asset). */
export function defaultCalls(assets: readonly string[]): SizedCall[] {
  const calls: SizedCall[] = [];
  const add = (tool: string, timeframe: string, args: Record<string, unknown>) => calls.push({ tool, timeframe, args });
  add("list_assets", "-", {});
  for (const e of [...byKind("series"), ...byKind("ohlcv")].slice(0, 4)) add("list_assets", "-", { metric: e.id });
  for (const asset of assets) {
    add("list_assets", "-", { asset });
    add("get_metrics_variation", "-", { asset });
    for (const e of byKind("series")) if (covers(e, asset)) add("get_series", "1d", { metric: e.id, asset });
    for (const timeframe of TIMEFRAMES) {
      for (const e of byKind("ohlcv")) if (covers(e, asset)) add("get_ohlcv", timeframe, { metric: e.id, asset, timeframe });
      add("get_ohlcv", timeframe, { metric: PRICE_ID, asset, timeframe });
      add("get_liquidation_heatmap", timeframe, { asset, timeframe });
    }
  }
  const top8 = assets.filter((a) => a !== STABLECOIN).slice(0, 8);
  for (const timeframe of TIMEFRAMES) {
    add("compare", timeframe, { metric: PRICE_ID, assets: top8, timeframe });
    add("compare", timeframe, { metric: "derivatives/Volume_usd", assets: top8, timeframe });
  }
  // rank_assets over its default universe (the 50 largest): every window, by change and by value.
  for (const window of RANK_WINDOWS) {
    add("rank_assets", window, { window });
    add("rank_assets", window, { window, by: "value" });
  }
  add("rank_assets", "30d", { metric: "exchange_flow/exchange_reserve", window: "30d" });
  for (const asset of assets.slice(0, 4))
    add("compare", "1d", { asset, metrics: [PRICE_ID, "lifespan/Lth_mvrv", "exchange_flow/exchange_reserve", "market/metcalfe_ratio"] });
  return calls;
}

export const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** Tokens of one answer: the text, and the structured content as JSON. */
export function answerTokens(r: CallToolResult): { text: number; structured: number } {
  return { text: countTokens(textOf(r)), structured: countTokens(JSON.stringify(r.structuredContent ?? {})) };
}

/** Calls each one (in turn: answers are deterministic), skipping errors, and keeps the worst per tool and timeframe. */
export async function worstAnswers(
  calls: readonly SizedCall[],
  call: (tool: string, args: Record<string, unknown>) => Promise<CallToolResult>,
): Promise<{ worst: Worst[]; errors: Array<SizedCall & { text: string }> }> {
  const worst = new Map<string, Worst>();
  const errors: Array<SizedCall & { text: string }> = [];
  for (const c of calls) {
    const r = await call(c.tool, c.args);
    if (r.isError) {
      errors.push({ ...c, text: textOf(r).slice(0, 200) });
      continue;
    }
    const t = answerTokens(r);
    const key = `${c.tool} ${c.timeframe}`;
    const w = worst.get(key) ?? {
      tool: c.tool,
      timeframe: c.timeframe,
      text: 0,
      structured: 0,
      textArgs: {},
      structuredArgs: {},
      ratio: 0,
      ratioArgs: {},
      calls: 0,
    };
    w.calls++;
    if (t.text > w.text) Object.assign(w, { text: t.text, textArgs: c.args });
    if (t.structured > w.structured) Object.assign(w, { structured: t.structured, structuredArgs: c.args });
    if (t.structured / t.text > w.ratio) Object.assign(w, { ratio: t.structured / t.text, ratioArgs: c.args });
    worst.set(key, w);
  }
  return { worst: [...worst.values()], errors };
}
