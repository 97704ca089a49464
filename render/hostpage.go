package render

import "strconv"

// world is the isolated world, in every frame, where the watcher runs and the binding it
// reports through lives: page scripts cannot see either.
const world = "bundle-render"

// binding is the function the watcher calls with each report.
const binding = "__bundleRenderReport"

// watcher runs in the isolated world of every frame before the frame's own scripts. It
// reports every policy violation of its frame, and in the top frame forwards what the host
// page says (CustomEvents on its document, which no other origin can dispatch there).
const watcher = `(() => {
  const report = (o) => { try { ` + binding + `(JSON.stringify(o)); } catch (e) {} };
  document.addEventListener("securitypolicyviolation", (e) => {
    if (!e.isTrusted) return;
    report({ kind: "violation", top: window === top, directive: e.effectiveDirective, blocked: e.blockedURI,
      source: e.sourceFile, line: e.lineNumber, column: e.columnNumber, sample: e.sample, disposition: e.disposition });
  }, true);
  if (window === top) {
    document.addEventListener("bundle-render", (e) => { if (e.isTrusted === false && typeof e.detail === "string") { try { ` + binding + `(e.detail); } catch (_) {} } });
  }
})();`

// pageBinding is the function the page watcher reports through, in the main world of every
// frame. The watcher takes it and deletes it before the page's scripts run, so that they
// cannot call it (a page that found it could only report itself).
const pageBinding = "__bundleRenderPage"

// timerHorizon is how far ahead a timer the page sets counts as work it is about to do: a
// setTimeout due within it keeps the page from being judged quiet; one due later (a poll in a
// minute) does not.
const timerHorizon = 3000

// pageWatcher runs in the main world of every frame before the frame's own scripts, where
// what it watches lives (an isolated world has constructors and timers of its own). It
// reports each RTCPeerConnection the page creates (WebRTC: STUN over UDP, DNS for any name,
// which Chromium's --webrtc-ip-handling-policy already stops), in frames the page makes too;
// and, in the app's frames (not the host page), how many of the page's timers are due within
// timerHorizon: setTimeout until it fires, setInterval until its first tick.
var pageWatcher = `(() => {
  const report = globalThis.` + pageBinding + `;
  try { delete globalThis.` + pageBinding + `; } catch (e) {}
  if (typeof report !== "function") return;
  const send = (o) => { try { report(JSON.stringify(o)); } catch (e) {} };
  const hooked = new WeakSet();
  const hook = (w) => {
    if (!w || hooked.has(w)) return;
    hooked.add(w);
    for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection"]) {
      const Real = w[name];
      if (typeof Real !== "function") continue;
      const Watched = new Proxy(Real, { construct(target, args, newTarget) {
        let servers = [];
        try { servers = ((args[0] && args[0].iceServers) || []).flatMap((s) => [].concat(s && s.urls || [])).map(String).slice(0, 5); } catch (e) {}
        send({ kind: "webrtc", text: name, servers });
        return Reflect.construct(target, args, newTarget === Watched ? target : newTarget);
      } });
      try { Object.defineProperty(w, name, { value: Watched, writable: true, configurable: true }); } catch (e) {}
    }
  };
  hook(window);
  // A frame the page makes has constructors of its own: hook them as the page reaches it.
  try {
    for (const [proto, prop] of [[HTMLIFrameElement.prototype, "contentWindow"], [HTMLIFrameElement.prototype, "contentDocument"], [HTMLObjectElement.prototype, "contentWindow"]]) {
      const d = Object.getOwnPropertyDescriptor(proto, prop);
      Object.defineProperty(proto, prop, { ...d, get() { const v = d.get.call(this); try { hook(prop === "contentDocument" ? v && v.defaultView : v); } catch (e) {} return v; } });
    }
  } catch (e) {}
  if (window === top) return;
  const due = new Map();
  let told = 0, queued = false;
  const tell = () => { queued = false; if (due.size !== told) { told = due.size; send({ kind: "timers", n: told }); } };
  const later = () => { if (!queued) { queued = true; queueMicrotask(tell); } };
  const st = setTimeout, si = setInterval, ct = clearTimeout, ci = clearInterval;
  const track = (real, once) => function (fn, ms, ...rest) {
    if (typeof fn !== "function" || !((+ms || 0) <= ` + strconv.Itoa(timerHorizon) + `)) return real.call(this, fn, ms, ...rest);
    const id = real.call(this, function () { due.delete(id); later(); return fn.apply(this, arguments); }, ms, ...rest);
    due.set(id, true);
    later();
    return id;
  };
  const untrack = (real) => function (id) { if (due.delete(id)) later(); return real.call(this, id); };
  window.setTimeout = track(st, true);
  window.setInterval = track(si, false);
  window.clearTimeout = untrack(ct);
  window.clearInterval = untrack(ci);
})();`

// hostPage frames the app and speaks the host half of the protocol (sdk/PROTOCOL.md): it
// answers ui/initialize, waits for ui/notifications/initialized, lists the tools, makes each
// call, and answers what the app asks. It checks source and origin on every message and posts
// only to the app's origin. CONFIG is replaced with the render's settings.
const hostPage = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>bundle render</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:Canvas;color-scheme:light dark}iframe{display:block;width:100%;height:100%;border:0}</style>
</head><body><script>
(() => {
  const cfg = CONFIG;
  const emit = (kind, data) => document.dispatchEvent(new CustomEvent("bundle-render", { detail: JSON.stringify({ kind, ...data }) }));
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox");
  frame.src = cfg.app;
  let next = 1, initialized = false;
  const pending = new Map();
  const send = (m) => frame.contentWindow.postMessage(m, cfg.appOrigin);
  const answer = (m, result) => send({ jsonrpc: "2.0", id: m.id, result });
  const fail = (m, code, message) => send({ jsonrpc: "2.0", id: m.id, error: { code, message } });
  const request = (method, params, ms) => new Promise((resolve) => {
    const id = "render-" + next++;
    pending.set(id, resolve);
    send({ jsonrpc: "2.0", id, method, params });
    setTimeout(() => { if (pending.delete(id)) resolve({ timeout: true }); }, ms);
  });
  const extensions = ["ui/open-chat", "ui/notifications/selection-changed", "ui/notifications/error"];
  let names = new Set(), listChanged = false, onChange = null;
  const list = async () => {
    const r = await request("tools/list", {}, cfg.callTimeout);
    emit("tools", { response: r });
    names = new Set(((r.result && r.result.tools) || []).map((t) => t.name));
  };
  const changed = (ms) => new Promise((resolve) => {
    onChange = (v) => { onChange = null; resolve(v); };
    setTimeout(() => { if (onChange) onChange(false); }, ms);
  });
  addEventListener("message", async (e) => {
    if (e.source !== frame.contentWindow || e.origin !== cfg.appOrigin) return;
    const m = e.data;
    if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") { emit("oddity", { text: "the app posted a message that is not JSON-RPC 2.0" }); return; }
    if (m.method === undefined) {
      const resolve = pending.get(m.id);
      if (resolve) { pending.delete(m.id); resolve(m); }
      return;
    }
    switch (m.method) {
      case "ui/initialize":
        emit("initialize", { params: m.params });
        answer(m, { protocolVersion: "2026-01-26", hostInfo: { name: "bundle render", version: "1" },
          hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, experimental: { "miniapp/bridge": { methods: extensions } } },
          hostContext: { theme: cfg.theme, displayMode: "inline", availableDisplayModes: cfg.displayModes, platform: "web", locale: "en-US",
            containerDimensions: { width: cfg.width, maxHeight: cfg.height } } });
        return;
      case "ui/notifications/initialized":
        if (initialized) return;
        initialized = true;
        emit("initialized", {});
        await list();
        for (const c of cfg.calls) {
          // A tool registered after the app loaded (once its data is ready) is announced by
          // tools/list_changed, as a host hears it: wait for it, up to 2 s (a third of the
          // page's time when that is shorter), then call anyway.
          const end = Date.now() + Math.min(2000, cfg.callTimeout / 3);
          while (!names.has(c.tool) && Date.now() < end && (listChanged || await changed(end - Date.now()))) {
            listChanged = false;
            await list();
          }
          emit("call", { tool: c.tool, arguments: c.arguments, response: await request("tools/call", { name: c.tool, arguments: c.arguments }, cfg.callTimeout) });
        }
        emit("done", {});
        return;
      case "notifications/tools/list_changed":
        listChanged = true;
        if (onChange) onChange(true);
        return;
      case "ui/notifications/size-changed": emit("size", { params: m.params }); return;
      case "notifications/message": emit("log", { params: m.params }); return;
      case "ui/notifications/error": emit("apperror", { params: m.params }); return;
      case "tools/call": case "resources/read":
        emit("server", { method: m.method, params: m.params });
        if (m.id !== undefined) fail(m, -32603, "bundle render has no MCP server to send " + m.method + " to");
        return;
      case "ui/request-display-mode": answer(m, { mode: "inline" }); return;
      case "ping": case "ui/open-link": case "ui/message": case "ui/update-model-context": case "ui/open-chat":
        if (m.id !== undefined) answer(m, {});
        return;
    }
    if (m.id !== undefined) fail(m, -32601, "bundle render does not answer " + m.method);
  });
  document.body.append(frame);
})();
</script></body></html>
`
