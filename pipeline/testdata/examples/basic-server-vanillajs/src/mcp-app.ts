import { App } from "@modelcontextprotocol/ext-apps";
import type { CallToolResult } from "@modelcontextprotocol/core";
import "./mcp-app.css";

function extractTime(result: CallToolResult): string {
  const text = result.content?.find((c) => c.type === "text");
  return text && "text" in text ? text.text : "[ERROR]";
}

const root = document.getElementById("app")!;
root.innerHTML = `
  <main class="main">
    <h1>Get Time</h1>
    <p class="notice">Watch activity in the DevTools console!</p>
    <div class="action">
      <p><strong>Server Time:</strong> <code id="server-time">Loading...</code></p>
      <button id="get-time-btn">Get Server Time</button>
    </div>
    <div class="action">
      <textarea id="message-text">This is message text.</textarea>
      <button id="send-message-btn">Send Message</button>
    </div>
  </main>`;
const mainEl = root.querySelector<HTMLElement>(".main")!;
const serverTimeEl = root.querySelector<HTMLElement>("#server-time")!;
const messageText = root.querySelector<HTMLTextAreaElement>("#message-text")!;

const app = new App({ name: "Get Time App (Vanilla JS)", version: "1.0.0" });
app.ontoolresult = (result) => {
  serverTimeEl.textContent = extractTime(result);
};
app.onhostcontextchanged = (ctx) => {
  if (ctx.theme) mainEl.classList.toggle("dark", ctx.theme === "dark");
};
app.onerror = console.error;

root.querySelector("#get-time-btn")!.addEventListener("click", async () => {
  try {
    serverTimeEl.textContent = extractTime(await app.callServerTool({ name: "get-time", arguments: {} }));
  } catch (e) {
    console.error(e);
    serverTimeEl.textContent = "[ERROR]";
  }
});
root.querySelector("#send-message-btn")!.addEventListener("click", () =>
  app.sendMessage({ role: "user", content: [{ type: "text", text: messageText.value }] }),
);

app.connect().then(() => {
  const ctx = app.getHostContext();
  if (ctx?.theme) mainEl.classList.toggle("dark", ctx.theme === "dark");
});
