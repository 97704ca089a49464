// The ext-apps quickstart's pattern: the app's own App, connected with its default transport.
import { App } from "@modelcontextprotocol/ext-apps";

const serverTime = document.getElementById("server-time")!;
const status = document.getElementById("status")!;
const errors: string[] = [];
(window as any).appErrors = errors;

const app = new App({ name: "Get Time App", version: "1.0.0" }, { tools: { listChanged: true } });
app.onerror = (e) => errors.push(String(e?.message ?? e));

app.ontoolresult = (result) => {
  const text = result.content?.find((c) => c.type === "text");
  serverTime.textContent = text && "text" in text ? text.text : "[ERROR]";
};
app.onhostcontextchanged = (ctx) => {
  if (ctx.theme) status.dataset.theme = ctx.theme;
};
app.registerTool("app_echo", { description: "Echo from the app's own client." }, async () => ({ content: [{ type: "text", text: "echo from App" }] }));

document.getElementById("get-time-btn")!.addEventListener("click", async () => {
  const result = await app.callServerTool({ name: "get-time", arguments: {} });
  const text = result.content?.find((c) => c.type === "text");
  serverTime.textContent = text && "text" in text ? text.text : "[ERROR]";
});

// A tool on document.modelContext too: it must reach the host beside the App's own.
(document as any).modelContext.registerTool({
  name: "page_tool",
  description: "Registered on document.modelContext.",
  inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 1 } } },
  execute: ({ n = 1 }: { n?: number }) => `page tool ${n}`,
});

app.connect().then(
  () => (status.textContent = "connected to " + app.getHostVersion()?.name),
  (e) => (status.textContent = "failed: " + e.message),
);

// For the tests: what the App's client shows, and a click on its button.
(document as any).modelContext.registerTool({
  name: "app_state",
  description: "What the page shows.",
  execute: () => ({ serverTime: serverTime.textContent, status: status.textContent, errors }),
});
(document as any).modelContext.registerTool({
  name: "click_get_time",
  description: "Click the button and wait for the server's time.",
  execute: async () => {
    serverTime.textContent = "asking";
    document.getElementById("get-time-btn")!.click();
    for (let i = 0; i < 100 && serverTime.textContent === "asking"; i++) await new Promise((r) => setTimeout(r, 20));
    return serverTime.textContent;
  },
});
