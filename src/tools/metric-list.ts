// The compact "ids with units" list in get_series' description, derived from the catalog. The enum
// already spells each full id, so this names them by their last segment, grouped under each unit,
// with the commonest unit stated once as the default and shared prefixes or suffixes written with
// `*` (every token here is paid on each tools/list).
import { ENDPOINTS } from "../catalog/index.js";

/** Shorter unit labels; hashprice is listed under USD (it is USD per TH/s per day). */
const SHORT_UNITS: Record<string, string> = { "native units": "coins", "USD per TH/s per day": "USD", addresses: "count" };
const MIN_SHARED = 6;

export function metricsByUnit(): string {
  const series = ENDPOINTS.filter((e) => e.kind === "series");
  const label = (unit: string) => SHORT_UNITS[unit] ?? unit;
  const units = [...new Set(series.map((e) => label(e.unit)))];
  const listed = units.map((unit) => {
    const mine = series.filter((e) => label(e.unit) === unit).map((e) => e.segment);
    const others = series.filter((e) => label(e.unit) !== unit).map((e) => e.segment);
    return { unit, text: `${unit}: ${compress(mine, others).join(", ")}` };
  });
  // The unit whose list is longest becomes the default and is not listed.
  const longest = listed.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  return `${longest.unit} unless noted; ${listed.filter((l) => l !== longest).map((l) => l.text).join("; ")}`;
}

/** Segments sharing a prefix (else a suffix) that no segment outside the group has become `prefix*` / `*suffix`. */
export function compress(segments: readonly string[], others: readonly string[]): string[] {
  const byPrefix = merge(segments, others, (x) => x, (affix) => `${affix}*`);
  const rev = (x: string) => [...x].reverse().join("");
  const plain = byPrefix.filter((x) => !x.endsWith("*"));
  const bySuffix = merge(plain.map(rev), others.map(rev), rev, (affix) => `*${affix}`);
  return [...byPrefix.filter((x) => x.endsWith("*")), ...bySuffix].sort((a, b) => segments.findIndex((s) => matches(s, a)) - segments.findIndex((s) => matches(s, b)));
}

function matches(segment: string, entry: string): boolean {
  if (entry.endsWith("*")) return segment.startsWith(entry.slice(0, -1));
  if (entry.startsWith("*")) return segment.endsWith(entry.slice(1));
  return segment === entry;
}

function merge(items: readonly string[], others: readonly string[], back: (x: string) => string, mark: (affix: string) => string): string[] {
  const out: string[] = [];
  const done = new Set<string>();
  for (const s of items) {
    if (done.has(s)) continue;
    // The shortest prefix (at least MIN_SHARED long) that s shares with every item it shares one with.
    let shared = Infinity;
    for (const t of items) {
      if (t === s || done.has(t)) continue;
      let n = 0;
      while (n < s.length && s[n] === t[n]) n++;
      if (n >= MIN_SHARED) shared = Math.min(shared, n);
    }
    const prefix = wordBoundary(Number.isFinite(shared) ? s.slice(0, shared) : "");
    if (!prefix || others.some((o) => o.startsWith(prefix))) {
      out.push(back(s));
      continue;
    }
    for (const t of items) if (t.startsWith(prefix)) done.add(t);
    out.push(mark(back(prefix)));
  }
  return out;
}

/** Cuts a snake_case affix back to its last "_" so `*` stands for whole words. */
function wordBoundary(affix: string): string {
  const cut = affix.lastIndexOf("_");
  return cut === -1 || cut === affix.length - 1 ? affix : cut + 1 >= MIN_SHARED ? affix.slice(0, cut + 1) : "";
}
