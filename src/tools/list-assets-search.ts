// list_assets' search: tickers by ticker or name, endpoints by word start or synonym, and the
// concepts the catalog does not offer; a query that cannot match anything is told so plainly.
import {
  assetName,
  assetsByName,
  editDistance,
  ENDPOINTS,
  KNOWN_ASSETS,
  metricsBySynonym,
  missingConcepts,
  PRICE,
} from "../catalog/index.js";
import { escapeFormat } from "../echo.js";
import { ToolInputError } from "../mcp/errors.js";
import { closest, TOOL_OF_KIND } from "../mcp/lookup.js";
import { COLUMNS, type Output, rows } from "./list-assets-output.js";

const SEARCH_LIMIT = 40;

/** The text a search reads: trimmed, lower case, without a cashtag's "$"; an empty one is refused. */
export function searchQuery(search: string): string {
  const query = search
    .trim()
    .toLowerCase()
    .replace(/^\$(?=[a-z0-9])/, "");
  if (!query)
    throw new ToolInputError(
      "invalid_arguments",
      "search is empty: give a ticker (btc), a name (bitcoin) or a metric word (mvrv), or omit search for the overview.",
      { parameter: "search" },
    );
  return query;
}

export function searchView(query: string): { text: string; structured: Output } {
  // Tickers, names and endpoint ids are written in Latin letters and digits: a query with none
  // matches nothing, and no ticker is "near" it.
  if (!/[a-z0-9]/.test(query)) {
    const script = /\p{L}/u.test(query) ? "Tickers, names and metrics are written in Latin letters" : "It holds no letter or digit";
    return {
      text: `Nothing matches "${escapeFormat(query, { layout: true })}". ${script}: search by ticker (btc), name (bitcoin) or metric word (mvrv, fees, supply).`,
      structured: { view: "search", columns: COLUMNS, endpoints: rows([]), assets: [] },
    };
  }
  const named = new Set(assetsByName(query));
  const rank = (a: string) => (a === query ? 0 : named.has(a) ? 1 : a.startsWith(query) ? 2 : 3);
  const tickers = KNOWN_ASSETS.filter((a) => a.includes(query) || named.has(a)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const synonyms = new Set(metricsBySynonym(query));
  // At the start of a word: "ust" is not a match for "adjusted".
  const atWord = new RegExp(`(^|[^a-z0-9])${query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
  const endpoints = [...ENDPOINTS, PRICE].filter(
    (e) => atWord.test(e.id.toLowerCase()) || atWord.test(e.purpose.toLowerCase()) || synonyms.has(e.id),
  );
  const shown = tickers.slice(0, SEARCH_LIMIT);
  const withName = (t: string) => {
    const name = assetName(t);
    return name && name.toLowerCase() !== t ? `${t} (${name})` : t;
  };
  const missing = missingConcepts(query);
  const lines = [
    ...missing.map((c) => `Not offered: ${c.concept}. Nearest: ${c.nearest} — ${c.differs}.`),
    `Tickers matching "${escapeFormat(query, { layout: true })}" by ticker or name (${tickers.length}): ${shown.map(withName).join(", ") || "none"}${tickers.length > shown.length ? ", …" : ""}`,
    `Endpoints (${endpoints.length}): ${endpoints.map((e) => `${e.id} (${TOOL_OF_KIND[e.kind]})`).join(", ") || "none"}`,
  ];
  // A concept is not a misspelt ticker; and a ticker is proposed only when it is one letter off.
  if (!tickers.length && !endpoints.length && !missing.length && query.length >= 2 && /^[a-z0-9_]+$/.test(query)) {
    const near = closest(query, KNOWN_ASSETS).filter((t) => editDistance(query, t) <= (query.length >= 7 ? 2 : 1));
    if (near.length) lines.push(`Nearest tickers: ${near.join(", ")}.`);
  }
  return {
    text: lines.join("\n"),
    structured: {
      view: "search",
      columns: COLUMNS,
      endpoints: rows(endpoints),
      assets: shown,
      ...(missing.length && { not_offered: missing.map(({ concept, nearest, differs }) => ({ concept, nearest, differs })) }),
    },
  };
}
