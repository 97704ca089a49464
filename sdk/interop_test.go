package sdk_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/pipeline/browsertest"
)

// buildExtHost bundles testdata/exthost/host.ts, a host on the official MCP Apps AppBridge
// from npm, into one page.
func buildExtHost(t *testing.T) []byte {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("testdata", "exthost"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "ext-apps")); err != nil {
		t.Fatalf("the interop host needs its npm packages: run (cd sdk/testdata/exthost && npm ci), as scripts/test does")
	}
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

// TestInteropWithAppBridge runs the SDK against a host no one here wrote: the handshake, the
// app's tools listed and called, tool-input, tool-result and host-context-changed delivered.
func TestInteropWithAppBridge(t *testing.T) {
	b := browsertest.StartWith(t, browsertest.Config{Origins: 2, SameProcessFrames: true, InitScript: instrument})
	b.Serve("/probe.html", buildProbe(t, ""))
	b.Serve("/ext.html", buildExtHost(t))
	b.Visit(t, b.URL(0, "/ext.html")+"?app="+b.URL(1, "/probe.html"), 0)
	ok := browsertest.Eval[bool](t, b, `Promise.race([ext.ready.then(() => true), new Promise(r => setTimeout(() => r(false), 5000))])`)
	if !ok {
		t.Fatalf("AppBridge saw no ui/notifications/initialized; console: %v", b.Console())
	}
	if s := browsertest.Eval[string](t, b, `JSON.stringify(ext.appInfo())`); !strings.Contains(s, `"name":"Probe"`) {
		t.Errorf("AppBridge's app info: %s", s)
	}
	if s := browsertest.Eval[string](t, b, `JSON.stringify(ext.appCapabilities())`); !strings.Contains(s, `"listChanged":true`) || !strings.Contains(s, `"documentId"`) {
		t.Errorf("AppBridge's app capabilities: %s", s)
	}
	tools := browsertest.Eval[string](t, b, `ext.listTools().then(r => JSON.stringify(r.tools.map(t => t.name)))`)
	for _, want := range []string{"count", "seen", "env"} {
		if !strings.Contains(tools, `"`+want+`"`) {
			t.Errorf("AppBridge.listTools lacks %s: %s", want, tools)
		}
	}
	if got := browsertest.Eval[string](t, b, `ext.callTool("count", {}).then(r => r.content[0].text)`); got != "1" {
		t.Errorf("AppBridge.callTool(count) = %q", got)
	}
	browsertest.Eval[bool](t, b, `Promise.all([ext.sendToolInput({city: "Lisbon"}), ext.sendToolResult("sunny"), ext.sendHostContext("dark")]).then(() => true)`)
	time.Sleep(150 * time.Millisecond)
	seen := browsertest.Eval[string](t, b, `ext.callTool("seen", {}).then(r => r.content[0].text)`)
	for _, want := range []string{`"city":"Lisbon"`, `"text":"sunny"`, `"theme":"dark"`} {
		if !strings.Contains(seen, want) {
			t.Errorf("the app did not get %s: %s", want, seen)
		}
	}
	for _, c := range b.Console() {
		if strings.Contains(c, "POSTMESSAGE_STAR") {
			t.Errorf("a postMessage was sent with '*': %s", c)
		}
	}
}
