// Where a view's full data travels: never in the fields a model reads. Small data rides in the
// result's _meta; larger data is fetched by the view through view_data, an app-only tool, with a
// signed handle from that _meta. A handle holds no server memory: any instance with the same secret
// answers it, from its recent answers or by replaying the charged call uncharged.
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { LRUCache } from "lru-cache";
import { z } from "zod";

import { decorate } from "../backend/decorate.js";
import { type Backend, type BackendContext, type BackendRequest, ServiceError } from "../backend/types.js";
import type { ChartView } from "../charts/model/types.js";
import { errorResult, ToolInputError } from "../mcp/errors.js";
import { callerTag, contentSha, signHandle, verifyHandle, ViewHandleError } from "../mcp/view-handle.js";
import type { Tool } from "./define-tool.js";
import { inputJsonSchema, type ListedTool, outputJsonSchema } from "./listing.js";
import { parseArgs } from "./validation.js";

/** The result `_meta` member a view reads its data from (namespaced, as MCP asks of extensions' keys). */
export const VIEW_META_KEY = "io.github.crypto-metrics-mcp/view";
export const VIEW_DATA_TOOL = "view_data";
/**
 * Data up to this size goes inline in `_meta`: ≤ 8k tokens even for dense numbers (~2.2 bytes a
 * token), survivable on a host that leaks `_meta` to the model.
 */
export const INLINE_MAX_BYTES = 16 * 1024;
/** A view_data answer carries at most this much of the data. */
export const CHUNK_BYTES = 500_000;
/**
 * How long a handle is honoured: the simulation replays any past answer exactly, so a view reopened
 * later still loads; the real service's answers are replayed from its response cache only.
 */
const HANDLE_TTL_MS = { inprocess: 24 * 3_600_000, http: 10 * 60_000 } as const;

export interface ViewStore {
  /** The key handles are signed with (shared by every instance that should answer them). */
  secret(): Buffer;
  /** Recent answers' view data by handle: the common case, the view loading right after its result. */
  readonly recent: LRUCache<string, string>;
}

/** The view as JSON with every non-ASCII character escaped: its length in characters is its size in bytes. */
export function viewJson(view: ChartView): string {
  return JSON.stringify(view).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export interface ViewCall {
  tool: string;
  args: Record<string, unknown>;
  asOfMs: number;
  /** The caller's key, or the configured one the call ran with. */
  key: string | undefined;
  backendKind: Backend["kind"];
}

/** The `_meta` entry of a drawn answer: the data itself when small, else a handle to load it by. */
export function viewMeta(store: ViewStore, view: ChartView, call: ViewCall): Record<string, unknown> {
  const json = viewJson(view);
  if (json.length <= INLINE_MAX_BYTES) return { view, bytes: json.length };
  const secret = store.secret();
  const expiresMs = Date.now() + HANDLE_TTL_MS[call.backendKind];
  const handle = signHandle(secret, {
    tool: call.tool,
    args: call.args,
    asOfMs: call.asOfMs,
    caller: callerTag(secret, call.key),
    expiresMs,
    bytes: json.length,
    sha: contentSha(json),
  });
  store.recent.set(handle, json);
  return { handle, bytes: json.length, chunkBytes: CHUNK_BYTES, expires: new Date(expiresMs).toISOString() };
}

export const viewDataInput = z
  .object({
    handle: z.string().min(1).max(8_192).describe("The handle in the result's _meta"),
    offset: z.number().int().min(0).optional().describe("Byte offset of the chunk; default 0"),
  })
  .strict();

export const viewDataOutput = z.object({
  offset: z.number().int(),
  total: z.number().int(),
  next: z.number().int().nullable(),
  data: z.string(),
});

export interface ViewDataContext {
  store: ViewStore;
  backend: Backend;
  call: BackendContext;
  /** The caller's key, or the configured one: a handle is honoured for the caller it was made for. */
  key: string | undefined;
  /** The tools a handle may name. */
  tools: readonly Tool[];
}

/** The view_data tool: one chunk of a handle's data; nothing is charged, whatever happens. */
export async function viewData(raw: unknown, context: ViewDataContext): Promise<CallToolResult> {
  try {
    const args = parseArgs(VIEW_DATA_SHAPE, raw);
    const secret = context.store.secret();
    const claim = verifyHandle(secret, args.handle, callerTag(secret, context.key), Date.now());
    let json = context.store.recent.get(args.handle);
    if (json === undefined) context.store.recent.set(args.handle, (json = await replay(claim, context)));
    const offset = args.offset ?? 0;
    if (offset >= json.length)
      throw new ToolInputError(
        "invalid_arguments",
        `${VIEW_DATA_TOOL}: offset ${offset} is past the end of this view's data (${json.length} bytes): start at 0 and follow "next".`,
        { parameter: "offset" },
      );
    const data = json.slice(offset, offset + CHUNK_BYTES);
    const end = offset + data.length;
    const next = end < json.length ? end : null;
    const text = `View data, bytes ${offset}–${end} of ${json.length}${next === null ? "" : `; next offset ${next}`}. For the view; not charged.`;
    return { content: [{ type: "text", text }], structuredContent: { offset, total: json.length, next, data } };
  } catch (error) {
    const cause =
      error instanceof ViewHandleError
        ? new ToolInputError("invalid_arguments", `${VIEW_DATA_TOOL}: ${error.message}.`, { parameter: "handle" })
        : error;
    return errorResult(cause, { tool: VIEW_DATA_TOOL, secret: context.key });
  }
}

/** view_data as a tool object, for argument validation with the same messages as every tool. */
const VIEW_DATA_SHAPE = { name: VIEW_DATA_TOOL, input: viewDataInput } as unknown as Tool<typeof viewDataInput>;

/** The charged call run again, as of its own time and uncharged; its view must be the bytes the handle names. */
async function replay(claim: ReturnType<typeof verifyHandle>, context: ViewDataContext): Promise<string> {
  const tool = context.tools.find((t) => t.name === claim.tool && t.view !== undefined);
  const replaying = context.backend.replay;
  if (!tool || !replaying)
    throw new ToolInputError("invalid_arguments", `${VIEW_DATA_TOOL}: the handle names nothing this server can load.`, {
      parameter: "handle",
    });
  // The tool's reads are replays as of the charged call's "now"; closing is the server's business.
  const backend = decorate(context.backend, {
    fetch: (request: BackendRequest, call?: BackendContext) => replaying.call(context.backend, request, claim.asOfMs, call),
    close: async () => undefined,
  });
  let out: Awaited<ReturnType<Tool["handle"]>>;
  try {
    out = await tool.handle(parseArgs(tool, claim.args), { backend, call: context.call, ui: true, wantView: true });
  } catch (error) {
    // The real service's answer has left the cache: the one thing a replay cannot do is ask again.
    if (error instanceof ServiceError && error.status === 410) throw changed();
    throw error;
  }
  const json = out.view ? viewJson(out.view) : "";
  if (json.length !== claim.bytes || contentSha(json) !== claim.sha) throw changed();
  return json;
}

function changed(): ToolInputError {
  return new ToolInputError(
    "invalid_arguments",
    `${VIEW_DATA_TOOL}: the data behind this handle is no longer held as it was answered: ask for the chart again (a new tool call).`,
    { parameter: "handle" },
  );
}

/**
 * view_data as listed to clients that render views: app-only (hosts keep it from the model and
 * let only views call it), so it costs the model's context nothing.
 */
export function viewDataListing(): ListedTool {
  return {
    name: VIEW_DATA_TOOL,
    title: "Chart view data",
    description: "For the chart views only: one chunk of a result's full chart data, by the handle in its _meta. Not charged.",
    inputSchema: inputJsonSchema(viewDataInput),
    _meta: { ui: { visibility: ["app"] } },
    outputSchema: outputJsonSchema(viewDataOutput),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}
