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
