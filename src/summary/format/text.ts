// Untrusted-text hygiene: upstream strings (names, labels) are data, never layout or instructions.

/** C0/C1 controls and line/paragraph separators: they could fake new lines in our text. */
const LAYOUT_CONTROLS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u0085]/g;

/**
 * Invisible format characters: zero-width marks, bidi embeddings/overrides/isolates, word joiners,
 * BOM, interlinear annotations and Unicode tag characters (used to smuggle hidden text to models).
 */
const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/gu;

/** Half of a surrogate pair without its partner (what String#toWellFormed replaces; ES2024). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const DEFAULT_TEXT_MAX = 256;

/**
 * NFC-normalized, well-formed text with controls turned into spaces, invisible/bidi characters
 * removed, whitespace collapsed, and at most `max` code points (an ellipsis marks a cut).
 */
export function sanitizeText(input: unknown, max: number = DEFAULT_TEXT_MAX): string {
  if (!(max >= 1)) return "";
  const raw = typeof input === "string" ? input : input === null || input === undefined ? "" : String(input);
  const text = raw
    .replace(LONE_SURROGATE, "\uFFFD")
    .normalize("NFC")
    .replace(LAYOUT_CONTROLS, " ")
    .replace(INVISIBLE, "")
    .replace(/\s+/g, " ")
    .trim();
  const limit = Math.floor(max);
  if (text.length <= limit) return text;
  const points = Array.from(text);
  if (points.length <= limit) return text;
  return `${points
    .slice(0, limit - 1)
    .join("")
    .trimEnd()}…`;
}
