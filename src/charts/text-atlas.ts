// A chart's texts for resvg, packed tight. Moving an 800 × 500 layer out of resvg costs more than
// drawing the text on it, and a chart's text covers a tenth of that: each text is drawn at an
// integer offset into its own slot of a small atlas (same sub-pixel position, so the same pixels)
// and copied back to its place.

/** A rectangle in pixels (x0 < x1, y0 < y1). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export type TextAnchor = "start" | "middle" | "end";

export interface ChartText {
  /** The `<text>` element as the chart places it. */
  svg: string;
  /** Pixels its glyphs can reach, whole pixels, with room to spare. */
  extent: Box;
  /**
   * Everything that decides the text's pixels within its extent (content, style, size, anchor and
   * its position relative to the extent's corner): two texts with one key draw the same pixels.
   */
  key: string;
}

/**
 * A text at (x, y) (baseline), `size` px, anchored as SVG's text-anchor; `rest` is the element's
 * remaining attributes, its closing `>` and its content. The extent assumes no glyph advances more
 * than 1 em (true of Inter's Latin, digits and arrows), so it holds without measuring the text.
 */
export function chartText(x: number, y: number, size: number, anchor: TextAnchor, text: string, rest: string): ChartText {
  const anchorAttr = anchor === "start" ? "" : ` text-anchor="${anchor}"`;
  const width = [...text].length * size;
  const left = anchor === "start" ? x : anchor === "end" ? x - width : x - width / 2;
  const extent = {
    x0: Math.floor(left - 3),
    y0: Math.floor(y - 1.2 * size - 2),
    x1: Math.ceil(left + width + 3),
    y1: Math.ceil(y + 0.4 * size + 2),
  };
  return {
    svg: `<text x="${x}" y="${y}" font-size="${size}"${anchorAttr} ${rest}</text>`,
    extent,
    key: `${x - extent.x0} ${y - extent.y0} ${size} ${anchor} ${text} ${rest}`,
  };
}

export interface Atlas {
  width: number;
  height: number;
  /** The atlas's content: each text moved into its slot. */
  body: string;
  /** Where each text's extent lies in the atlas (same size as the extent), in the order given. */
  slots: Array<{ from: Box; x: number; y: number }>;
}

/** Shelf packing, tallest first, into rows at most `maxWidth` wide; a wider text gets its own row. */
export function packTexts(texts: ChartText[], maxWidth: number): Atlas {
  const order = texts.map((t, i) => i).sort((a, b) => h(texts[b]!.extent) - h(texts[a]!.extent));
  const slots: Atlas["slots"] = new Array(texts.length);
  const parts: string[] = [];
  let x = 0,
    y = 0,
    rowH = 0,
    width = 0;
  for (const i of order) {
    const e = texts[i]!.extent;
    const w = e.x1 - e.x0;
    if (x > 0 && x + w > maxWidth) {
      y += rowH;
      x = 0;
      rowH = 0;
    }
    slots[i] = { from: e, x, y };
    parts.push(`<g transform="translate(${x - e.x0} ${y - e.y0})">${texts[i]!.svg}</g>`);
    x += w;
    width = Math.max(width, x);
    rowH = Math.max(rowH, h(e));
  }
  return { width: Math.max(1, width), height: Math.max(1, y + rowH), body: parts.join(""), slots };
}

const h = (b: Box) => b.y1 - b.y0;
