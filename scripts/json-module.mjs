// The module a JSON file of src/ becomes in the bundle (scripts/bundle.mjs): the same value as the file,
// as read or enumerated, less the texts no code reads, written to load fast and zip small.
// test/scripts/json-module.test.ts imports what this writes and compares it with the file.

/**
 * The anchors file is also the record of where each figure came from: its texts for readers (the
 * file's and each calendar section's "about", the merge history in "generated" and "corrections",
 * the sources' texts, each asset's "from", "notes", list of sources and confidence, a calendar
 * row's closing note, a wave's or flow's "what") are read by no code, so the bundle leaves them
 * out; every figure stays, and the calendar rows keep their source numbers.
 */
export function withoutDocs(path, value) {
  if (!/[\\/]anchors\.json$/.test(path)) return value;
  const { about: _about, generated: _generated, corrections: _corrections, sources: _sources, ...rest } = value;
  for (const [key, section] of Object.entries(rest)) {
    if (key === "assets") {
      rest.assets = Object.fromEntries(
        Object.entries(section).map(([ticker, { from: _from, notes: _notes, sources: _named, confidence: _confidence, ...entry }]) => [
          ticker,
          entry,
        ]),
      );
    } else if (section && typeof section === "object" && !Array.isArray(section)) {
      const { about: _sectionAbout, ...rows } = section;
      rest[key] = NOTED.has(key)
        ? Object.fromEntries(Object.entries(rows).map(([coin, list]) => [coin, Array.isArray(list) ? list.map(withoutNote) : list]))
        : rows;
    }
  }
  return rest;
}

/** The calendar sections whose rows may close with a note ([day, value, source, "why"]) or carry a "what". */
const NOTED = new Set(["closes", "lows", "peaks", "congestion", "flows"]);

/** A calendar row without its closing note, a wave or flow without its "what". */
function withoutNote(row) {
  if (Array.isArray(row)) return row.length === 4 && typeof row[3] === "string" ? row.slice(0, 3) : row;
  if (row && typeof row === "object" && typeof row.what === "string") {
    const { what: _what, ...rest } = row;
    return rest;
  }
  return row;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function nextMonth(month) {
  const [y, m] = month.split("-").map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}

/**
 * An asset's month-keyed figures ({"2010-07": 0.07, "2010-08": 0.06, …}, monthly closes and supply) as
 * their first month and the values month by month ({"@m": "2010-07", "v": [0.07, 0.06, …]}, null for a
 * month without one): the keys are most of the text. Only where `monthsOf` gives back the same keys in
 * the same order with the same values.
 */
function asMonths(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length < 2 || !keys.every((k) => MONTH.test(k) && typeof value[k] === "number")) return value;
  const values = [];
  for (let month = keys[0], i = 0; i < keys.length; month = nextMonth(month)) {
    if (keys[i] !== month) {
      if (keys[i] < month) return value; // out of order: kept as it is
      values.push(null);
      continue;
    }
    values.push(value[keys[i++]]);
  }
  return { "@m": keys[0], v: values };
}

/** The decoder the bundle carries for `asMonths` (the same walk backwards). */
const MONTHS_OF = [
  "function monthsOf(entry) {",
  "  for (const key of Object.keys(entry)) {",
  "    const run = entry[key];",
  "    if (run === null || typeof run !== 'object' || typeof run['@m'] !== 'string') continue;",
  "    const out = {};",
  "    let [y, m] = run['@m'].split('-').map(Number);",
  "    for (const v of run.v) {",
  "      if (v !== null) out[`${y}-${String(m).padStart(2, '0')}`] = v;",
  "      if (++m > 12) { m = 1; y++; }",
  "    }",
  "    entry[key] = out;",
  "  }",
  "  return entry;",
  "}",
];

/**
 * The module's text. A JSON file imported by the program (the embedded market's anchors) becomes
 * `JSON.parse("...")` of its minified text rather than an object literal: V8 only scans a string
 * literal while compiling the module, and JSON.parse builds the objects faster than the literal's
 * code would (https://v8.dev/blog/cost-of-javascript-2019#json). A top-level member that is an object
 * of objects (the anchors' 248 assets) keeps one such text per entry, parsed on first read: a call
 * about one asset builds that asset's entry alone.
 */
export function jsonModule(path, raw) {
  const value = withoutDocs(path, raw);
  const text = (v) => JSON.stringify(JSON.stringify(v));
  const lazy = (o) =>
    o !== null &&
    typeof o === "object" &&
    !Array.isArray(o) &&
    Object.values(o).length > 16 &&
    Object.values(o).every((v) => v !== null && typeof v === "object" && !Array.isArray(v));
  if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.values(value).some(lazy)) {
    return `export default JSON.parse(${text(value)});`;
  }
  const entryText = (entry) => text(Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, asMonths(v)])));
  const members = Object.entries(value).map(
    ([k, v]) =>
      `${JSON.stringify(k)}: ${
        lazy(v)
          ? `lazyEntries({ ${Object.entries(v)
              .map(([ek, ev]) => `${JSON.stringify(ek)}: ${entryText(ev)}`)
              .join(", ")} })`
          : `JSON.parse(${text(v)})`
      }`,
  );
  return [
    ...MONTHS_OF,
    "function lazyEntries(texts) {",
    "  const out = {};",
    "  for (const key of Object.keys(texts)) {",
    "    Object.defineProperty(out, key, { enumerable: true, configurable: true, get() {",
    "      const value = monthsOf(JSON.parse(texts[key]));",
    "      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });",
    "      return value;",
    "    } });",
    "  }",
    "  return out;",
    "}",
    `export default { ${members.join(", ")} };`,
  ].join("\n");
}
