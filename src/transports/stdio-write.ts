// One JSON-RPC message written to stdout as a line, its long base64 strings (a PNG, a view's
// matrix) going out as chunks of their own instead of being copied into the message's JSON.

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * Strings at least this long that JSON writes as they are (printable ASCII, no quote or backslash:
 * base64) go out as chunks of their own, never copied into the message's JSON: a PNG's 140 KB of
 * base64 in a message whose text holds one character beyond Latin-1 would otherwise be widened to
 * a two-byte string and transcoded back to UTF-8 on the way out (~1.6 ms and 280 KB of garbage).
 */
const RAW_MIN_CHARS = 16 * 1024;
const WRITTEN_AS_IS = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** Stands for the n-th long string in the JSON around it; no tool's text can know it. */
const PLACEHOLDER = `crypto-metrics-mcp:raw:${Math.random().toString(36).slice(2)}:`;
const PLACED = new RegExp(`"${PLACEHOLDER}(\\d+)"`, "g");

const isLong = (x: unknown): x is string => typeof x === "string" && x.length >= RAW_MIN_CHARS && WRITTEN_AS_IS.test(x);

/**
 * A copy of a result message with its long base64 strings (content blocks' `data`, embedded
 * resources' `blob`, a view's matrix `z`) replaced by numbered placeholders; the message itself is
 * not changed. Null when it has none.
 */
function takeLongStrings(message: unknown): { message: unknown; raw: string[] } | null {
  const result = isObject(message) && isObject(message.result) ? message.result : undefined;
  if (!result) return null;
  const raw: string[] = [];
  const place = (s: string) => `${PLACEHOLDER}${raw.push(s) - 1}`;
  let { content, structuredContent } = result;
  if (Array.isArray(content)) {
    content = content.map((block: unknown) => {
      if (!isObject(block)) return block;
      if (isLong(block.data)) return { ...block, data: place(block.data) };
      if (isObject(block.resource) && isLong(block.resource.blob))
        return { ...block, resource: { ...block.resource, blob: place(block.resource.blob) } };
      return block;
    });
  }
  if (isObject(structuredContent) && isObject(structuredContent.view) && isLong(structuredContent.view.z)) {
    structuredContent = { ...structuredContent, view: { ...structuredContent.view, z: place(structuredContent.view.z) } };
  }
  return raw.length === 0 ? null : { message: { ...(message as object), result: { ...result, content, structuredContent } }, raw };
}

/**
 * Writes one message as a line, its long base64 strings as chunks of their own (one writev);
 * returns what the stream's write returned (false: wait for drain).
 */
export function writeMessage(out: NodeJS.WritableStream, message: unknown): boolean {
  const taken = takeLongStrings(message);
  if (!taken) return out.write(`${JSON.stringify(message)}\n`);
  const json = JSON.stringify(taken.message);
  const chunks: string[] = [];
  let from = 0;
  for (const m of json.matchAll(PLACED)) {
    chunks.push(`${json.slice(from, m.index)}"`, taken.raw[Number(m[1])]!);
    from = m.index + m[0].length - 1;
  }
  chunks.push(`${json.slice(from)}\n`);
  const stream = out as NodeJS.WritableStream & Partial<Pick<NodeJS.WriteStream, "cork" | "uncork">>;
  stream.cork?.();
  let ok = true;
  for (const c of chunks) ok = out.write(c) && ok;
  stream.uncork?.();
  return ok;
}
