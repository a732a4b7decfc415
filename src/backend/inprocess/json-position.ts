// Where a JSON text first breaks the grammar, as line and column: a parse error can then be
// reported without quoting the text (V8's messages quote it, and a keys file holds secrets).

/** A recursive-descent walk of the JSON grammar that throws the offset where the text breaks it. */
class Scan {
  i = 0;
  constructor(private readonly text: string) {}

  fail(): never {
    throw this.i;
  }

  ws(): void {
    const { text } = this;
    while (this.i < text.length && " \t\n\r".includes(text[this.i]!)) this.i++;
  }

  value(): void {
    const { text } = this;
    this.ws();
    const c = text[this.i];
    // Objects and arrays stay in this frame (not a helper's): one frame per level of nesting.
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      this.i++;
      this.ws();
      if (text[this.i] === close) return void this.i++;
      for (;;) {
        if (c === "{") {
          this.ws();
          if (text[this.i] !== '"') this.fail();
          this.string();
          this.ws();
          if (text[this.i] !== ":") this.fail();
          this.i++;
        }
        this.value();
        this.ws();
        if (text[this.i] === ",") {
          this.i++;
          continue;
        }
        if (text[this.i] === close) return void this.i++;
        this.fail();
      }
    }
    if (c === '"') return this.string();
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(this.i, this.i + 400));
    if (!m) this.fail();
    this.i += m![0].length;
  }

  string(): void {
    const { text } = this;
    this.i++;
    while (this.i < text.length) {
      const ch = text.charCodeAt(this.i);
      if (ch === 0x22) return void this.i++;
      if (ch < 0x20) this.fail();
      if (ch === 0x5c) {
        const e = text[this.i + 1];
        if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6))) this.i += 6;
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
        else {
          this.i++;
          this.fail();
        }
      } else this.i++;
    }
    this.fail();
  }
}

/** Offset of the first character that is not valid JSON (text.length when the text ends too early). */
export function jsonErrorOffset(text: string): number {
  const scan = new Scan(text);
  try {
    scan.value();
    scan.ws();
    if (scan.i < text.length) scan.fail();
    return text.length;
  } catch (at) {
    // A stack overflow on absurd nesting still has a position: where the scan had got to.
    return typeof at === "number" ? at : scan.i;
  }
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}
