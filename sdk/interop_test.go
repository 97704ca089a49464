package sdk_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/pipeline/browsertest"
)

// buildExtHost bundles testdata/exthost/host.ts, a host on the official MCP Apps AppBridge
// from npm, into one page.
func buildExtHost(t testing.TB) []byte {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("testdata", "exthost"))
	needNPM(t, dir)
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{filepath.Join(dir, "host.ts")}, Bundle: true, Write: false,
		Format: api.FormatIIFE, Platform: api.PlatformBrowser, Target: api.ES2022,
		AbsWorkingDir: dir, LogLevel: api.LogLevelSilent, Outdir: "out",
	})
	if len(res.Errors) > 0 {
		t.Fatalf("bundle the AppBridge host: %s", res.Errors[0].Text)
	}
	js := strings.ReplaceAll(string(res.OutputFiles[0].Contents), "</script", `<\/script`)
	return []byte(`<!doctype html><meta charset="utf-8"><title>ext host</title><body><script>` + js + `</script>`)
}

// needNPM fails (never skips) when a test fixture has not had npm ci: scripts/test runs it.
func needNPM(t testing.TB, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		t.Fatalf("%s needs its npm packages: run (cd %s && npm ci), as scripts/test does", filepath.Base(dir), dir)
	}
}

// buildApp builds the app in dir (relative to this package) in memory.
func buildApp(t testing.TB, dir string) []byte {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		needNPM(t, dir)
	}
	res, err := pipeline.Build(context.Background(), dir, pipeline.Options{NoWrite: true})
	if err != nil {
		t.Fatalf("build %s: %v", dir, err)
	}
	return res.HTML
}

// startExt starts Chromium with the AppBridge host on the first origin, the sandbox proxy on
// the second, and apps on the second.
func startExt(t testing.TB) *browsertest.Browser {
	t.Helper()
	b := browsertest.StartWith(t, browsertest.Config{Origins: 2, SameProcessFrames: true, InitScript: instrument})
	b.Serve("/ext.html", buildExtHost(t))
	proxy, err := os.ReadFile(filepath.Join("testdata", "exthost", "proxy.html"))
	if err != nil {
		t.Fatal(err)
	}
	b.Serve("/proxy.html", proxy)
	return b
}

// openExt opens the AppBridge host framing the app served at path: directly, or (proxied)
// through the sandbox proxy on the second origin, which gets the app's HTML from the host.
func openExt(t testing.TB, b *browsertest.Browser, path string, proxied bool) {
	t.Helper()
	openExtWith(t, b, path, proxied, "")
}

// openExtWith is openExt with more of the host page's query (such as "&slow=2000").
func openExtWith(t testing.TB, b *browsertest.Browser, path string, proxied bool, query string) {
	t.Helper()
	u := b.URL(0, "/ext.html") + "?app=" + url.QueryEscape(b.URL(1, path)) + query
	if proxied {
		u = b.URL(0, "/ext.html") + "?proxy=" + url.QueryEscape(b.URL(1, "/proxy.html")) + "&src=" + url.QueryEscape(path) + query
	}
	b.Visit(t, u, 0)
	if !b.Await(t, `window.toolsAtInit !== undefined`) { // set when AppBridge's oninitialized ran
		t.Fatalf("AppBridge saw no ui/notifications/initialized; received %s; console: %v", browsertest.Eval[string](t, b, `JSON.stringify(received)`), b.Console())
	}
}

// initRequests counts the ui/initialize requests the AppBridge host received, each once: the
// SDK sends the same one again until a host answers (for a host that listens late), and a
// host slowed by a busy machine or the sandbox proxy's hop can answer after the first resend.
const initRequests = `new Set(received.filter(m => m.method === "ui/initialize").map(m => JSON.stringify(m))).size`

func noStar(t testing.TB, b *browsertest.Browser) {
	t.Helper()
	for _, c := range b.Console() {
		if strings.Contains(c, "POSTMESSAGE_STAR") {
			t.Errorf("a postMessage was sent with '*': %s", c)
		}
	}
}

// TestInteropWithAppBridge runs the SDK against a host no one here wrote: the handshake, the
// app's tools listed and called, tool-input, tool-result and host-context-changed delivered.
func TestInteropWithAppBridge(t *testing.T) {
	b := startExt(t)
	b.Serve("/probe.html", buildProbe(t, ""))
	for _, proxied := range []bool{false, true} {
		t.Run(map[bool]string{false: "direct", true: "sandbox_proxy"}[proxied], func(t *testing.T) {
			openExt(t, b, "/probe.html", proxied)
			if s := browsertest.Eval[string](t, b, `JSON.stringify(ext.appInfo())`); !strings.Contains(s, `"name":"Probe"`) {
				t.Errorf("AppBridge's app info: %s", s)
			}
			if s := browsertest.Eval[string](t, b, `JSON.stringify(ext.appCapabilities())`); !strings.Contains(s, `"listChanged":true`) || !strings.Contains(s, `"documentId"`) || !strings.Contains(s, `"availableDisplayModes":["inline","fullscreen"]`) {
				t.Errorf("AppBridge's app capabilities: %s", s)
			}
			if n := browsertest.Eval[int](t, b, initRequests); n != 1 {
				t.Errorf("%d ui/initialize, want 1", n)
			}
			tools := browsertest.Eval[string](t, b, `ext.listTools().then(r => JSON.stringify(r.tools.map(t => t.name)))`)
			for _, want := range []string{"count", "seen", "env", "order"} {
				if !strings.Contains(tools, `"`+want+`"`) {
					t.Errorf("AppBridge.listTools lacks %s: %s", want, tools)
				}
			}
			if got := browsertest.Eval[string](t, b, `ext.callTool("count", {}).then(r => r.content[0].text)`); got != "1" {
				t.Errorf("AppBridge.callTool(count) = %q", got)
			}
			if got := browsertest.Eval[string](t, b, `ext.callTool("order", {item: "tea", qty: 7}).then(r => "no error: " + JSON.stringify(r), e => String(e.message ?? e))`); !strings.Contains(got, "arguments.qty: maximum 5") {
				t.Errorf("AppBridge.callTool(order) with bad arguments: %s", got)
			}
			browsertest.Eval[bool](t, b, `Promise.all([ext.sendToolInput({city: "Lisbon"}), ext.sendToolResult("sunny"), ext.sendHostContext("dark")]).then(() => true)`)
			wants := []string{`"city":"Lisbon"`, `"text":"sunny"`, `"theme":"dark"`}
			var seen string
			testwait.For(func() bool {
				seen = browsertest.Eval[string](t, b, `ext.callTool("seen", {}).then(r => r.content[0].text)`)
				for _, want := range wants {
					if !strings.Contains(seen, want) {
						return false
					}
				}
				return true
			})
			for _, want := range wants {
				if !strings.Contains(seen, want) {
					t.Errorf("the app did not get %s: %s", want, seen)
				}
			}
			ask := browsertest.Eval[string](t, b, `ext.callTool("ask_host", {}).then(r => r.content[0].text)`)
			if !strings.Contains(ask, "server get_time at 12:00") || !strings.Contains(ask, `"chat":"refused: [miniapp] the host does not support ui/open-chat`) {
				t.Errorf("the app's requests through AppBridge: %s", ask)
			}
			noStar(t, b)
		})
	}
}

// TestReactToolsAtInitialized frames the React sample in a host that lists tools the moment
// the app says it is initialized, as AppBridge hosts do: the tools React registers in its
// effects must be there.
func TestReactToolsAtInitialized(t *testing.T) {
	b := startExt(t)
	b.Serve("/order-book.html", buildApp(t, filepath.Join("..", "samples", "order-book")))
	var ms []float64
	for i := 0; i < 5; i++ {
		openExt(t, b, "/order-book.html", false)
		got := browsertest.Eval[[]string](t, b, `toolsAtInit`)
		if !slices.Contains(got, "list_orders") || !slices.Contains(got, "set_order_status") {
			t.Fatalf("tools listed at initialized: %v, want list_orders and set_order_status", got)
		}
		ms = append(ms, browsertest.Eval[float64](t, b, `initializedMs`))
	}
	sort.Float64s(ms)
	t.Logf("frame appended → initialized with the React app's tools listed: median %.0f ms (%v)", ms[len(ms)/2], ms)
}

// TestOfficialClientCarried builds an app on the official MCP Apps client (App from
// @modelcontextprotocol/ext-apps, connected as its quickstart does) and frames it in AppBridge
// hosts, directly and behind a sandbox proxy: the page makes exactly one ui/initialize, the
// app's client works unchanged, and a tool on document.modelContext reaches the host beside the
// App's own.
func TestOfficialClientCarried(t *testing.T) {
	b := startExt(t)
	b.Serve("/extapp.html", buildApp(t, filepath.Join("testdata", "extapp")))
	for _, proxied := range []bool{false, true} {
		t.Run(map[bool]string{false: "direct", true: "sandbox_proxy"}[proxied], func(t *testing.T) {
			openExt(t, b, "/extapp.html", proxied)
			testwait.Quiet(300 * time.Millisecond) // a second ui/initialize would come by then
			if n := browsertest.Eval[int](t, b, initRequests); n != 1 {
				t.Errorf("%d ui/initialize reached the host, want exactly 1: %s", n, browsertest.Eval[string](t, b, `JSON.stringify(received.map(m => m.method ?? m.id))`))
			}
			if n := browsertest.Eval[int](t, b, `ext.count("ui/notifications/initialized")`); n != 1 {
				t.Errorf("%d ui/notifications/initialized, want 1", n)
			}
			if s := browsertest.Eval[string](t, b, `JSON.stringify(ext.appInfo())`); !strings.Contains(s, `"Get Time App"`) {
				t.Errorf("the host got another app info than the app's client's: %s", s)
			}
			if s := browsertest.Eval[string](t, b, `JSON.stringify(ext.appCapabilities())`); !strings.Contains(s, `"listChanged":true`) || !strings.Contains(s, `"miniapp/bridge"`) {
				t.Errorf("the app's capabilities were not merged with the SDK's: %s", s)
			}
			atInit := browsertest.Eval[[]string](t, b, `toolsAtInit`)
			if !slices.Contains(atInit, "app_echo") || !slices.Contains(atInit, "page_tool") {
				t.Errorf("tools at initialized: %v, want the App's app_echo and document.modelContext's page_tool; received %s", atInit, browsertest.Eval[string](t, b, `JSON.stringify(received)`))
			}
			if got := browsertest.Eval[string](t, b, `ext.callTool("app_echo", {}).then(r => r.content[0].text)`); got != "echo from App" {
				t.Errorf("the App's own tool answered %q", got)
			}
			if got := browsertest.Eval[string](t, b, `ext.callTool("page_tool", {n: 3}).then(r => r.content[0].text)`); got != "page tool 3" {
				t.Errorf("document.modelContext's tool answered %q", got)
			}
			if got := browsertest.Eval[string](t, b, `ext.callTool("page_tool", {n: 0}).then(r => "answered " + JSON.stringify(r), e => e.message)`); !strings.Contains(got, "arguments.n: minimum 1") {
				t.Errorf("document.modelContext's tool with bad arguments: %s", got)
			}
			// The App's own calls to the host go through the SDK's wire and come back to it.
			browsertest.Eval[bool](t, b, `ext.sendToolResult("the time is now"), true`)
			state := ""
			testwait.For(func() bool {
				state = browsertest.Eval[string](t, b, `ext.callTool("app_state", {}).then(r => r.content[0].text)`)
				return strings.Contains(state, "the time is now")
			})
			if !strings.Contains(state, `"serverTime":"the time is now"`) || !strings.Contains(state, `"status":"connected to ext-host"`) || !strings.Contains(state, `"errors":[]`) {
				t.Errorf("the App's client state: %s", state)
			}
			if got := browsertest.Eval[string](t, b, `ext.callTool("click_get_time", {}).then(r => r.content[0].text)`); got != "server get-time at 12:00" {
				t.Errorf("the App's callServerTool gave %q", got)
			}
			for _, c := range b.Console() {
				if strings.Contains(c, "unknown message ID") || strings.Contains(c, "Failed to parse message") {
					t.Errorf("the App's client saw a message that was not its own: %s", c)
				}
			}
			noStar(t, b)
		})
	}
}

// TestOfficialClientSlowHost: the official App carried over the SDK's wire, in an AppBridge
// host that takes 2 s to get to ui/initialize (as a host under load does): the host receives
// one ui/initialize, and nothing is told of a dropped reply.
func TestOfficialClientSlowHost(t *testing.T) {
	b := startExt(t)
	b.Serve("/extapp.html", buildApp(t, filepath.Join("testdata", "extapp")))
	b.Serve("/probe.html", buildProbe(t, ""))
	for _, path := range []string{"/extapp.html", "/probe.html"} {
		t.Run(strings.Trim(path, "/"), func(t *testing.T) {
			openExtWith(t, b, path, false, "&slow=2000")
			testwait.Quiet(500 * time.Millisecond) // another copy would come by then
			if n := browsertest.Eval[int](t, b, `ext.count("ui/initialize")`); n != 1 {
				t.Errorf("%d ui/initialize reached a host that takes 2 s, want 1: %s", n, browsertest.Eval[string](t, b, `JSON.stringify(received.map(m => m.method ?? m.id))`))
			}
			logs := browsertest.Eval[string](t, b, `JSON.stringify(logs)`)
			if strings.Contains(logs, "dropped") {
				t.Errorf("the host was told: %s", logs)
			}
			for _, c := range b.Console() {
				if strings.Contains(c, "dropped a reply") || strings.Contains(c, "unknown message ID") {
					t.Errorf("console: %s", c)
				}
			}
			if got := browsertest.Eval[string](t, b, `ext.listTools().then(r => JSON.stringify(r.tools.map(t => t.name)))`); !strings.Contains(got, "app_echo") && !strings.Contains(got, "count") {
				t.Errorf("tools after a slow handshake: %s", got)
			}
		})
	}
}
