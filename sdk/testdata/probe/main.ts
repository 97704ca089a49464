import { documentId, onHostContext, onToolInput, onToolResult, registerTool, setContext } from "@miniapp/sdk";

let count = 0;
const seen: Record<string, unknown> = { toolInput: null, toolResult: null, hostContext: null };
onToolInput((p) => (seen.toolInput = p));
onToolResult((p) => (seen.toolResult = p));
onHostContext((c) => (seen.hostContext = c));

const root = document.getElementById("root")!;
root.innerHTML = `<p id="status">probe</p><a id="link" href="https://example.com/docs">docs</a>`;

registerTool({ name: "count", description: "Count the calls of this tool.", execute: () => String(++count) });
registerTool({
  name: "register_late",
  description: "Register the tool late_tool.",
  execute: async () => {
    await registerTool({ name: "late_tool", description: "Registered after the handshake.", execute: () => "late" });
    return "registered";
  },
});
registerTool({
  name: "seen",
  description: "What the host sent, and how :root looks now.",
  annotations: { readOnlyHint: true },
  execute: () => ({
    ...seen,
    theme: document.documentElement.dataset.theme ?? null,
    background: document.documentElement.style.getPropertyValue("--color-background-primary"),
  }),
});
registerTool({
  name: "env",
  description: "Which document.modelContext the SDK found.",
  execute: () => ({
    native: !!(document as any).modelContext?.[Symbol.for("test.native")],
    kind: (globalThis as any)[Symbol.for("miniapp.sdk")].modelContextKind,
    documentId,
  }),
});
registerTool({ name: "fail", description: "Throw.", execute: () => { throw new Error("it failed on purpose"); } });
registerTool({
  name: "long_description",
  description: "d".repeat(400),
  execute: () => ({ content: [{ type: "text", text: "passed through" }] }),
});
setContext(() => ({ title: "Probe", summary: "s".repeat(5000), data: { big: "x".repeat(30000) }, selection: { row: 1 } }));

// Tools that make the SDK talk to the host, for the app → host tests.
import { getAuthToken, openLink } from "@miniapp/sdk";
registerTool({
  name: "click_link",
  description: "Click the link to example.com, which the SDK must route through ui/open-link.",
  execute: () => {
    const ev = new MouseEvent("click", { bubbles: true, cancelable: true });
    document.getElementById("link")!.dispatchEvent(ev);
    return String(ev.defaultPrevented);
  },
});
registerTool({
  name: "open_bad",
  description: "Try to open a link on a host not in linkDomains.",
  execute: () => openLink("https://evil.example/").then(() => "opened", (e: Error) => "refused: " + e.message),
});
registerTool({
  name: "select",
  description: "Select the status text.",
  execute: () => {
    const r = document.createRange();
    r.selectNodeContents(document.getElementById("status")!);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(r);
    return "selected";
  },
});
registerTool({
  name: "throw_later",
  description: "Throw an uncaught error.",
  execute: () => {
    setTimeout(() => {
      throw new Error("boom from the app");
    });
    return "scheduled";
  },
});
registerTool({
  name: "grow",
  description: "Make the page taller.",
  execute: () => {
    document.getElementById("root")!.style.height = "900px";
    return "grown";
  },
});
registerTool({
  name: "token",
  description: "Ask for an auth token.",
  execute: () => getAuthToken().then((t) => "token " + t, (e: Error) => "refused: " + e.message),
});
registerTool({
  name: "subscribe_late",
  description: "Subscribe to tool-input now, after it arrived, and return what the callback gets.",
  execute: () =>
    new Promise((resolve) => {
      const off = onToolInput((p) => {
        off();
        resolve(p);
      });
      setTimeout(() => resolve("nothing"), 200);
    }),
});
registerTool({
  name: "fill_viewport",
  description: "Make the page as tall as the frame plus its margins, the shape that loops a naive size reporter.",
  execute: () => {
    document.getElementById("root")!.style.height = "";
    document.body.style.margin = "8px";
    document.body.style.minHeight = "100vh";
    return "filled";
  },
});

// Tools for the SDK's newer rows: cancellation, argument checks, shrinking, the server and
// display-mode requests, the extensions a spec host does not list, and prototype pollution.
import { callServerTool, openChat, readServerResource, requestDisplayMode, sendLog, sendMessage, updateModelContext } from "@miniapp/sdk";
let cancelledWith: unknown = "not yet";
let slowStarted = false;
registerTool({
  name: "slow",
  description: "Wait until the host cancels the call.",
  execute: (_args, { signal }) =>
    new Promise((_, reject) => {
      slowStarted = true;
      signal.addEventListener("abort", () => {
        cancelledWith = signal.reason ?? "aborted";
        reject(signal.reason);
      });
    }),
});
registerTool({ name: "slow_started", description: "Whether the slow tool runs, so a cancel can reach it.", execute: () => String(slowStarted) });
registerTool({ name: "cancelled", description: "What the slow tool's signal said.", execute: () => String(cancelledWith) });
registerTool({
  name: "order",
  description: "Order an item.",
  inputSchema: {
    type: "object",
    required: ["item", "qty"],
    additionalProperties: false,
    properties: { item: { type: "string", minLength: 1 }, qty: { type: "integer", minimum: 1, maximum: 5 }, rush: { type: "boolean" } },
  },
  execute: (args) => `ordered ${args.qty} ${args.item}`,
});
registerTool({
  name: "shrink",
  description: "Make the page short again.",
  execute: () => {
    document.getElementById("root")!.style.height = "40px";
    document.body.style.minHeight = "";
    return "shrunk";
  },
});
registerTool({ name: "polluted", description: "Whether Object.prototype was polluted.", execute: () => String(({} as any).polluted) });
registerTool({
  name: "ask_host",
  description: "Call the server through the host, read a resource, log, ask for fullscreen and for the chat.",
  execute: async () => {
    const out: Record<string, unknown> = {};
    const settle = async (k: string, p: Promise<unknown>) => (out[k] = await p.then((v) => v, (e: Error) => "refused: " + e.message));
    await settle("tool", callServerTool({ name: "get_time", arguments: { tz: "UTC" } }));
    await settle("resource", readServerResource({ uri: "ui://probe/data" }));
    await settle("log", sendLog({ level: "info", data: "hello from the app" }).then(() => "sent"));
    await settle("fullscreen", requestDisplayMode({ mode: "fullscreen" }));
    await settle("pip", requestDisplayMode({ mode: "pip" }));
    await settle("chat", openChat("Summarise the orders"));
    return out;
  },
});
registerTool({
  name: "shapes",
  description: "What the SDK's functions do with arguments of the wrong shape, and what document.modelContext has.",
  execute: async () => {
    const out: Record<string, unknown> = {};
    const mc = (document as any).modelContext;
    for (const h of ["ontoolchange", "ontoolactivated", "ontoolcancel"]) out[h] = h in mc ? mc[h] : "absent";
    const refused = async (k: string, f: () => unknown) => {
      try {
        await f();
        out[k] = "accepted";
      } catch (e) {
        out[k] = (e as Error).name + ": " + (e as Error).message;
      }
    };
    await refused("readServerResource", () => readServerResource("ui://x" as any));
    await refused("callServerTool", () => callServerTool("get_time" as any));
    await refused("callServerToolArgs", () => callServerTool({ name: "get_time", arguments: "tz=UTC" as any }));
    await refused("sendMessage", () => sendMessage({ text: "hi" } as any));
    await refused("sendLog", () => sendLog({ level: "loud", data: 1 } as any));
    await refused("requestDisplayMode", () => requestDisplayMode("fullscreen" as any));
    await refused("openChat", () => openChat(42 as any));
    await refused("openLink", () => openLink(["https://example.com"] as any));
    await refused("updateModelContext", () => updateModelContext({ content: "x" } as any));
    await refused("setContext", () => setContext("x" as any));
    await refused("onToolInput", () => onToolInput(null as any));
    await refused("registerTool", () => registerTool("x" as any));
    return out;
  },
});
// Requests made before the handshake wait for it, then go out.
sendMessage("sent before the handshake").catch(() => {});
