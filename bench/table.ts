// The bench's one table: rows of (metric, ours, baseline, ratio, target, ok?), judged and printed
// as a Markdown table so the same text goes to the terminal and to the README.
import type { Sandbox } from "./proc.js";
import { human } from "./stats.js";

export interface Target {
  /** What the target constrains: our figure or the ratio to the baseline. */
  on: "ours" | "ratio";
  op: "<=" | ">=";
  value: number;
  /** A tighter goal reported next to the target, not required for ok. */
  stretch?: number;
}

export interface Row {
  metric: string;
  unit: string;
  ours: number;
  baseline?: number;
  /** Says what the baseline is when the metric name does not (e.g. "1-day series"). */
  baselineNote?: string;
  /** Extra figures shown after the judged number, e.g. "min 0.8, p95 2.1". */
  oursDetail?: string;
  baselineDetail?: string;
  target?: Target;
}

/** One part of the bench: what it prints while running and the rows it measures, with its raw figures. */
export interface Section {
  name: string;
  progress: string;
  run(sandbox: Sandbox): Promise<{ rows: Row[]; detail: unknown }>;
}

export interface JudgedRow extends Row {
  ratio?: number;
  ok?: boolean;
  stretchOk?: boolean;
}

function holds(x: number, op: Target["op"], v: number): boolean {
  return op === "<=" ? x <= v : x >= v;
}

export function judge(row: Row): JudgedRow {
  const ratio = row.baseline !== undefined && row.baseline !== 0 ? row.ours / row.baseline : undefined;
  const t = row.target;
  if (!t) return { ...row, ratio };
  const x = t.on === "ours" ? row.ours : ratio;
  if (x === undefined || !Number.isFinite(x)) return { ...row, ratio, ok: false };
  const judged: JudgedRow = { ...row, ratio, ok: holds(x, t.op, t.value) };
  if (t.stretch !== undefined) judged.stretchOk = holds(x, t.op, t.stretch);
  return judged;
}

function withUnit(x: number, unit: string): string {
  return unit ? `${human(x)} ${unit}` : human(x);
}

function targetCell(row: JudgedRow): string {
  const t = row.target;
  if (!t) return "—";
  const op = t.op === "<=" ? "≤" : "≥";
  const v = t.on === "ratio" ? `${t.value}×` : withUnit(t.value, row.unit);
  const stretch = t.stretch === undefined ? "" : ` (stretch ${op} ${t.on === "ratio" ? `${t.stretch}×` : withUnit(t.stretch, row.unit)})`;
  return `${op} ${v}${stretch}`;
}

function okCell(row: JudgedRow): string {
  if (row.ok === undefined) return "";
  if (!row.ok) return "NO";
  return row.stretchOk ? "yes (stretch)" : "yes";
}

export function renderTable(rows: readonly JudgedRow[]): string {
  const header = ["metric", "ours", "baseline", "ratio", "target", "ok?"];
  const body = rows.map((r) => [
    r.metric,
    withUnit(r.ours, r.unit) + (r.oursDetail ? ` (${r.oursDetail})` : ""),
    r.baseline === undefined
      ? "—"
      : withUnit(r.baseline, r.unit) +
        ([r.baselineNote, r.baselineDetail].some(Boolean) ? ` (${[r.baselineNote, r.baselineDetail].filter(Boolean).join("; ")})` : ""),
    r.ratio === undefined ? "—" : `${r.ratio.toFixed(2)}×`,
    targetCell(r),
    okCell(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}
