// Where a view finds what to draw, in order: the data inline in the result's _meta; the data read
// through view_data with the handle there, when the host lets views call server tools; else a
// coarse preview from the digest in structuredContent (the model's own figures), with a note that
// says why the detail is missing. Never a console error: a failure becomes the note.
import type { Bridge } from "./bridge.js";
import type { ToolResult } from "./shell.js";

export const VIEW_META_KEY = "io.github.crypto-metrics-mcp/view";
const VIEW_DATA_TOOL = "view_data";
/** Chunks a view reads at most (500 KB each): far above any view's data. */
const MAX_CHUNKS = 64;

export type Loaded = { view: Record<string, unknown> } | { note: string };

const PREVIEW = "a coarse preview drawn from the answer's summary.";

export async function loadViewData(result: ToolResult, bridge: Bridge, serverTools: boolean): Promise<Loaded> {
  const meta = result._meta?.[VIEW_META_KEY] as { view?: unknown; handle?: unknown } | undefined;
  if (meta?.view && typeof meta.view === "object") return { view: meta.view as Record<string, unknown> };
  if (typeof meta?.handle !== "string") return { note: `This host does not pass the chart's detail to views: ${PREVIEW}` };
  if (!serverTools) return { note: `This host does not let views load the chart's detail from the server: ${PREVIEW}` };
  try {
    let json = "";
    let offset: number | null = 0;
    for (let i = 0; offset !== null; i++) {
      if (i >= MAX_CHUNKS) throw new Error("the data did not end");
      const chunk: ToolResult = await bridge.request<ToolResult>("tools/call", {
        name: VIEW_DATA_TOOL,
        arguments: { handle: meta.handle, offset },
      });
      const s = chunk?.structuredContent as { data?: unknown; next?: unknown } | undefined;
      if (chunk?.isError || typeof s?.data !== "string") throw new Error(firstLine(chunk) || "the host returned no data");
      json += s.data;
      offset = typeof s.next === "number" ? s.next : null;
    }
    return { view: JSON.parse(json) as Record<string, unknown> };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { note: `The chart's detail could not be loaded (${why.slice(0, 160).replace(/\.$/, "")}): ${PREVIEW}` };
  }
}

function firstLine(result: ToolResult | undefined): string {
  const text = result?.content?.find((c) => c.type === "text" && typeof c.text === "string")?.text ?? "";
  return text.split("\n")[0]!.slice(0, 200);
}
