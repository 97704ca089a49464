// A host built on the official MCP Apps host SDK: AppBridge, with a transport that pins the
// frame's origin both ways (the SDK's own PostMessageTransport posts with "*").
//
// ?app=URL frames the app directly; ?slow=MS makes it take MS to get to each ui/initialize. With ?proxy=URL it takes basic-host's layout instead: the
// frame is a sandbox proxy on another origin, which announces itself with
// ui/notifications/sandbox-proxy-ready, receives the app's HTML (fetched from ?src=PATH on this
// origin) in ui/notifications/sandbox-resource-ready, and relays every other message.
import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";

type Msg = Record<string, any>;
const w = window as any;
const q = new URLSearchParams(location.search);
const slow = +(q.get("slow") ?? 0);
w.received = [] as Msg[];
w.logs = [] as unknown[];

class PinnedTransport {
  onmessage?: (m: Msg) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  private listener = (e: MessageEvent) => {
    if (e.source !== this.win || e.origin !== this.origin) return;
    w.received.push(e.data);
    // ?slow=MS: a host under load, which takes MS to get to each ui/initialize.
    if (e.data?.method === "ui/initialize" && slow) setTimeout(() => this.onmessage?.(e.data), slow);
    else this.onmessage?.(e.data);
  };
  constructor(
    private win: Window,
    private origin: string,
  ) {}
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

const proxy = q.get("proxy");
const frameURL = new URL(proxy ?? q.get("app")!);
const frame = document.createElement("iframe");
frame.src = frameURL.href;
w.appendedAt = performance.now();
document.body.append(frame);

const bridge = new AppBridge(
  null,
  { name: "ext-host", version: "1.0.0" },
  { openLinks: {}, serverTools: {}, logging: {} },
  { hostContext: { theme: "light", availableDisplayModes: ["inline", "fullscreen"] } },
);
let resolveReady: () => void;
const ready = new Promise<void>((r) => (resolveReady = r));
// As a host that lists tools the moment the app says it is initialized (AppBridge does not act
// on tools/list_changed).
bridge.oninitialized = async () => {
  w.initializedMs = performance.now() - w.appendedAt;
  w.toolsAtInit = (await bridge.listTools({})).tools.map((t: { name: string }) => t.name);
  resolveReady();
};
bridge.oncalltool = async (params) => ({ content: [{ type: "text", text: `server ${params.name} at 12:00` }] });
bridge.onloggingmessage = (params) => w.logs.push(params.data);
if (proxy) {
  bridge.onsandboxready = async () => {
    const html = await (await fetch(q.get("src")!)).text();
    await bridge.sendSandboxResourceReady({ html });
  };
}
bridge.connect(new PinnedTransport(frame.contentWindow!, frameURL.origin) as any);

w.ext = {
  ready,
  appInfo: () => bridge.getAppVersion(),
  appCapabilities: () => bridge.getAppCapabilities(),
  listTools: () => bridge.listTools({}),
  callTool: (name: string, args: Record<string, unknown>) => bridge.callTool({ name, arguments: args }),
  sendToolInput: (args: Record<string, unknown>) => bridge.sendToolInput({ arguments: args }),
  sendToolResult: (text: string) => bridge.sendToolResult({ content: [{ type: "text", text }] }),
  sendHostContext: (theme: "light" | "dark") => bridge.sendHostContextChange({ theme }),
  count: (method: string) => w.received.filter((m: Msg) => m.method === method).length,
};
