// Echoed input made harmless to display: Unicode format and control characters (bidi overrides and
// isolates, zero-width joiners, C0/C1 controls, tag characters) written as \u escapes, the way JSON
// already writes NUL, so text a caller sent cannot reorder or hide what a host shows around it.

/** Everything escaped but tab, line feed and carriage return (layout our own text uses). */
const FORMAT_AND_CONTROL =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/gu;
const LAYOUT = /[\t\n\r]/g;

const escape = (c: string): string => {
  const code = c.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
};

/** `text` with format and control characters escaped; `layout: true` escapes tab and line breaks too (for a value quoted inline). */
export function escapeFormat(text: string, options: { layout?: boolean } = {}): string {
  const out = text.replace(FORMAT_AND_CONTROL, escape);
  return options.layout ? out.replace(LAYOUT, escape) : out;
}
