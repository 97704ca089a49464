import { App, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import type { CallToolResult } from "@modelcontextprotocol/core";
import { createRoot } from "react-dom/client";
import { useEffect, useMemo, useState } from "react";
import styles from "./mcp-app.module.css";

function extractTime(result: CallToolResult): string {
  const text = result.content?.find((c) => c.type === "text");
  return text && "text" in text ? text.text : "[ERROR]";
}

function GetTimeApp() {
  const app = useMemo(() => new App({ name: "Get Time App (React)", version: "1.0.0" }), []);
  const [serverTime, setServerTime] = useState("Loading...");
  const [hostContext, setHostContext] = useState<McpUiHostContext | undefined>();
  const [messageText, setMessageText] = useState("This is message text.");

  useEffect(() => {
    app.ontoolresult = (result) => setServerTime(extractTime(result));
    app.onhostcontextchanged = (ctx) => setHostContext((prev) => ({ ...prev, ...ctx }));
    app.onerror = console.error;
    app.connect().then(() => setHostContext(app.getHostContext()));
  }, [app]);

  const handleGetTime = async () => {
    try {
      setServerTime(extractTime(await app.callServerTool({ name: "get-time", arguments: {} })));
    } catch (e) {
      console.error(e);
      setServerTime("[ERROR]");
    }
  };

  return (
    <main className={hostContext?.theme === "dark" ? `${styles.main} ${styles.dark}` : styles.main}>
      <h1>Get Time</h1>
      <p className={styles.notice}>Watch activity in the DevTools console!</p>
      <div className={styles.action}>
        <p>
          <strong>Server Time:</strong> <code id="server-time">{serverTime}</code>
        </p>
        <button onClick={handleGetTime}>Get Server Time</button>
      </div>
      <div className={styles.action}>
        <textarea value={messageText} onChange={(e) => setMessageText(e.currentTarget.value)} />
        <button onClick={() => app.sendMessage({ role: "user", content: [{ type: "text", text: messageText }] })}>Send Message</button>
      </div>
    </main>
  );
}

createRoot(document.getElementById("app")!).render(<GetTimeApp />);
