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
