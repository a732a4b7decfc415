// The view's side of MCP Apps (ext-apps specification 2026-01-26): JSON-RPC 2.0 over postMessage
// with the host: ui/initialize, then tool input/result notifications in, tools/call and size
// changes out. Small enough to write by hand rather than ship an SDK in every view.

type Params = Record<string, unknown> | undefined;
type Handler = (params: Params) => void;

interface RpcMessage {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

export interface HostContext {
  theme?: "light" | "dark";
  styles?: { variables?: Record<string, string | undefined> };
  containerDimensions?: { width?: number; height?: number; maxWidth?: number; maxHeight?: number };
  displayMode?: string;
}

export class Bridge {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly handlers = new Map<string, Handler>();

  constructor(private readonly target: Window = window.parent) {
    window.addEventListener("message", (event) => {
      if (event.source !== this.target) return;
      this.receive(event.data as RpcMessage);
    });
  }

  on(method: string, handler: Handler): void {
    this.handlers.set(method, handler);
  }

  request<T>(method: string, params: Record<string, unknown>, timeoutMs = 60_000): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer from the host in ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v as T)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.target.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
    });
  }

  notify(method: string, params: Record<string, unknown>): void {
    this.target.postMessage({ jsonrpc: "2.0", method, params }, "*");
  }

  private receive(msg: RpcMessage): void {
    if (!msg || typeof msg !== "object" || msg.jsonrpc !== "2.0") return;
    if (msg.method === undefined) {
      const waiting = typeof msg.id === "number" ? this.pending.get(msg.id) : undefined;
      if (!waiting) return;
      this.pending.delete(msg.id as number);
      if (msg.error) waiting.reject(new Error(msg.error.message || `error ${msg.error.code}`));
      else waiting.resolve(msg.result);
      return;
    }
    const handler = this.handlers.get(msg.method);
    if (msg.id !== undefined) {
      // Requests from the host (ping, ui/resource-teardown) want an answer; nothing here keeps state.
      const known = handler !== undefined || msg.method === "ping" || msg.method === "ui/resource-teardown";
      this.target.postMessage(
        known
          ? { jsonrpc: "2.0", id: msg.id, result: {} }
          : { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `method not found: ${msg.method}` } },
        "*",
      );
    }
    handler?.(msg.params);
  }

  /** The handshake: ui/initialize, then ui/notifications/initialized. */
  async connect(name: string): Promise<{ context: HostContext; serverTools: boolean }> {
    const result = await this.request<{ hostContext?: HostContext; hostCapabilities?: { serverTools?: unknown } }>("ui/initialize", {
      appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
      appInfo: { name, version: "1.0.0" },
      protocolVersion: "2026-01-26",
    });
    this.notify("ui/notifications/initialized", {});
    // A host that does not grant serverTools refuses a view's tools/call: the view then asks nothing of it.
    return { context: result?.hostContext ?? {}, serverTools: !!result?.hostCapabilities?.serverTools };
  }
}
