// A host built on the official MCP Apps host SDK: AppBridge, with a transport that pins the
// frame's origin both ways (the SDK's own PostMessageTransport posts with "*").
import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";

type Msg = Record<string, unknown>;

class PinnedTransport {
  onmessage?: (m: Msg) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  private listener = (e: MessageEvent) => {
    if (e.source !== this.win || e.origin !== this.origin) return;
    (window as any).received.push(e.data);
    this.onmessage?.(e.data);
  };
  constructor(private win: Window, private origin: string) {}
  async start() {
    window.addEventListener("message", this.listener);
  }
  async send(m: Msg) {
    this.win.postMessage(m, this.origin);
  }
  async close() {
    window.removeEventListener("message", this.listener);
    this.onclose?.();
  }
}

const appURL = new URL(new URLSearchParams(location.search).get("app")!);
const frame = document.createElement("iframe");
frame.src = appURL.href;
(window as any).received = [];
document.body.append(frame);

const bridge = new AppBridge(null, { name: "ext-host", version: "1.0.0" }, { openLinks: {} }, { hostContext: { theme: "light" } });
let resolveReady: () => void;
const ready = new Promise<void>((r) => (resolveReady = r));
bridge.oninitialized = () => resolveReady();
bridge.connect(new PinnedTransport(frame.contentWindow!, appURL.origin) as any);

(window as any).ext = {
  ready,
  appInfo: () => bridge.getAppVersion(),
  appCapabilities: () => bridge.getAppCapabilities(),
  listTools: () => bridge.listTools({}),
  callTool: (name: string, args: Record<string, unknown>) => bridge.callTool({ name, arguments: args }),
  sendToolInput: (args: Record<string, unknown>) => bridge.sendToolInput({ arguments: args }),
  sendToolResult: (text: string) => bridge.sendToolResult({ content: [{ type: "text", text }] }),
  sendHostContext: (theme: "light" | "dark") => bridge.sendHostContextChange({ theme }),
};
