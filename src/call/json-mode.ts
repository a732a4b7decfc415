// JSON as `call` writes it: keys sorted (the same bytes for the same result, whatever order a tool
// builds its object in), and whether a command line asked for errors as JSON (--format json or
// --batch), read from the raw tokens so that even a configuration error answers in JSON. No
// imports: the CLI's entry loads this before it knows which command runs.

export function wantsJson(argv: readonly string[]): boolean {
  if (!argv.includes("call")) return false;
  return argv.some(
    (t, i) => t === "--batch" || t.startsWith("--batch=") || t === "--format=json" || (t === "--format" && argv[i + 1] === "json"),
  );
}

/**
 * JSON with object keys sorted at every level (but the outermost when `keepRootOrder`, so an
 * envelope can lead with its line number); `indent` 0 gives one line.
 */
export function stableJson(value: unknown, indent = 0, keepRootOrder = false): string {
  return JSON.stringify(
    value,
    function (this: unknown, key, v: unknown) {
      if (!v || typeof v !== "object" || Array.isArray(v) || (keepRootOrder && key === "" && v === value)) return v;
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    },
    indent || undefined,
  );
}

/** The `{"error": {...}}` document written to stderr in JSON mode. */
export function errorJson(error: { code: string; message: string; exit_code: number } & Record<string, unknown>): string {
  return `${stableJson({ error: { retryable: false, ...error } })}\n`;
}
