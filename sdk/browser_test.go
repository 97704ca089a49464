package sdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/pipeline/browsertest"
)

// instrument runs in every frame before its scripts. In a framed document it replaces
// window.parent (a [Replaceable] attribute) with a proxy that records every postMessage and
// reports one sent with "*"; MessageEvent.source is mapped to the proxy, so the SDK's
// event.source === window.parent check keeps its meaning. With ?native=1 it defines a
// WebMCP-shaped document.modelContext first, as a browser would; with ?foreign=1 it puts
// something else there.
const instrument = `(() => {
  if (window !== top) {
    const real = window.parent;
    const posts = [];
    window.__posts = posts;
    const proxy = new Proxy({}, { get(_, k) {
      if (k === "postMessage") return (msg, opts, transfer) => {
        const origin = typeof opts === "string" ? opts : (opts && opts.targetOrigin) || "/";
        posts.push(origin);
        console.info("POST " + origin);
        if (origin === "*") console.error("POSTMESSAGE_STAR " + JSON.stringify(msg));
        return real.postMessage(msg, opts, transfer);
      };
      const v = real[k];
      return typeof v === "function" ? v.bind(real) : v;
    } });
    const get = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "source").get;
    Object.defineProperty(MessageEvent.prototype, "source", { configurable: true, get() { const s = get.call(this); return s === real ? proxy : s; } });
    Object.defineProperty(window, "parent", { configurable: true, get: () => proxy });
  }
  const q = new URLSearchParams(location.search);
  if (q.has("native")) {
    // As the WebMCP spec has it: getTools() resolves with listed tools (JSON copies of the
    // schema, no execute), executeTool(tool, input, { signal }) with the result as JSON text.
    const tools = new Map([["native_tool", { name: "native_tool", description: "Registered on native.", execute: () => "native" }]]);
    const mc = new EventTarget();
    mc[Symbol.for("test.native")] = true;
    mc.registerTool = async (t) => { if (tools.has(t.name)) throw new DOMException("dup", "InvalidStateError"); tools.set(t.name, t); mc.dispatchEvent(new Event("toolchange")); };
    mc.getTools = async () => [...tools.values()].map(t => ({ name: t.name, title: "", description: t.description, inputSchema: t.inputSchema === undefined ? undefined : JSON.parse(JSON.stringify(t.inputSchema)), origin: location.origin, window }))
      .concat(q.has("badnative") ? [{ name: "unsendable", description: "A schema the host cannot be sent.", inputSchema: { type: "object", big: 1n } }] : []);
    mc.executeTool = async (t, a, o) => JSON.stringify(await tools.get(t.name).execute(a, o));
    Object.defineProperty(document, "modelContext", { value: mc, configurable: true, enumerable: true });
  }
  if (q.has("foreign")) Object.defineProperty(document, "modelContext", { value: "someone else's", configurable: true });
})();`

// hostPage is a test host: it frames the app from another origin and speaks the host half of
// the protocol, checking source and origin on every message and posting only to the app's
// origin. Query parameters: app (the app's URL); spec (list no extension methods, as a host on
// MCP Apps alone); late=MS (start listening MS after the frame's load, as a host that comes
// late); slow=MS (answer each ui/initialize MS after it came, as a host under load); early
// (send a request before answering ui/initialize). A request the app does not answer within
// REQUEST_MS (testwait.Deadline, see servedHostPage) resolves with {timeout: true}.
const hostPage = `<!doctype html><meta charset="utf-8"><title>host</title><body><script>
const q = new URLSearchParams(location.search);
const appURL = new URL(q.get("app"));
const appOrigin = appURL.origin;
window.log = [];
window.handshakes = 0;
let resolveReady;
window.ready = new Promise(r => resolveReady = r);
const frame = document.createElement("iframe");
frame.src = appURL.href;
let nextId = 1;
const pending = new Map();
const send = (m) => frame.contentWindow.postMessage(m, appOrigin);
const extensions = q.has("spec") ? {} : { experimental: { "miniapp/bridge": { methods: ["ui/open-chat", "ui/request-auth-token", "ui/notifications/selection-changed", "ui/notifications/error"] } } };
function onMessage(e) {
  if (e.source !== frame.contentWindow || e.origin !== appOrigin) return;
  const m = e.data;
  log.push(m);
  if (m.method === "ui/initialize") {
    window.initParams = m.params;
    window.initId = m.id;
    if (q.has("early")) send({ jsonrpc: "2.0", id: 777, method: "tools/list", params: {} });
    window.initResult = { protocolVersion: "2026-01-26",
      hostInfo: { name: "test-host", version: "1.0.0" }, hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, ...extensions },
      hostContext: { theme: "dark", availableDisplayModes: ["inline", "fullscreen", "pip"], styles: { variables: { "--color-background-primary": "#101010" } } } };
    const slow = +q.get("slow") || 0;
    slow ? setTimeout(() => send({ jsonrpc: "2.0", id: m.id, result: initResult }), slow) : send({ jsonrpc: "2.0", id: m.id, result: initResult });
    return;
  }
  if (m.method === "ui/notifications/size-changed" && window.autoResize) {
    frame.style.height = m.params.height + "px"; // as a host that fits the frame to its content
  }
  if (m.method === "ui/notifications/initialized") {
    window.handshakes++;
    window.initializedMs = performance.now() - window.appendedAt;
    resolveReady();
    return;
  }
  if (m.method && m.id !== undefined) {
    const p = m.params || {};
    const result = m.method === "ui/request-auth-token" ? { token: "t0k3n", expiresAt: Date.now() + 3600000 }
      : m.method === "tools/call" ? { content: [{ type: "text", text: "server " + p.name + " " + JSON.stringify(p.arguments) }] }
      : m.method === "resources/read" ? { contents: [{ uri: p.uri, mimeType: "text/plain", text: "resource text" }] }
      : m.method === "ui/request-display-mode" ? { mode: p.mode }
      : {};
    send({ jsonrpc: "2.0", id: m.id, result });
    return;
  }
  if (!m.method && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
}
const late = +q.get("late") || 0;
if (late) frame.addEventListener("load", () => setTimeout(() => { window.listening = performance.now(); addEventListener("message", onMessage); }, late), { once: true });
else addEventListener("message", onMessage);
window.request = (method, params = {}, timeout = REQUEST_MS) => new Promise((resolve) => {
  const id = nextId++;
  pending.set(id, resolve);
  send({ jsonrpc: "2.0", id, method, params });
  setTimeout(() => { if (pending.delete(id)) resolve({ timeout: true }); }, timeout);
});
window.notify = (method, params = {}) => send({ jsonrpc: "2.0", method, params });
window.raw = send;
window.count = (m) => log.filter(x => x.method === m).length;
// The SDK sends ui/initialize again, the same message, until a host answers (a host that
// listens late): requests counts each request once.
window.requests = (m) => new Set(log.filter(x => x.method === m).map(x => JSON.stringify(x))).size;
window.logged = () => log.filter(x => x.method === "notifications/message").map(x => JSON.stringify(x.params.data));
window.reload = () => { window.ready = new Promise(r => resolveReady = r); window.appendedAt = performance.now(); frame.src = appURL.href + (appURL.search ? "&" : "?") + "r=" + Math.random(); };
// A second frame, same origin as this host but another window, and a third frame from a
// third origin: both try to drive the app, and both must be ignored. It resolves when both
// have loaded, so have posted to the app before anything the host posts next.
window.attack = (thirdURL) => {
  const sibling = document.createElement("iframe");
  sibling.srcdoc = "<script>parent.frames[0].postMessage({jsonrpc:'2.0',id:900,method:'tools/call',params:{name:'count'}}, '" + appOrigin + "')<\/script>";
  const third = document.createElement("iframe");
  third.src = thirdURL;
  const loaded = [sibling, third].map(f => new Promise(r => f.addEventListener("load", r, { once: true })));
  document.body.append(sibling, third);
  return Promise.all(loaded);
};
window.appendedAt = performance.now();
document.body.append(frame);
</script>`

// thirdPage runs on a third origin and posts to the app frame as an attacker would.
const thirdPage = `<!doctype html><script>
parent.frames[0].postMessage({ jsonrpc: "2.0", id: 901, method: "tools/call", params: { name: "count" } }, "*");
parent.frames[0].postMessage({ jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: { theme: "light" } }, "*");
</script>`

func buildProbe(t *testing.T, hosts string, extra ...string) []byte {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"miniapp.toml", "main.ts"} {
		b, err := os.ReadFile(filepath.Join("testdata", "probe", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "miniapp.toml" && hosts != "" {
			b = append(b, []byte("hosts = ["+hosts+"]\n")...)
		}
		if f == "miniapp.toml" {
			b = append(b, []byte(strings.Join(extra, ""))...)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	res, err := pipeline.Build(context.Background(), dir, pipeline.Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.HTML
}

type rpc struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int
		Message string
	} `json:"error"`
	Timeout bool `json:"timeout"`
}

// servedHostPage is hostPage with its request timeout set.
func servedHostPage() []byte {
	return []byte(strings.ReplaceAll(hostPage, "REQUEST_MS", strconv.FormatInt(testwait.Deadline().Milliseconds()*9/10, 10)))
}

func call(t *testing.T, b *browsertest.Browser, method, params string) rpc {
	t.Helper()
	raw := browsertest.Eval[string](t, b, `request(`+"`"+method+"`"+`, `+params+`).then(r => JSON.stringify(r))`)
	var r rpc
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatalf("%s: %v: %s", method, err, raw)
	}
	if r.Timeout {
		t.Fatalf("%s %s: no answer within %s; console: %v", method, params, testwait.Deadline(), b.Console())
	}
	return r
}

func text(t *testing.T, r rpc) string {
	t.Helper()
	var res struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	json.Unmarshal(r.Result, &res)
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "")
}

func TestBridgeInChromium(t *testing.T) {
	b := browsertest.StartWith(t, browsertest.Config{Origins: 3, SameProcessFrames: true, InitScript: instrument})
	probe := buildProbe(t, "")
	b.Serve("/probe.html", probe)
	b.Serve("/host.html", servedHostPage())
	b.Serve("/third.html", []byte(thirdPage))
	appURL := b.URL(1, "/probe.html")
	host := b.URL(0, "/host.html") + "?app=" + appURL

	open := func(t *testing.T, app string) {
		t.Helper()
		b.Visit(t, b.URL(0, "/host.html")+"?app="+url.QueryEscape(app), 0)
		if !b.Await(t, `handshakes > 0`) {
			t.Fatalf("no handshake within %s; console: %v", testwait.Deadline(), b.Console())
		}
	}

	t.Run("handshake", func(t *testing.T) {
		open(t, appURL)
		raw := browsertest.Eval[string](t, b, `JSON.stringify(initParams)`)
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
			AppInfo         struct{ Name, Version string }
			AppCapabilities struct {
				Tools        struct{ ListChanged bool } `json:"tools"`
				Experimental map[string]struct {
					DocumentID string `json:"documentId"`
				} `json:"experimental"`
			} `json:"appCapabilities"`
		}
		json.Unmarshal([]byte(raw), &p)
		if p.ProtocolVersion != "2026-01-26" || p.AppInfo.Name != "Probe" || p.AppInfo.Version != "0.1.0" || !p.AppCapabilities.Tools.ListChanged {
			t.Errorf("ui/initialize params: %s", raw)
		}
		if len(p.AppCapabilities.Experimental["miniapp/bridge"].DocumentID) != 32 {
			t.Errorf("no documentId in ui/initialize: %s", raw)
		}
		ms := browsertest.Eval[float64](t, b, `initializedMs`)
		t.Logf("frame appended → ui/notifications/initialized: %.1f ms", ms)
		// The host context of the handshake is applied to :root.
		if s := text(t, call(t, b, "tools/call", `{name: "seen"}`)); !strings.Contains(s, `"theme":"dark"`) || !strings.Contains(s, `#101010`) {
			t.Errorf("host context not applied: %s", s)
		}
	})

	t.Run("tools_list_and_call", func(t *testing.T) {
		open(t, appURL)
		r := call(t, b, "tools/list", `{}`)
		var list struct {
			Tools []struct {
				Name, Description string
				InputSchema       map[string]any `json:"inputSchema"`
			}
		}
		json.Unmarshal(r.Result, &list)
		names := map[string]int{}
		for _, tl := range list.Tools {
			names[tl.Name] = len(tl.Description)
			if tl.InputSchema["type"] != "object" {
				t.Errorf("tool %s has no object inputSchema", tl.Name)
			}
		}
		for _, want := range []string{"count", "register_late", "seen", "env", "fail"} {
			if _, ok := names[want]; !ok {
				t.Errorf("tools/list lacks %s: %s", want, r.Result)
			}
		}
		if names["long_description"] != 300 {
			t.Errorf("a 400-character description was sent as %d characters, want 300", names["long_description"])
		}
		if got := text(t, call(t, b, "tools/call", `{name: "count"}`)); got != "1" {
			t.Errorf("count = %q", got)
		}
		if got := text(t, call(t, b, "tools/call", `{name: "long_description"}`)); got != "passed through" {
			t.Errorf("a {content} result was not passed through: %q", got)
		}
		f := call(t, b, "tools/call", `{name: "fail"}`)
		if !strings.Contains(string(f.Result), `"isError":true`) || !strings.Contains(string(f.Result), "it failed on purpose") {
			t.Errorf("a throwing tool gave %s", f.Result)
		}
		if e := call(t, b, "tools/call", `{name: "nope"}`); e.Error == nil || e.Error.Code != -32602 {
			t.Errorf("an unknown tool gave %+v", e)
		}
		if e := call(t, b, "no/such/method", `{}`); e.Error == nil || e.Error.Code != -32601 {
			t.Errorf("an unknown method gave %+v", e)
		}
		if r := call(t, b, "ping", `{}`); string(r.Result) != "{}" {
			t.Errorf("ping gave %s", r.Result)
		}
	})

	t.Run("late_tool_sends_list_changed", func(t *testing.T) {
		open(t, appURL)
		before := browsertest.Eval[int](t, b, `count("notifications/tools/list_changed")`)
		call(t, b, "tools/call", `{name: "register_late"}`)
		b.Await(t, fmt.Sprintf(`count("notifications/tools/list_changed") > %d`, before))
		testwait.Quiet(100 * time.Millisecond) // and no second one for the same change
		after := browsertest.Eval[int](t, b, `count("notifications/tools/list_changed")`)
		if after != before+1 {
			t.Errorf("list_changed notifications: %d then %d, want one more", before, after)
		}
		if r := call(t, b, "tools/list", `{}`); !strings.Contains(string(r.Result), `"late_tool"`) {
			t.Errorf("late_tool is not listed: %s", r.Result)
		}
	})

	t.Run("get_context_clamps_and_withholds", func(t *testing.T) {
		open(t, appURL)
		r := call(t, b, "ui/get-context", `{}`)
		var c struct {
			Title        string `json:"title"`
			Summary      string `json:"summary"`
			Data         any    `json:"data"`
			DataWithheld bool   `json:"dataWithheld"`
			Selection    any    `json:"selection"`
		}
		json.Unmarshal(r.Result, &c)
		if c.Title != "Probe" || len(c.Summary) != 2000 || c.Data != nil || !c.DataWithheld || c.Selection == nil {
			t.Errorf("ui/get-context: title %q, summary %d chars, data %v, withheld %v, selection %v", c.Title, len(c.Summary), c.Data != nil, c.DataWithheld, c.Selection)
		}
		if !strings.Contains(strings.Join(b.Console(), "\n"), "withheld") {
			t.Errorf("the withheld data was not announced in the console: %v", b.Console())
		}
	})

	t.Run("notifications_reach_late_subscribers", func(t *testing.T) {
		open(t, appURL)
		browsertest.Eval[bool](t, b, `notify("ui/notifications/tool-input", {arguments: {q: "shoes"}}), notify("ui/notifications/tool-result", {content: [{type: "text", text: "42"}]}), notify("ui/notifications/host-context-changed", {theme: "light"}), true`)
		s := text(t, call(t, b, "tools/call", `{name: "seen"}`))
		for _, want := range []string{`"q":"shoes"`, `"text":"42"`, `"theme":"light"`} {
			if !strings.Contains(s, want) {
				t.Errorf("seen lacks %s: %s", want, s)
			}
		}
		if s := text(t, call(t, b, "tools/call", `{name: "subscribe_late"}`)); !strings.Contains(s, `"q":"shoes"`) {
			t.Errorf("a callback registered after tool-input arrived got %s, want the last tool-input", s)
		}
	})

	t.Run("other_windows_and_origins_are_ignored", func(t *testing.T) {
		open(t, appURL)
		browsertest.Eval[bool](t, b, `attack("`+b.URL(2, "/third.html")+`").then(() => true)`)
		if got := text(t, call(t, b, "tools/call", `{name: "count"}`)); got != "1" {
			t.Errorf("count = %q after two foreign calls: a message from another window or origin ran", got)
		}
		if s := text(t, call(t, b, "tools/call", `{name: "seen"}`)); !strings.Contains(s, `"theme":"dark"`) {
			t.Errorf("a third origin changed the host context: %s", s)
		}
	})

	t.Run("identify_and_reload", func(t *testing.T) {
		open(t, appURL)
		id1 := browsertest.Eval[string](t, b, `request("ui/identify").then(r => r.result.documentId)`)
		initID := browsertest.Eval[string](t, b, `initParams.appCapabilities.experimental["miniapp/bridge"].documentId`)
		if id1 == "" || id1 != initID {
			t.Errorf("ui/identify %q, ui/initialize %q", id1, initID)
		}
		browsertest.Eval[bool](t, b, `reload(), ready.then(() => true)`)
		id2 := browsertest.Eval[string](t, b, `request("ui/identify").then(r => r.result.documentId)`)
		if id2 == "" || id2 == id1 {
			t.Errorf("after a reload ui/identify gave %q, the old id was %q", id2, id1)
		}
	})

	t.Run("native_model_context_is_kept", func(t *testing.T) {
		open(t, appURL+"?native=1")
		s := text(t, call(t, b, "tools/call", `{name: "env"}`))
		if !strings.Contains(s, `"native":true`) || !strings.Contains(s, `"kind":"native"`) {
			t.Errorf("native document.modelContext was replaced: %s", s)
		}
		r := call(t, b, "tools/list", `{}`)
		if !strings.Contains(string(r.Result), `"native_tool"`) || !strings.Contains(string(r.Result), `"count"`) {
			t.Errorf("tools were not read back from native: %s", r.Result)
		}
		if got := text(t, call(t, b, "tools/call", `{name: "native_tool"}`)); got != "native" {
			t.Errorf("native_tool = %q", got)
		}
	})

	t.Run("foreign_property_warns_and_detaches", func(t *testing.T) {
		open(t, appURL+"?foreign=1")
		s := text(t, call(t, b, "tools/call", `{name: "env"}`))
		if !strings.Contains(s, `"kind":"detached"`) {
			t.Errorf("env = %s", s)
		}
		warned := 0
		for _, c := range b.Console() {
			if strings.Contains(c, "belongs to another script") {
				warned++
			}
		}
		if warned != 1 {
			t.Errorf("%d warnings about the foreign property, want 1: %v", warned, b.Console())
		}
		if r := call(t, b, "tools/list", `{}`); !strings.Contains(string(r.Result), `"count"`) {
			t.Errorf("the detached registry's tools are not listed: %s", r.Result)
		}
	})

	t.Run("strict_mode_connect_once", func(t *testing.T) {
		open(t, appURL)
		testwait.Quiet(300 * time.Millisecond) // a second connect (React's strict mode) would come by then
		if n := browsertest.Eval[int](t, b, `requests("ui/initialize")`); n != 1 {
			t.Errorf("%d ui/initialize requests in one document, want 1", n)
		}
	})

	t.Run("hosts_mismatch_stays_disconnected", func(t *testing.T) {
		b.Serve("/pinned.html", buildProbe(t, `"https://chat.example.com"`))
		b.Visit(t, b.URL(0, "/host.html")+"?app="+b.URL(1, "/pinned.html"), 0)
		// The SDK says so when it decides not to connect, and sends nothing after.
		if !testwait.For(func() bool {
			return strings.Contains(strings.Join(b.Console(), "\n"), "is not in the manifest's hosts")
		}) {
			t.Errorf("no console message says why: %v", b.Console())
		}
		testwait.Quiet(500 * time.Millisecond) // a message sent anyway would arrive by then
		if n := browsertest.Eval[int](t, b, `log.length`); n != 0 {
			t.Errorf("an app pinned to another host sent %d messages", n)
		}
	})

	t.Run("app_to_host_messages", func(t *testing.T) {
		open(t, appURL)
		if got := text(t, call(t, b, "tools/call", `{name: "click_link"}`)); got != "true" {
			t.Errorf("the click on an allowed link was not intercepted: %q", got)
		}
		if got := text(t, call(t, b, "tools/call", `{name: "open_bad"}`)); !strings.Contains(got, "refused") || !strings.Contains(got, "linkDomains") {
			t.Errorf("openLink to a host not in linkDomains: %q", got)
		}
		call(t, b, "tools/call", `{name: "select"}`)
		call(t, b, "tools/call", `{name: "throw_later"}`)
		call(t, b, "tools/call", `{name: "grow"}`)
		if got := text(t, call(t, b, "tools/call", `{name: "token"}`)); !strings.Contains(got, "refused") || !strings.Contains(got, "auth capability") {
			t.Errorf("getAuthToken without the auth capability: %q", got)
		}
		b.Await(t, `count("ui/notifications/selection-changed") > 0 && count("ui/notifications/error") > 0 && log.some(m => m.method === "ui/notifications/size-changed" && m.params.height > 800)`)
		logged := browsertest.Eval[string](t, b, `JSON.stringify(log.filter(m => m.method && m.method !== "ui/initialize"))`)
		for _, want := range []string{
			`"method":"ui/open-link","params":{"url":"https://example.com/docs"}`,
			`"method":"ui/notifications/selection-changed","params":{"text":"probe"}`,
			`"method":"ui/notifications/error","params":{"message":"Uncaught Error: boom from the app"`,
			`"method":"ui/notifications/size-changed","params":{"width":`,
		} {
			if !strings.Contains(logged, want) {
				t.Errorf("the host did not get %s:\n%s", want, logged)
			}
		}
		if strings.Contains(logged, "evil.example") || strings.Contains(logged, "ui/request-auth-token") {
			t.Errorf("a refused request reached the host: %s", logged)
		}
		heights := browsertest.Eval[string](t, b, `JSON.stringify(log.filter(m => m.method === "ui/notifications/size-changed").map(m => m.params.height))`)
		if !strings.Contains(heights, "9") {
			t.Errorf("no size-changed after the page grew: %s", heights)
		}
	})

	t.Run("no_100vh_feedback_loop", func(t *testing.T) {
		open(t, appURL)
		browsertest.Eval[bool](t, b, `autoResize = true`)
		call(t, b, "tools/call", `{name: "fill_viewport"}`)
		// Wait for the reports to stop for a while (or to pass 12, a loop), then watch a while
		// longer for another.
		n1 := browsertest.Eval[int](t, b, fmt.Sprintf(`new Promise(r => { let last = -1, since = 0; const w = () => { const n = count("ui/notifications/size-changed"); if (n !== last) { last = n; since = Date.now(); } n > 12 || Date.now() - since > %d ? r(n) : setTimeout(w, 20); }; w(); })`, testwait.Window(500*time.Millisecond).Milliseconds()))
		testwait.Quiet(time.Second)
		n2 := browsertest.Eval[int](t, b, `count("ui/notifications/size-changed")`)
		h := browsertest.Eval[int](t, b, `parseInt(document.querySelector("iframe").style.height)`)
		t.Logf("size-changed: %d once quiet, %d a second later; frame height %d px", n1, n2, h)
		if n2 != n1 || n2 > 12 {
			t.Errorf("size-changed keeps coming (%d, then %d): a 100vh page loops with a host that fits the frame", n1, n2)
		}
	})

	t.Run("auth_token", func(t *testing.T) {
		b.Serve("/auth.html", buildProbe(t, "", "[[capabilities]]\nid = \"auth\"\npurpose = \"Sign you in.\"\n"))
		open(t, b.URL(1, "/auth.html"))
		if got := text(t, call(t, b, "tools/call", `{name: "token"}`)); got != "token t0k3n" {
			t.Errorf("getAuthToken = %q", got)
		}
		if got := text(t, call(t, b, "tools/call", `{name: "token"}`)); got != "token t0k3n" {
			t.Errorf("getAuthToken again = %q", got)
		}
		if n := browsertest.Eval[int](t, b, `count("ui/request-auth-token")`); n != 1 {
			t.Errorf("%d token requests; a fresh token must be reused", n)
		}
	})

	t.Run("no_post_with_star", func(t *testing.T) {
		open(t, appURL)
		call(t, b, "tools/call", `{name: "register_late"}`)
		b.Await(t, `count("notifications/tools/list_changed") > 0`)
		posts := 0
		for _, c := range b.Console() {
			if strings.Contains(c, "POSTMESSAGE_STAR") {
				t.Errorf("a postMessage was sent with '*': %s", c)
			}
			if o, ok := strings.CutPrefix(c, "console.info: POST "); ok {
				posts++
				if o != b.Origins[0] {
					t.Errorf("the app posted to %q, want only the host's origin %q", o, b.Origins[0])
				}
			}
		}
		// The instrumentation must have seen the handshake, its notification and the replies.
		if posts < 4 {
			t.Errorf("the instrumentation saw %d posts; it is not working", posts)
		}
		_ = host
	})

	t.Run("cancelled_tool_observes_its_signal", func(t *testing.T) {
		open(t, appURL)
		browsertest.Eval[bool](t, b, `raw({jsonrpc: "2.0", id: 5001, method: "tools/call", params: {name: "slow"}}), true`)
		testwait.Until(t, "the slow tool to start", func() bool { return text(t, call(t, b, "tools/call", `{name: "slow_started"}`)) == "true" })
		browsertest.Eval[bool](t, b, `notify("notifications/cancelled", {requestId: 5001, reason: "the person stopped it"}), true`)
		if got := text(t, call(t, b, "tools/call", `{name: "cancelled"}`)); got != "the person stopped it" {
			t.Errorf("the slow tool's signal said %q, want the cancel reason", got)
		}
		testwait.Quiet(200 * time.Millisecond) // an answer to the cancelled call would come by then
		if n := browsertest.Eval[int](t, b, `log.filter(m => m.id === 5001).length`); n != 0 {
			t.Errorf("a cancelled request was answered %d times; MCP sends no answer", n)
		}
	})

	t.Run("invalid_arguments_get_32602_naming_the_path", func(t *testing.T) {
		open(t, appURL)
		for _, c := range []struct{ args, want string }{
			{`{item: "", qty: 2}`, "arguments.item: minLength 1"},
			{`{item: "tea", qty: 9}`, "arguments.qty: maximum 5"},
			{`{item: "tea", qty: 2.5}`, `arguments.qty: type "integer"`},
			{`{item: "tea"}`, `arguments: required ["item","qty"]`},
			{`{item: "tea", qty: 1, colour: "red"}`, `arguments: property "colour" is not allowed`},
			{`[1]`, "arguments: type object"},
		} {
			r := call(t, b, "tools/call", `{name: "order", arguments: `+c.args+`}`)
			if r.Error == nil || r.Error.Code != -32602 || !strings.Contains(r.Error.Message, c.want) {
				t.Errorf("order(%s) gave %+v %s, want -32602 naming %q", c.args, r.Error, r.Result, c.want)
			}
		}
		if got := text(t, call(t, b, "tools/call", `{name: "order", arguments: {item: "tea", qty: 2}}`)); got != "ordered 2 tea" {
			t.Errorf("valid arguments gave %q", got)
		}
	})

	t.Run("a_tool_that_cannot_be_sent_stays_out_of_the_list", func(t *testing.T) {
		open(t, appURL+"?native=1&badnative=1")
		r := call(t, b, "tools/list", `{}`)
		if r.Error != nil || !strings.Contains(string(r.Result), `"native_tool"`) || !strings.Contains(string(r.Result), `"count"`) || strings.Contains(string(r.Result), "unsendable") {
			t.Errorf("tools/list with one unsendable tool: %+v %s", r.Error, r.Result)
		}
		if !b.Await(t, `logged().some(l => l.includes("unsendable left out"))`) {
			t.Errorf("the host was not told why a tool is missing: %v", browsertest.Eval[[]string](t, b, `logged()`))
		}
	})

	t.Run("size_reports_shrink", func(t *testing.T) {
		open(t, appURL)
		browsertest.Eval[bool](t, b, `autoResize = true`)
		call(t, b, "tools/call", `{name: "grow"}`)
		if !b.Await(t, `parseInt(document.querySelector("iframe").style.height) > 800`) {
			t.Fatalf("the frame did not grow: %s", browsertest.Eval[string](t, b, `document.querySelector("iframe").style.height`))
		}
		call(t, b, "tools/call", `{name: "shrink"}`)
		if !b.Await(t, `parseInt(document.querySelector("iframe").style.height) < 200`) {
			t.Errorf("the frame did not shrink with its content: heights %s", browsertest.Eval[string](t, b, `JSON.stringify(log.filter(m => m.method === "ui/notifications/size-changed").map(m => m.params.height))`))
		}
	})

	t.Run("a_slow_host_gets_one_initialize", func(t *testing.T) {
		// A host under load that answers 2 s after the request gets it once; one slower than
		// the guest's first retry (5 s) gets a copy with the same id, and its second answer
		// is dropped quietly.
		for _, row := range []struct {
			slow, copies int
		}{{2000, 1}, {6000, 2}} {
			b.Visit(t, b.URL(0, "/host.html")+fmt.Sprintf("?slow=%d&app=", row.slow)+appURL, 0)
			if !b.Await(t, `handshakes > 0`) {
				t.Fatalf("a host answering after %d ms never connected; console: %v", row.slow, b.Console())
			}
			testwait.Quiet(500 * time.Millisecond) // another copy would come by then
			ids := browsertest.Eval[string](t, b, `JSON.stringify(log.filter(m => m.method === "ui/initialize").map(m => m.id))`)
			want := strings.TrimSuffix(strings.Repeat(`"miniapp-1",`, row.copies), ",")
			if ids != "["+want+"]" {
				t.Errorf("a host answering after %d ms got ui/initialize with ids %s, want [%s]", row.slow, ids, want)
			}
			if got := text(t, call(t, b, "tools/call", `{name: "count"}`)); got != "1" {
				t.Errorf("count = %q", got)
			}
			if l := browsertest.Eval[[]string](t, b, `logged()`); strings.Contains(strings.Join(l, "\n"), "dropped a reply") {
				t.Errorf("a host answering after %d ms was told: %v", row.slow, l)
			}
		}
	})

	t.Run("wrong_shapes_are_refused_with_the_form", func(t *testing.T) {
		open(t, appURL)
		b.Await(t, `count("ui/message") === 1`) // the probe's own, sent before the handshake
		s := text(t, call(t, b, "tools/call", `{name: "shapes"}`))
		var got map[string]any
		if err := json.Unmarshal([]byte(s), &got); err != nil {
			t.Fatalf("shapes: %v: %s", err, s)
		}
		for _, h := range []string{"ontoolchange", "ontoolactivated", "ontoolcancel"} {
			if v, ok := got[h]; !ok || v != nil {
				t.Errorf("document.modelContext.%s is %v, want a property that is null until set", h, v)
			}
		}
		for k, want := range map[string]string{
			"readServerResource": "readServerResource takes { uri: string }",
			"callServerTool":     "callServerTool takes { name: string, arguments?: object }",
			"callServerToolArgs": "callServerTool takes { name: string, arguments?: object }",
			"sendMessage":        "sendMessage takes the text to send",
			"sendLog":            "sendLog takes { level, data, logger?: string }",
			"requestDisplayMode": "requestDisplayMode takes { mode:",
			"openChat":           "openChat takes the prompt",
			"openLink":           "openLink takes a URL string or { url: string }",
			"updateModelContext": "updateModelContext takes { content?: ContentBlock[]",
			"setContext":         "setContext takes a function",
			"onToolInput":        "onToolInput takes a function",
			"registerTool":       "registerTool takes a tool {",
		} {
			if v, _ := got[k].(string); !strings.HasPrefix(v, "TypeError: ") || !strings.Contains(v, want) {
				t.Errorf("%s with the wrong shape: %q, want a TypeError saying %q", k, got[k], want)
			}
		}
		if n := browsertest.Eval[int](t, b, `count("resources/read") + count("ui/message") - 1`); n != 0 {
			t.Errorf("%d requests of the wrong shape reached the host", n)
		}
	})

	t.Run("late_host_still_connects_and_gets_early_requests", func(t *testing.T) {
		b.Visit(t, b.URL(0, "/host.html")+"?late=700&app="+appURL, 0)
		if !b.Await(t, `handshakes > 0`) {
			t.Fatalf("a host that listens 700 ms after load never connected; console: %v", b.Console())
		}
		if n := browsertest.Eval[int](t, b, `count("ui/initialize")`); n < 1 {
			t.Errorf("%d ui/initialize seen", n)
		}
		if !b.Await(t, `log.some(m => m.method === "ui/message" && m.params.content[0].text === "sent before the handshake")`) {
			t.Errorf("a request made before the handshake was dropped: %s", browsertest.Eval[string](t, b, `JSON.stringify(log.map(m => m.method))`))
		}
		if got := text(t, call(t, b, "tools/call", `{name: "count"}`)); got != "1" {
			t.Errorf("count = %q after a late handshake", got)
		}
	})

	t.Run("server_requests_logging_and_display_modes", func(t *testing.T) {
		open(t, appURL)
		if s := browsertest.Eval[string](t, b, `JSON.stringify(initParams.appCapabilities.availableDisplayModes)`); s != `["inline","fullscreen"]` {
			t.Errorf("availableDisplayModes = %s, want the manifest's", s)
		}
		s := text(t, call(t, b, "tools/call", `{name: "ask_host"}`))
		for _, want := range []string{`"tool":{"content":[{"type":"text","text":"server get_time`, `"text":"resource text"`, `"log":"sent"`, `"fullscreen":{"mode":"fullscreen"}`, `"pip":"refused: [miniapp] display mode pip is not in the manifest's displayModes`, `"chat":{}`} {
			if !strings.Contains(s, want) {
				t.Errorf("ask_host lacks %s:\n%s", want, s)
			}
		}
		if !b.Await(t, `logged().includes('"hello from the app"')`) {
			t.Errorf("sendLog did not reach the host as notifications/message: %v", browsertest.Eval[[]string](t, b, `logged()`))
		}
	})

	t.Run("a_spec_host_gets_no_extension", func(t *testing.T) {
		b.Visit(t, b.URL(0, "/host.html")+"?spec=1&app="+appURL, 0)
		if !b.Await(t, `handshakes > 0`) {
			t.Fatal("no handshake")
		}
		s := text(t, call(t, b, "tools/call", `{name: "ask_host"}`))
		if !strings.Contains(s, `"chat":"refused: [miniapp] the host does not support ui/open-chat`) {
			t.Errorf("openChat on a spec host: %s", s)
		}
		call(t, b, "tools/call", `{name: "select"}`)
		call(t, b, "tools/call", `{name: "throw_later"}`)
		if !b.Await(t, `logged().some(l => l.includes("boom from the app"))`) {
			t.Errorf("an uncaught error did not reach a spec host as a log message: %v", browsertest.Eval[[]string](t, b, `logged()`))
		}
		testwait.Quiet(400 * time.Millisecond) // a refused notification would come by then
		for _, m := range []string{"ui/notifications/selection-changed", "ui/notifications/error", "ui/open-chat"} {
			if n := browsertest.Eval[int](t, b, `count("`+m+`")`); n != 0 {
				t.Errorf("%d %s sent to a host that did not list it", n, m)
			}
		}
	})

	t.Run("a_hostile_host_changes_nothing", func(t *testing.T) {
		open(t, appURL)
		n := browsertest.Eval[int](t, b, `Promise.all(Array.from({length: 10000}, () => request("ping", {}))).then(rs => rs.filter(r => r.result).length)`)
		if n != 10000 {
			t.Errorf("%d of 10,000 pings answered", n)
		}
		browsertest.Eval[bool](t, b, `notify("ui/notifications/tool-input", {arguments: {big: "x".repeat(20e6)}}), true`)
		browsertest.Eval[bool](t, b, `raw(JSON.parse('{"jsonrpc":"2.0","method":"ui/notifications/host-context-changed","params":{"__proto__":{"polluted":"yes"},"theme":"light"}}')), true`)
		browsertest.Eval[bool](t, b, `raw(JSON.parse('{"jsonrpc":"2.0","id":6001,"method":"tools/call","params":{"name":"count","arguments":{"__proto__":{"polluted":"yes"}}}}')), true`)
		browsertest.Eval[bool](t, b, `raw({jsonrpc: "2.0", id: "no-such-request", result: {}}), raw({jsonrpc: "2.0", id: initId, result: initResult}), raw({jsonrpc: "2.0", id: 1, method: "tools/call", params: "not an object"}), raw("not JSON-RPC"), true`)
		if got := text(t, call(t, b, "tools/call", `{name: "polluted"}`)); got != "undefined" {
			t.Errorf("Object.prototype was polluted: %q", got)
		}
		if got := text(t, call(t, b, "tools/call", `{name: "count"}`)); got == "" {
			t.Errorf("the app stopped answering after hostile input")
		}
		if !b.Await(t, `logged().some(l => l.includes("unknown id no-such-request")) && logged().some(l => l.includes("unknown id "+initId)) && logged().some(l => l.includes("not JSON-RPC"))`) {
			t.Errorf("oddities were not logged to the host: %v", browsertest.Eval[[]string](t, b, `logged()`))
		}
		for _, c := range b.Console() {
			if strings.Contains(c, "exception") || strings.Contains(c, "Uncaught") {
				t.Errorf("hostile input threw in the app: %s", c)
			}
		}
	})

	t.Run("a_request_before_the_handshake_is_logged", func(t *testing.T) {
		b.Visit(t, b.URL(0, "/host.html")+"?early=1&app="+appURL, 0)
		if !b.Await(t, `logged().some(l => l.includes("dropped before the handshake: tools/list"))`) {
			t.Errorf("no log of the early request: %v", browsertest.Eval[[]string](t, b, `logged()`))
		}
		if n := browsertest.Eval[int](t, b, `log.filter(m => m.id === 777).length`); n != 0 {
			t.Errorf("the early request was answered")
		}
	})
}
