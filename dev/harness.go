package dev

// harnessPage is the reference host: it frames the app, speaks the host half of
// sdk/PROTOCOL.md with origins pinned both ways and every message checked, and lets the author
// do what an assistant would. CONFIG is replaced with the app's URL and origin.
const harnessPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bundle dev</title><link rel="icon" href="data:,">
<style>
:root{color-scheme:light dark;font:13px/1.4 system-ui,sans-serif}
body{margin:0;display:grid;grid-template-columns:1fr 420px;height:100vh}
#stage{position:relative;overflow:auto;background:repeating-conic-gradient(#8881 0 25%,#0000 0 50%) 0 0/16px 16px;padding:12px}
#frame{display:block;border:1px solid #8888;background:Canvas;width:640px;height:480px}
#overlay{position:absolute;inset:12px;background:#300e;color:#fdd;padding:16px;white-space:pre-wrap;font:12px/1.4 ui-monospace,monospace;overflow:auto;display:none}
#overlay.on{display:block}
#runtime{position:absolute;inset:auto 12px 12px 12px;max-height:60%;background:#320e;color:#fed;padding:12px 16px;white-space:pre-wrap;font:12px/1.4 ui-monospace,monospace;overflow:auto;display:none;cursor:pointer}
#runtime.on{display:block}
aside{overflow:auto;border-left:1px solid #8886;padding:8px 10px}
h2{font-size:12px;text-transform:uppercase;letter-spacing:.05em;margin:14px 0 4px;color:#888}
.tool{border:1px solid #8886;border-radius:6px;padding:6px;margin:6px 0}
.tool b{font-family:ui-monospace,monospace}
textarea{width:100%;box-sizing:border-box;font:12px ui-monospace,monospace;height:3.2em}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0;font:12px ui-monospace,monospace}
#log{font:11px ui-monospace,monospace;max-height:30vh;overflow:auto}
#log div{border-bottom:1px solid #8883}
#approval{display:none;border:2px solid #c80;border-radius:6px;padding:8px;margin:6px 0}
#approval.on{display:block}
#bar{height:6px;background:#8884;border-radius:3px;overflow:hidden}#bar i{display:block;height:100%;background:#3a3}
.err{color:#c33}
</style></head><body>
<div id="stage"><iframe id="frame" sandbox="allow-scripts allow-same-origin allow-forms allow-popups"></iframe><div id="overlay"></div><div id="runtime" title="click to dismiss"></div></div>
<aside>
<div id="status">building…</div><div id="bar"><i></i></div><div id="size"></div>
<h2>Host</h2>
<label>theme <select id="theme"><option>light</option><option>dark</option></select></label>
<label>locale <input id="locale" value="en-US" size="6"></label>
<label>size <input id="width" value="640" size="4">×<input id="height" value="480" size="4"></label>
<h2>Tools</h2><div id="approval"><div id="ask"></div><button id="allow">Allow</button> <button id="deny">Deny</button></div><div id="tools"></div>
<h2>Context</h2><button id="getctx">ui/get-context</button><pre id="context"></pre>
<h2>Selection</h2><pre id="selection">—</pre>
<h2>Replay</h2><button id="replayInput">tool-input</button> <button id="replayResult">tool-result</button>
<h2>Bridge log</h2><div id="log"></div>
</aside>
<script>
(() => {
const cfg = CONFIG;
const $ = (id) => document.getElementById(id);
const frame = $("frame");
let nextId = 1, last = { called: false, args: {}, result: null }, tools = [];
// ready: the frame's document has made its handshake; replay: it was reloaded by a rebuild,
// and gets the last tool input and result again.
let ready = false, replay = false;
const pending = new Map();
const log = (dir, m) => { const d = document.createElement("div"); d.textContent = dir + " " + JSON.stringify(m).slice(0, 400); $("log").prepend(d); };
const send = (m) => { log("→", m); frame.contentWindow.postMessage(m, cfg.appOrigin); };
const request = (method, params, ms = 10000) => new Promise((resolve) => {
  const id = "dev-" + nextId++;
  pending.set(id, resolve);
  send({ jsonrpc: "2.0", id, method, params });
  setTimeout(() => { if (pending.delete(id)) resolve({ error: { code: -1, message: "no answer in " + ms + " ms" } }); }, ms);
});
const notify = (method, params) => send({ jsonrpc: "2.0", method, params });
const hostContext = () => ({ theme: $("theme").value, locale: $("locale").value, displayMode: "inline", availableDisplayModes: ["inline", "fullscreen", "pip"],
  containerDimensions: { width: +$("width").value, maxHeight: +$("height").value }, platform: "web" });

// A subset of JSON Schema, as the SDK checks it: the harness refuses what the app would.
function check(schema, v, path) {
  if (!schema || typeof schema !== "object") return "";
  const type = (x) => x === null ? "null" : Array.isArray(x) ? "array" : Number.isInteger(x) ? "integer" : typeof x;
  if (schema.type) { const ts = [].concat(schema.type), t = type(v); if (!ts.includes(t) && !(t === "integer" && ts.includes("number"))) return path + ": type " + ts.join("|"); }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) return path + ": enum";
  if (typeof v === "number") { if (schema.minimum !== undefined && v < schema.minimum) return path + ": minimum " + schema.minimum; if (schema.maximum !== undefined && v > schema.maximum) return path + ": maximum " + schema.maximum; }
  if (typeof v === "string") { if (schema.minLength !== undefined && [...v].length < schema.minLength) return path + ": minLength " + schema.minLength; if (schema.maxLength !== undefined && [...v].length > schema.maxLength) return path + ": maxLength " + schema.maxLength; }
  if (Array.isArray(v) && schema.items) for (let i = 0; i < v.length; i++) { const e = check(schema.items, v[i], path + "[" + i + "]"); if (e) return e; }
  if (v && typeof v === "object" && !Array.isArray(v)) {
    for (const r of schema.required || []) if (!(r in v)) return path + "." + r + ": required";
    for (const [k, s] of Object.entries(schema.properties || {})) if (k in v) { const e = check(s, v[k], path + "." + k); if (e) return e; }
    if (schema.additionalProperties === false) for (const k of Object.keys(v)) if (!(k in (schema.properties || {}))) return path + "." + k + ": additionalProperties false";
  }
  return "";
}

// Approval: a tool that does not say it only reads waits for the person.
let approve = null;
const ask = (text) => new Promise((resolve) => { $("ask").textContent = text; $("approval").classList.add("on"); approve = resolve; });
$("allow").onclick = () => { $("approval").classList.remove("on"); approve && approve(true); };
$("deny").onclick = () => { $("approval").classList.remove("on"); approve && approve(false); };

async function listTools() {
  const r = await request("tools/list", {});
  tools = (r.result && r.result.tools) || [];
  $("tools").replaceChildren(...tools.map((t) => {
    const d = document.createElement("div"); d.className = "tool"; d.dataset.tool = t.name;
    const ro = t.annotations && t.annotations.readOnlyHint === true;
    d.innerHTML = "<b></b> <small></small><div class=desc></div><textarea spellcheck=false>{}</textarea><button>Call</button><pre class=out></pre>";
    d.querySelector("b").textContent = t.name; d.querySelector("small").textContent = ro ? "read-only" : "asks first";
    d.querySelector(".desc").textContent = t.description;
    d.querySelector("button").onclick = async () => {
      const out = d.querySelector(".out");
      let args;
      try { args = JSON.parse(d.querySelector("textarea").value || "{}"); } catch (e) { out.textContent = "invalid JSON: " + e.message; out.className = "out err"; return; }
      const bad = check(t.inputSchema, args, "arguments");
      if (bad) { out.textContent = "invalid arguments: " + bad; out.className = "out err"; return; }
      if (!ro && !(await ask("Allow " + t.name + " " + JSON.stringify(args) + "?"))) { out.textContent = "denied"; out.className = "out"; return; }
      last.called = true; last.args = args;
      const r = await request("tools/call", { name: t.name, arguments: args });
      last.result = r.result || null;
      out.className = "out" + (r.error || (r.result && r.result.isError) ? " err" : "");
      out.textContent = r.error ? "error " + r.error.code + ": " + r.error.message : (r.result.content || []).map((c) => c.text).join("\\n");
    };
    return d;
  }));
}

addEventListener("message", async (e) => {
  if (e.source !== frame.contentWindow || e.origin !== cfg.appOrigin) return;
  const m = e.data;
  if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") { log("✗", { dropped: "not JSON-RPC 2.0" }); return; }
  log("←", m);
  if (m.method === undefined) { const r = pending.get(m.id); if (r) { pending.delete(m.id); r(m); } return; }
  if (typeof m.method !== "string" || (m.params !== undefined && (typeof m.params !== "object" || m.params === null))) return;
  const answer = (result) => send({ jsonrpc: "2.0", id: m.id, result });
  const fail = (code, message) => send({ jsonrpc: "2.0", id: m.id, error: { code, message } });
  switch (m.method) {
    case "ui/initialize":
      answer({ protocolVersion: "2026-01-26", hostInfo: { name: "bundle dev", version: "1" },
        hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {},
          experimental: { "miniapp/bridge": { methods: ["ui/open-chat", "ui/request-auth-token", "ui/notifications/selection-changed", "ui/notifications/error"] } } },
        hostContext: hostContext() });
      return;
    case "ui/notifications/initialized":
      $("status").dataset.handshakes = String(+($("status").dataset.handshakes || 0) + 1);
      ready = true;
      if (replay && last.called) { notify("ui/notifications/tool-input", { arguments: last.args }); if (last.result) notify("ui/notifications/tool-result", last.result); }
      replay = false;
      listTools();
      return;
    case "bundle/dev/styled": $("status").dataset.styled = String(m.params.version); return;
    case "ui/notifications/error": runtimeError(m.params); return;
    case "notifications/tools/list_changed": listTools(); return;
    case "ui/notifications/selection-changed": $("selection").textContent = m.params.withheld ? "(withheld: too long)" : m.params.text; return;
    case "ui/notifications/size-changed": return;
    case "ui/request-display-mode": answer({ mode: "inline" }); return;
    case "ui/request-auth-token": answer({ token: "dev-token", expiresAt: Date.now() + 3600000 }); return;
    case "tools/call": case "resources/read": fail(-32603, "bundle dev has no MCP server"); return;
  }
  if (m.id !== undefined) answer({});
});

// An uncaught error the app reported, placed in its sources by bundle dev (through the
// build's source map), over the frame until clicked or the next reload.
async function runtimeError(p) {
  const message = String(p.message ?? ""), stack = String(p.stack ?? "");
  let text = "error: " + message + "\n\n" + stack;
  $("runtime").textContent = "Uncaught in the app (click to dismiss)\n\n" + text;
  $("runtime").classList.add("on");
  try {
    const r = await fetch("/stack", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ version: shown, message, stack }) });
    if (r.ok) text = (await r.json()).text;
  } catch (e) {}
  $("runtime").textContent = "Uncaught in the app (click to dismiss)\n\n" + text;
  $("runtime").classList.add("on");
}
$("runtime").onclick = () => $("runtime").classList.remove("on");

$("getctx").onclick = async () => { const r = await request("ui/get-context", {}); $("context").textContent = JSON.stringify(r.result || r.error, null, 1); };
for (const id of ["theme", "locale"]) $(id).onchange = () => notify("ui/notifications/host-context-changed", hostContext());
for (const id of ["width", "height"]) $(id).onchange = () => { frame.style.width = $("width").value + "px"; frame.style.height = $("height").value + "px"; notify("ui/notifications/host-context-changed", hostContext()); };
$("replayInput").onclick = () => notify("ui/notifications/tool-input", { arguments: last.args });
$("replayResult").onclick = () => last.result && notify("ui/notifications/tool-result", last.result);

// Builds: a build that changed only stylesheets gives the frame their new texts (bundle dev's
// client in the page puts them in place: the app keeps its state); any other reloads the
// frame, which then gets the last tool input and result again. A build that failed shows its
// diagnostics over the frame.
let shown = 0;
const reload = (v) => { $("runtime").classList.remove("on"); ready = false; replay = shown !== 0; shown = v; frame.src = cfg.app + "?v=" + v; };
new EventSource("/events").onmessage = (e) => {
  const b = JSON.parse(e.data);
  if (b.building) { $("status").textContent = "building…"; return; }
  $("overlay").textContent = b.ok ? "" : b.diagnostics;
  $("overlay").classList.toggle("on", !b.ok);
  $("status").textContent = (b.ok ? "built" : "build failed") + " #" + b.version + " in " + b.ms + " ms";
  $("status").dataset.version = String(b.version);
  if (b.ok) {
    $("bar").firstChild.style.width = Math.min(100, 100 * b.bytes / b.maxBytes) + "%";
    $("size").textContent = b.bytes + " bytes of " + (b.maxBytes / 1024) + " KB · sha256:" + b.sha256;
    if (b.version !== shown) {
      if (ready && b.base === shown && (b.same || b.styles)) {
        shown = b.version;
        if (b.styles) send({ jsonrpc: "2.0", method: "bundle/dev/styles", params: { version: b.version, edits: b.styles } });
      } else reload(b.version);
    }
  }
};
})();
</script></body></html>
`
