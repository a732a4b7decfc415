// One backend and the tools, called directly (no MCP framing): what `call`, `call --batch` and the
// library entry share. A call answers its text, its structured result and, when asked, the backend
// results it read (the full data behind the digest, for CSV).
import { createBackend } from "../backend/create.js";
import { decorate } from "../backend/decorate.js";
import type { Backend, BackendRequest, BackendResult } from "../backend/types.js";
import type { Config } from "../config.js";
import type { ErrorPayload } from "../mcp/errors.js";
import { runTool, type Tool } from "../tools/define-tool.js";

export interface Fetched {
  request: BackendRequest;
  result: BackendResult;
}

export type Outcome =
  { ok: true; text: string; structured: Record<string, unknown>; images: number; fetched: Fetched[] } | { ok: false; error: ErrorPayload };

export interface RunOptions {
  /** Keep the backend results the call read (CSV needs them; nothing else does). */
  capture?: boolean;
  signal?: AbortSignal;
  /** A key for this call instead of the configured one. */
  apiKey?: string;
}

export interface Session {
  run(tool: Tool, args: unknown, options?: RunOptions): Promise<Outcome>;
  close(): Promise<void>;
}

/** The library's function name for a tool: get_series → getSeries. */
export function methodName(toolName: string): string {
  return toolName.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

export async function openSession(config: Config): Promise<Session> {
  const backend = await createBackend(config);
  return {
    async run(tool, args, options = {}) {
      const fetched: Fetched[] = [];
      // Results are kept in the order the tool asked for them, whatever order they arrive in.
      const recording: Backend = options.capture
        ? decorate(backend, {
            async fetch(request, context) {
              const slot = fetched.push(undefined as unknown as Fetched) - 1;
              const result = await backend.fetch(request, context);
              fetched[slot] = { request, result };
              return result;
            },
          })
        : backend;
      const secret = options.apiKey ?? config.apiKey;
      const result = await runTool(tool, args, {
        backend: recording,
        call: { ...(options.signal && { signal: options.signal }), ...(options.apiKey && { apiKey: options.apiKey }) },
        ...(secret && { secret }),
      });
      const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
      if (result.isError) return { ok: false, error: structured["error"] as ErrorPayload };
      const text = result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
      const images = result.content.filter((c) => c.type === "image").length;
      return { ok: true, text, structured, images, fetched: fetched.filter(Boolean) };
    },
    close: () => backend.close(),
  };
}
