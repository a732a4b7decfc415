// Browser side of the official ext-apps host (AppBridge, @modelcontextprotocol/ext-apps): the view
// in an iframe, its tool calls forwarded to the test's MCP client through window.hostCallTool.
// Bundled by harness/app-bridge-host.ts for the page; never part of the product.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface Start {
  html: string;
  args: Record<string, unknown>;
  result: Record<string, unknown>;
  context: Record<string, unknown>;
}

declare global {
  interface Window {
    startAppBridge(opts: Start): Promise<void>;
    hostCallTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
    __sizes: Array<{ width?: number; height?: number }>;
    __calls: Array<{ name: string; arguments: Record<string, unknown> }>;
  }
}

window.__sizes = [];
window.__calls = [];
window.startAppBridge = async (opts: Start) => {
  const frame = document.getElementById("view") as HTMLIFrameElement;
  const bridge = new AppBridge(
    null,
    { name: "appbridge-test-host", version: "1.0.0" },
    { serverTools: {} },
    {
      hostContext: opts.context as never,
    },
  );
  bridge.oncalltool = async (params) => {
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    window.__calls.push({ name: params.name, arguments: args });
    return (await window.hostCallTool(params.name, args)) as never;
  };
  bridge.onsizechange = (size) => void window.__sizes.push(size);
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: opts.args });
    void bridge.sendToolResult(opts.result as never);
  };
  // Listening before the view loads: its ui/initialize is the first thing it sends.
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = opts.html;
};
