// CSV as `call` prints it: the records a call read, the same rows its resource serves.
import type { BackendResult } from "../backend/types.js";
import { type Endpoint, endpointById } from "../catalog/index.js";
import { VARIATION_FIELDS } from "../catalog/responses.js";
import type { Fetched } from "../library/session.js";

type Cell = string | number | boolean | null | undefined;

interface Table {
  columns: string[];
  rows: Cell[][];
}

function cell(value: Cell | Cell[]): string {
  if (Array.isArray(value)) return cell(value.join(" "));
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csv(table: Table): string {
  const lines = [table.columns.map((c) => cell(c)).join(",")];
  for (const row of table.rows) lines.push(row.map((v) => cell(v)).join(","));
  return `${lines.join("\n")}\n`;
}

/** Columns of an endpoint's records when there are none to read them from. */
function recordColumns(endpoint: Endpoint | undefined): string[] {
  if (!endpoint) return [];
  if (endpoint.kind === "variation") return [...VARIATION_FIELDS];
  return ["time", endpoint.field];
}

/** The records of one backend result as a table, or undefined when it has none (a heatmap matrix). */
export function tableOf(request: Fetched["request"], result: BackendResult): Table | undefined {
  // Price: the candles are the table (a metrics-variation's candles are extra beside its records).
  if (result.kind === "candles") {
    const candles = result.candles;
    const rows: Cell[][] = [];
    for (let i = 0; i < candles.times.length; i++) {
      rows.push([new Date(candles.times[i]!).toISOString(), candles.open[i]!, candles.high[i]!, candles.low[i]!, candles.close[i]!]);
    }
    return { columns: ["time", "open", "high", "low", "close"], rows };
  }
  const body = result.body as unknown;
  if (!Array.isArray(body)) return undefined;
  const records = body as Array<Record<string, Cell | Cell[]>>;
  const columns = records.length ? Object.keys(records[0]!) : recordColumns(endpointById(request.endpoint));
  return { columns, rows: records.map((r) => columns.map((c) => r[c] as Cell)) as Cell[][] };
}

/**
 * One CSV for a call: its one table, or, for a call that read several series (compare), one row per
 * time with a column per series, named by what tells them apart (asset, field, or both).
 */
export function csvOfCall(fetched: readonly Fetched[]): string | undefined {
  const tables = fetched.map((f) => ({ f, table: tableOf(f.request, f.result) })).filter((t) => t.table !== undefined) as Array<{
    f: Fetched;
    table: Table;
  }>;
  if (tables.length === 0) return undefined;
  if (tables.length === 1) return csv(tables[0]!.table);
  const assets = new Set(tables.map((t) => t.f.request.asset));
  const endpoints = new Set(tables.map((t) => t.f.request.endpoint));
  const label = ({ request }: Fetched) => {
    const metric = endpointById(request.endpoint)?.field ?? request.endpoint;
    if (endpoints.size === 1) return request.asset;
    return assets.size === 1 ? metric : `${request.asset}:${metric}`;
  };
  const columns = ["time"];
  const byTime = new Map<string, Cell[]>();
  let offset = 0;
  const width = tables.reduce((n, t) => n + t.table.columns.length - 1, 0);
  for (const { f, table } of tables) {
    const name = label(f);
    const values = table.columns.slice(1);
    columns.push(...values.map((c) => (values.length === 1 ? name : `${name}_${c}`)));
    for (const row of table.rows) {
      const time = String(row[0]);
      let joined = byTime.get(time);
      if (!joined) byTime.set(time, (joined = new Array<Cell>(width).fill(undefined)));
      for (let j = 1; j < row.length; j++) joined[offset + j - 1] = row[j];
    }
    offset += values.length;
  }
  const times = [...byTime.keys()].sort();
  return csv({ columns, rows: times.map((t) => [t, ...byTime.get(t)!]) });
}
