import { App, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import type { CallToolResult } from "@modelcontextprotocol/core";
import { createSignal, onMount, Show } from "solid-js";
import styles from "./mcp-app.module.css";

function extractTime(result: CallToolResult): string {
  const text = result.content?.find((c) => c.type === "text");
  return text && "text" in text ? text.text : "[ERROR]";
}

export function GetTimeApp(props: { title?: string }) {
  const app = new App({ name: "Get Time App (Solid)", version: "1.0.0" });
  const [serverTime, setServerTime] = createSignal("Loading...");
  const [hostContext, setHostContext] = createSignal<McpUiHostContext | undefined>();
  const [messageText, setMessageText] = createSignal("This is message text.");

  app.ontoolresult = (result) => setServerTime(extractTime(result));
  app.onhostcontextchanged = (ctx) => setHostContext((prev) => ({ ...prev, ...ctx }));
  app.onerror = console.error;

  async function handleGetTime() {
    try {
      setServerTime(extractTime(await app.callServerTool({ name: "get-time", arguments: {} })));
    } catch (e) {
      console.error(e);
      setServerTime("[ERROR]");
    }
  }

  async function handleSendMessage() {
    await app.sendMessage({ role: "user", content: [{ type: "text", text: messageText() }] });
  }

  onMount(async () => {
    await app.connect();
    setHostContext(app.getHostContext());
  });

  return (
    <main class={styles.main} classList={{ [styles.dark]: hostContext()?.theme === "dark" }}>
      <h1>{props.title ?? "Get Time"}</h1>
      <p class={styles.notice}>Watch activity in the DevTools console!</p>
      <div class={styles.action}>
        <p>
          <strong>Server Time:</strong> <code id="server-time">{serverTime()}</code>
        </p>
        <button onClick={handleGetTime}>Get Server Time</button>
      </div>
      <div class={styles.action}>
        <textarea value={messageText()} onInput={(e) => setMessageText(e.currentTarget.value)} />
        <button onClick={handleSendMessage}>Send Message</button>
      </div>
      <Show when={hostContext()?.theme}>
        <p>Theme: {hostContext()?.theme}</p>
      </Show>
    </main>
  );
}
